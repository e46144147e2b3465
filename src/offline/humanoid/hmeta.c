/* The model's sidecar MODEL.meta.json: humanoid overrides in, the detected map out. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "humanoid_internal.h"
#include "util/arena.h"
#include "util/files.h"
#include "util/jread.h"
#include "util/suggest.h"

void mf_humanoid_meta_path(const char *model, char *out, size_t size)
{
    snprintf(out, size, "%s.meta.json", model ? model : "");
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

void mf_humanoid_overrides_free(mf_humanoid_overrides *ov)
{
    if (!ov) return;
    mf_arena_destroy(ov->mem);
    memset(ov, 0, sizeof *ov);
}

static const char *canonical_at(const void *ctx, int i)
{
    (void)ctx;
    return mf_humanoid_bone_name((mf_humanoid_bone)i);
}

static bool read_humanoid(mf_jr *r, mf_humanoid_overrides *ov, const cJSON *hum)
{
    if (!mf_jr_expect_object(r, hum)) return false;
    for (const cJSON *e = hum->child; e; e = e->next) {
        size_t mark = mf_jr_key(r, e->string);
        int b = mf_humanoid_bone_from_name(e->string);
        if (b < 0) {
            char sug[96];
            mf_suggest_suffix(sug, sizeof sug, mf_suggest(e->string, MF_HB_COUNT, canonical_at, NULL));
            return mf_jr_fail(r, "unknown humanoid bone \"%s\"%s", e->string, sug);
        }
        if (ov->bone[b] || ov->unmap[b]) return mf_jr_fail(r, "\"%s\" is given twice", e->string);
        if (cJSON_IsNull(e)) {
            ov->unmap[b] = true;
        } else if (cJSON_IsString(e) && e->valuestring[0]) {
            ov->bone[b] = mf_arena_strdup(ov->mem, e->valuestring);
            if (!ov->bone[b]) return mf_jr_fail(r, "out of memory");
        } else {
            return mf_jr_fail(r, "expected the rig bone's name (a non-empty string) or null, got %s",
                              mf_jr_type_name(e));
        }
        mf_jr_pop(r, mark);
    }
    return true;
}

mf_result mf_humanoid_overrides_parse(const char *text, size_t len, const char *file, mf_humanoid_overrides *ov,
                                      mf_diag *diag)
{
    memset(ov, 0, sizeof *ov);
    snprintf(ov->file, sizeof ov->file, "%s", file ? file : "");
    ov->mem = mf_arena_create();
    if (!ov->mem) return MF_ERR_NOMEM;
    mf_jr r;
    mf_jr_init(&r, file, diag);
    cJSON *root = mf_jr_parse(&r, text, len);
    bool ok = root && mf_jr_expect_object(&r, root);
    const cJSON *settings = ok ? cJSON_GetObjectItemCaseSensitive(root, "settings") : NULL;
    if (ok && settings) {
        size_t mark = mf_jr_key(&r, "settings");
        ok = mf_jr_expect_object(&r, settings);
        const cJSON *hum = ok ? cJSON_GetObjectItemCaseSensitive(settings, "humanoid") : NULL;
        if (ok && hum) {
            size_t m2 = mf_jr_key(&r, "humanoid");
            ok = read_humanoid(&r, ov, hum);
            mf_jr_pop(&r, m2);
        }
        mf_jr_pop(&r, mark);
    }
    cJSON_Delete(root);
    return ok ? MF_OK : MF_ERR_INVALID;
}

mf_result mf_humanoid_overrides_load(const char *meta_path, mf_humanoid_overrides *ov, bool *found, mf_diag *diag)
{
    if (found) *found = false;
    if (!exists(meta_path)) { /* no sidecar: no overrides */
        memset(ov, 0, sizeof *ov);
        snprintf(ov->file, sizeof ov->file, "%s", meta_path);
        ov->mem = mf_arena_create();
        return ov->mem ? MF_OK : MF_ERR_NOMEM;
    }
    char *text;
    size_t len;
    memset(ov, 0, sizeof *ov);
    mf_result rc = mf_read_file(meta_path, &text, &len, diag);
    if (rc != MF_OK) return rc;
    if (found) *found = true;
    rc = mf_humanoid_overrides_parse(text, len, meta_path, ov, diag);
    free(text);
    return rc;
}

mf_result mf_humanoid_meta_write(const char *meta_path, const mf_humanoid_skeleton *s, const mf_humanoid_map *map,
                                 mf_diag *diag)
{
    cJSON *root = NULL;
    if (exists(meta_path)) { /* keep everything else the sidecar holds */
        char *text;
        size_t len;
        mf_result rc = mf_read_file(meta_path, &text, &len, diag);
        if (rc != MF_OK) return rc;
        mf_jr r;
        mf_jr_init(&r, meta_path, diag);
        root = mf_jr_parse(&r, text, len);
        free(text);
        if (!root) return MF_ERR_INVALID;
        if (!mf_jr_expect_object(&r, root)) {
            cJSON_Delete(root);
            return MF_ERR_INVALID;
        }
    } else {
        root = cJSON_CreateObject();
    }
    mf_result rc = MF_ERR_NOMEM;
    cJSON *settings = root ? cJSON_GetObjectItemCaseSensitive(root, "settings") : NULL;
    if (root && !cJSON_GetObjectItemCaseSensitive(root, "importer")) cJSON_AddStringToObject(root, "importer", "model");
    if (root && settings && !cJSON_IsObject(settings)) {
        mf_diag_set(diag, meta_path, "settings", "expected an object, got %s", mf_jr_type_name(settings));
        cJSON_Delete(root);
        return MF_ERR_INVALID;
    }
    if (root && !settings) settings = cJSON_AddObjectToObject(root, "settings");
    cJSON *hum = settings ? cJSON_CreateObject() : NULL;
    if (hum) {
        for (int b = 0; b < MF_HB_COUNT; b++) {
            const char *name = mf_humanoid_bone_name((mf_humanoid_bone)b);
            if (map->bone[b] >= 0) cJSON_AddStringToObject(hum, name, s->names[map->bone[b]]);
            else if (map->source[b] == MF_HSRC_OVERRIDE) cJSON_AddNullToObject(hum, name);
        }
        if (cJSON_GetObjectItemCaseSensitive(settings, "humanoid")) cJSON_ReplaceItemInObjectCaseSensitive(settings, "humanoid", hum);
        else cJSON_AddItemToObject(settings, "humanoid", hum);
        char *out = cJSON_Print(root);
        if (out) {
            size_t n = strlen(out);
            char *text = malloc(n + 2);
            if (text) {
                memcpy(text, out, n);
                text[n] = '\n';
                rc = mf_write_file_atomic(meta_path, text, n + 1, diag);
                free(text);
            }
            cJSON_free(out);
        }
    }
    if (rc == MF_ERR_NOMEM) mf_diag_set(diag, meta_path, "", "out of memory");
    cJSON_Delete(root);
    return rc;
}
