/* mf_build_file: a .mskel, its images and its clips folder → atlas pages and the binary build,
 * written atomically, through the bake cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"
#include "mf/mf_bake_cache.h"
#include "mf/mf_rig.h"
#include "util/files.h"

static void fill_report(mf_build_report *rep, const mf_skel_data *d, size_t bytes)
{
    rep->bones = d->bone_count;
    rep->slots = d->slot_count;
    rep->skins = d->skin_count;
    rep->attachments = d->attachment_count;
    rep->constraints = d->ik_count + d->transform_count + d->path_count + d->physics_count;
    rep->events = d->event_count;
    rep->images = d->image_count;
    rep->clips = d->clip_count;
    rep->timelines = d->timeline_count;
    rep->keys = d->time_count;
    rep->bytes = bytes;
    rep->pages = d->page_count;
    rep->normal_pages = d->page_count > 0 && d->pages[0].normal_name >= 0;
    int64_t used = 0, area = 0;
    for (int32_t i = 0; i < d->image_count; i++)
        if (d->images[i].page >= 0) used += (int64_t)d->images[i].w * d->images[i].h;
    for (int32_t p = 0; p < d->page_count; p++) area += (int64_t)d->pages[p].width * d->pages[p].height;
    rep->occupancy = area > 0 ? (double)used / (double)area : 0.0;
    rep->clip_names = calloc((size_t)d->clip_count + 1, sizeof(char *));
    for (int32_t i = 0; rep->clip_names && i < d->clip_count; i++) {
        const char *n = mf_skel_data_string(d, d->clips[i].name);
        size_t len = strlen(n) + 1;
        if ((rep->clip_names[i] = malloc(len))) memcpy(rep->clip_names[i], n, len);
    }
}

void mf_build_report_free(mf_build_report *rep)
{
    if (!rep) return;
    for (int32_t i = 0; rep->clip_names && i < rep->clips; i++) free(rep->clip_names[i]);
    free(rep->clip_names);
    memset(rep, 0, sizeof *rep);
}

/* Two entries, so that editing a clip does not re-pack the atlas:
 *   atlas key = SHA-256 of the cache and build versions, the .mskel bytes, the import settings
 *               and the bytes of the images the rig uses (and their normal maps);
 *   build key = SHA-256 of the atlas key and every clip file (its name and bytes).
 * The atlas entry holds the pages and placements, the build entry the build alone. */
static bool atlas_key(const char *skel_path, const mf_skeleton *sk, mf_bake_key *out)
{
    mf_bake_hasher *h = mf_bake_hasher_new();
    if (!h) return false;
    char *data = NULL;
    size_t len = 0;
    bool ok = mf_read_file(skel_path, &data, &len, NULL) == MF_OK;
    mf_bake_hash_str(h, "mfanim skeleton bake: atlas");
    mf_bake_hash_u64(h, MF_BAKE_CACHE_VERSION);
    mf_bake_hash_u64(h, MF_SKEL_DATA_VERSION);
    if (ok) mf_bake_hash_field(h, data, len);
    free(data);
    const mf_import_settings *im = &sk->import;
    char settings[512];
    snprintf(settings, sizeof settings, "%s|%d|%d|%.9g|%s|%d|%s", im->images ? im->images : "", (int)im->page_size,
             (int)im->padding, (double)im->scale, im->filter ? im->filter : "", (int)im->mipmaps,
             im->normal_suffix ? im->normal_suffix : "");
    mf_bake_hash_str(h, settings);
    ok = ok && mf_build_atlas_hash_inputs(sk, skel_path, h);
    mf_bake_hasher_finish(h, out);
    return ok;
}

static bool build_key(const mf_bake_key *atlas, const mf_rig *rig, mf_bake_key *out)
{
    mf_bake_hasher *h = mf_bake_hasher_new();
    if (!h) return false;
    mf_bake_hash_str(h, "mfanim skeleton bake: build");
    mf_bake_hash(h, atlas->bytes, 32);
    mf_bake_hash_u64(h, (uint64_t)rig->clip_count);
    bool ok = true;
    for (int32_t i = 0; ok && i < rig->clip_count; i++) {
        char name[512], *data = NULL;
        size_t len = 0;
        mf_path_stem(rig->clip_paths[i], name, sizeof name);
        mf_bake_hash_str(h, name);
        ok = mf_read_file(rig->clip_paths[i], &data, &len, NULL) == MF_OK;
        if (ok) mf_bake_hash_field(h, data, len);
        free(data);
    }
    mf_bake_hasher_finish(h, out);
    return ok;
}

/* The files of one build: pages (and normal pages) then the build itself, last. */
typedef struct outputs {
    mf_bake_item items[2 * 64 + 1];
    int32_t count;
} outputs;

static mf_result write_outputs(const char *out_path, const mf_bake_item *items, int32_t n, mf_diag *diag)
{
    char dir[4096], stem[1024];
    mf_path_dir(out_path, dir, sizeof dir);
    mf_path_stem(out_path, stem, sizeof stem);
    mf_result r = MF_OK;
    for (int32_t i = 0; r == MF_OK && i < n - 1; i++) { /* pages first: the build refers to them */
        char path[8300]; /* page names are suffixes of the build's stem */
        snprintf(path, sizeof path, "%s%s%s", dir, stem, items[i].name);
        r = mf_write_file_atomic(path, items[i].data, items[i].size, diag);
    }
    if (r == MF_OK && n > 0) r = mf_write_file_atomic(out_path, items[n - 1].data, items[n - 1].size, diag);
    return r;
}

/* The atlas from its entry, or false (a miss). */
static bool atlas_from_cache(const mf_bake_cache *cache, const mf_bake_key *key, mf_build_atlas *atlas)
{
    void *payload = NULL;
    size_t len = 0;
    if (!mf_bake_cache_get(cache, key, &payload, &len)) return false;
    bool hit = mf_build_atlas_decode(payload, len, atlas);
    free(payload);
    return hit;
}

/* The build from its entry when it loads (malloc'd: aligned for the loader), or false. */
static bool build_from_cache(const mf_bake_cache *cache, const mf_bake_key *key, void **blob, size_t *size)
{
    mf_skel_data d;
    if (!mf_bake_cache_get(cache, key, blob, size)) return false;
    if (mf_skel_data_load(*blob, *size, &d, NULL) == MF_OK) return true;
    free(*blob);
    *blob = NULL;
    *size = 0;
    return false;
}

mf_result mf_build_file_opt(const char *mskel_path, const char *out_path, const mf_build_options *opt,
                            mf_build_report *report, mf_diag *diag)
{
    if (report) memset(report, 0, sizeof *report);
    if (!mskel_path || !out_path) {
        mf_diag_set(diag, "", "", "mf_build_file: missing path");
        return MF_ERR_ARGUMENT;
    }
    mf_build_options defaults = {0};
    if (!opt) opt = &defaults;
    mf_rig rig;
    mf_result r = mf_rig_load(mskel_path, &rig, diag);
    if (r != MF_OK) return r;
    mf_bake_cache cache;
    mf_bake_cache_init(&cache);
    if (opt->no_cache) cache.enabled = false;
    mf_bake_key akey, bkey;
    if (cache.enabled && !(atlas_key(mskel_path, rig.sk, &akey) && build_key(&akey, &rig, &bkey)))
        cache.enabled = false;
    mf_build_atlas atlas;
    memset(&atlas, 0, sizeof atlas);
    bool atlas_hit = cache.enabled && atlas_from_cache(&cache, &akey, &atlas), build_hit = false;
    if (!atlas_hit) r = mf_build_atlas_make(rig.sk, mskel_path, "", &atlas, opt->progress, opt->progress_user, diag);
    if (r == MF_OK && atlas.page_count > 64) {
        mf_diag_set(diag, mskel_path, "import.pageSize", "%d atlas pages (at most 64): raise import.pageSize",
                    (int)atlas.page_count);
        r = MF_ERR_INVALID;
    }
    if (r == MF_OK && cache.enabled && !atlas_hit) {
        void *payload = NULL;
        size_t plen = 0;
        if (mf_build_atlas_encode(&atlas, &payload, &plen) == MF_OK) mf_bake_cache_put(&cache, &akey, payload, plen);
        free(payload);
    }
    void *blob = NULL;
    size_t size = 0;
    if (r == MF_OK && cache.enabled) build_hit = build_from_cache(&cache, &bkey, &blob, &size);
    if (r == MF_OK && !build_hit) {
        r = mf_build_skeleton_atlas(rig.sk, mskel_path, (const mf_clip *const *)rig.clips,
                                    (const char *const *)rig.clip_paths, rig.clip_count, &atlas, &blob, &size, diag);
        if (r == MF_OK && cache.enabled) mf_bake_cache_put(&cache, &bkey, blob, size);
    }
    outputs o = {.count = 0};
    for (int32_t p = 0; r == MF_OK && p < atlas.page_count; p++) {
        o.items[o.count++] = (mf_bake_item){atlas.pages[p].name, atlas.pages[p].png, atlas.pages[p].png_size};
        if (atlas.pages[p].normal_name)
            o.items[o.count++] =
                (mf_bake_item){atlas.pages[p].normal_name, atlas.pages[p].normal_png, atlas.pages[p].normal_png_size};
    }
    if (r == MF_OK) {
        o.items[o.count++] = (mf_bake_item){"build", blob, size};
        r = write_outputs(out_path, o.items, o.count, diag);
    }
    if (r == MF_OK && report) {
        mf_skel_data d;
        if (mf_skel_data_load(blob, size, &d, NULL) == MF_OK) fill_report(report, &d, size);
        report->cache = !cache.enabled ? "off" : atlas_hit && build_hit ? "hit" : "miss";
        report->atlas_cache = !cache.enabled ? "off" : atlas_hit ? "hit" : "miss";
    }
    free(blob);
    mf_build_atlas_free(&atlas);
    mf_rig_free(&rig);
    return r;
}

mf_result mf_build_file(const char *mskel_path, const char *out_path, mf_build_report *report, mf_diag *diag)
{
    return mf_build_file_opt(mskel_path, out_path, NULL, report, diag);
}
