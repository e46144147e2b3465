/* The picture test of issue 6: corpus frames rendered by the software renderer twice — once from
 * the project's runtime (the rig imported, built in memory, posed, its draw list textured with the
 * imported images as `mfe skel render` does) and once from the Spine runtime's reference dump
 * (its world vertices, uvs and triangles on the corpus atlas pages) — and the two pictures
 * compared. Pictures are 256 px on their long side, framed on the whole scenario, cleared to
 * transparent; the comparison counts the pixels that either picture covers:
 *   - mean absolute difference per channel (premultiplied RGBA, 0..255) <= MEAN_TOL,
 *   - share of pixels with a channel off by more than OFF_LEVEL <= OFF_TOL.
 * Physics rigs are left out (the pose module leaves physics to playback). Under ASan fewer frames
 * a scenario are drawn. MF_PICTURE_OUT=folder keeps both pictures of every frame (and prints every
 * frame's numbers) for a person to look at; a failing frame's pair is always written to the
 * test's temp folder. MF_PICTURE_RIGS=a,b runs a subset. Skipped without ../shared. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mf/mf_build.h"
#include "mf/mf_geometry.h"
#include "mf/mf_pose.h"
#include "mf/mf_render.h"
#include "mf/mf_rig.h"
#include "mf/mf_spine.h"
#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__)
#define MF_PIC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MF_PIC_ASAN 1
#endif
#endif
#ifndef MF_PIC_ASAN
#define MF_PIC_ASAN 0
#endif

#define SIZE 256
#define MEAN_TOL 2.0   /* per channel, 0..255, over covered pixels */
#define OFF_TOL 0.01   /* share of covered pixels with a channel off by more than OFF_LEVEL */
#define OFF_LEVEL 48

typedef struct pic_case {
    const char *rig, *scenario;
} pic_case;

static const pic_case CASES[] = {
    {"spineboy", "anim-walk"},
    {"spineboy", "anim-portal"},  /* clipping, additive */
    {"spineboy", "anim-shoot"},
    {"raptor", "anim-walk"},      /* atlas scale 0.5 */
    {"alien", "anim-run"},        /* two-colour tint, additive */
    {"owl", "anim-idle"},
    {"goblins", "skin-goblin-walk"}, /* skins */
    {"coin", "anim-animation"},   /* clipping, two-colour tint */
    {"dragon", "anim-flying"},    /* sequences, five pages */
    {"powerup", "anim-bounce"},
    {"speedy", "anim-run"},
    {"vine", "anim-grow"},        /* path constraint */
    {"stretchyman", "anim-sneak"},
    {"mix-and-match", "skins-composed-walk"}, /* nine skins composed */
};

/* ---- our side: the imported rig through the runtime ---- */

typedef struct ours {
    mf_rig rig;
    void *blob;
    mf_skel_data data;
    mf_skin_cache *skins;
    mf_pose *pose;
    mf_draw_list *dl;
    mf_image *images;
    const mf_image **pages;
    int32_t page_count;
} ours;

static void ours_free(ours *o)
{
    for (int32_t i = 0; o->images && i < o->page_count; i++) mf_image_free(&o->images[i]);
    free(o->images);
    free((void *)o->pages);
    mf_draw_list_destroy(o->dl);
    mf_pose_destroy(o->pose);
    mf_skin_cache_destroy(o->skins);
    free(o->blob);
    if (o->rig.sk) mf_rig_free(&o->rig);
    memset(o, 0, sizeof *o);
}

/* Imports json into dir, builds in memory and loads each image by name from images/, the way
 * cmd_render (mf_render_sheet) textures its draw list. */
static bool ours_load(ours *o, const char *json, const char *dir)
{
    memset(o, 0, sizeof *o);
    mf_diag d;
    mf_spine_summary sum;
    if (mf_spine_import(json, dir, NULL, &sum, &d) != MF_OK) {
        printf("  import failed: %s: %s: %s\n", d.file, d.where, d.message);
        return false;
    }
    char path[2048];
    snprintf(path, sizeof path, "%s/%s.mskel", dir, sum.name);
    size_t size = 0;
    if (mf_rig_load(path, &o->rig, &d) != MF_OK ||
        mf_build_skeleton(o->rig.sk, (const mf_clip *const *)o->rig.clips, o->rig.clip_count, &o->blob, &size, &d) != MF_OK ||
        mf_skel_data_load(o->blob, size, &o->data, &d) != MF_OK || mf_skin_cache_create(&o->data, NULL, &o->skins) != MF_OK ||
        mf_pose_create(&o->data, NULL, &o->pose, &d) != MF_OK || mf_draw_list_create(&o->data, NULL, &o->dl) != MF_OK) {
        printf("  runtime failed: %s: %s: %s\n", d.file, d.where, d.message);
        return false;
    }
    o->page_count = o->data.image_count;
    o->images = calloc((size_t)o->page_count + 1, sizeof *o->images);
    o->pages = calloc((size_t)o->page_count + 1, sizeof *o->pages);
    assert_non_null(o->images);
    assert_non_null(o->pages);
    const char *img = o->rig.sk->import.images ? o->rig.sk->import.images : "images/";
    for (int32_t i = 0; i < o->page_count; i++) {
        snprintf(path, sizeof path, "%s/%s%s.png", dir, img, mf_skel_data_string(&o->data, o->data.images[i].name));
        if (mf_png_load(path, &o->images[i], &d) == MF_OK) o->pages[i] = &o->images[i];
        else printf("  missing image %s\n", path);
    }
    return true;
}

/* ---- the reference side: dump geometry on the atlas pages ---- */

static mf_blend blend_of(const char *s)
{
    if (!strcmp(s, "additive")) return MF_BLEND_ADDITIVE;
    if (!strcmp(s, "multiply")) return MF_BLEND_MULTIPLY;
    if (!strcmp(s, "screen")) return MF_BLEND_SCREEN;
    return MF_BLEND_NORMAL;
}

static float num(const cJSON *a, int i) { return (float)cJSON_GetArrayItem(a, i)->valuedouble; }

static void draw_reference(mf_canvas *cv, const cJSON *draw, const mf_image *pages, int32_t page_count,
                           const float view[6])
{
    const cJSON *it;
    cJSON_ArrayForEach(it, draw)
    {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, "vertices"), *uv = cJSON_GetObjectItemCaseSensitive(it, "uvs");
        const cJSON *tri = cJSON_GetObjectItemCaseSensitive(it, "triangles"), *light = cJSON_GetObjectItemCaseSensitive(it, "light");
        const cJSON *dark = cJSON_GetObjectItemCaseSensitive(it, "dark"), *page = cJSON_GetObjectItemCaseSensitive(it, "page");
        const cJSON *blend = cJSON_GetObjectItemCaseSensitive(it, "blend");
        int nv = cJSON_GetArraySize(v) / 2, ni = cJSON_GetArraySize(tri);
        if (nv <= 0 || ni <= 0 || cJSON_GetArraySize(uv) != 2 * nv) continue;
        float *xy = malloc((size_t)nv * 2 * sizeof *xy), *uvs = malloc((size_t)nv * 2 * sizeof *uvs);
        uint16_t *idx = malloc((size_t)ni * sizeof *idx);
        assert_true(xy && uvs && idx);
        for (int i = 0; i < nv; i++) {
            float x = num(v, 2 * i), y = num(v, 2 * i + 1);
            xy[2 * i] = view[0] * x + view[1] * y + view[4];
            xy[2 * i + 1] = view[2] * x + view[3] * y + view[5];
            uvs[2 * i] = num(uv, 2 * i), uvs[2 * i + 1] = num(uv, 2 * i + 1);
        }
        for (int i = 0; i < ni; i++) idx[i] = (uint16_t)cJSON_GetArrayItem(tri, i)->valueint;
        mf_paint p = {blend_of(cJSON_IsString(blend) ? blend->valuestring : ""), {1, 1, 1, 1}, {0, 0, 0}, false};
        for (int k = 0; k < 4 && cJSON_GetArraySize(light) == 4; k++) p.light[k] = num(light, k);
        if (cJSON_GetArraySize(dark) == 3) {
            p.has_dark = true;
            for (int k = 0; k < 3; k++) p.dark[k] = num(dark, k);
        }
        int pg = cJSON_IsNumber(page) ? page->valueint : 0;
        mf_render_triangles(cv, pg >= 0 && pg < page_count ? &pages[pg] : NULL, xy, uvs, nv, idx, ni, &p);
        free(xy);
        free(uvs);
        free(idx);
    }
}

/* The view that fits every frame of the dump into the picture (8 px margin), so that a tiny
 * frame (a portal opening) is not magnified into its texels. */
static bool scenario_view(const cJSON *frames, float view[6])
{
    float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    const cJSON *fr, *it;
    cJSON_ArrayForEach(fr, frames) cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(fr, "draw"))
    {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, "vertices");
        int n = cJSON_GetArraySize(v);
        for (int i = 0; i < n; i++) {
            float c = num(v, i);
            lo[i & 1] = fminf(lo[i & 1], c), hi[i & 1] = fmaxf(hi[i & 1], c);
        }
    }
    if (!(hi[0] > lo[0]) || !(hi[1] > lo[1])) return false;
    float k = (SIZE - 16) / fmaxf(hi[0] - lo[0], hi[1] - lo[1]);
    view[0] = k, view[1] = 0, view[2] = 0, view[3] = k;
    view[4] = SIZE / 2.0f - k * (lo[0] + hi[0]) / 2, view[5] = SIZE / 2.0f - k * (lo[1] + hi[1]) / 2;
    return true;
}

/* ---- comparison ---- */

typedef struct diff {
    double mean;  /* per channel, 0..255 */
    double off;   /* share of covered pixels off by more than OFF_LEVEL */
    long covered;
} diff;

static diff compare(const mf_canvas *a, const mf_canvas *b)
{
    diff d = {0};
    double sum = 0;
    long off = 0;
    for (long i = 0; i < (long)a->width * a->height; i++) {
        const float *p = a->px + 4 * i, *q = b->px + 4 * i;
        if (p[3] <= 1.0f / 255 && q[3] <= 1.0f / 255) continue;
        d.covered++;
        bool far = false;
        for (int k = 0; k < 4; k++) {
            double e = fabs((double)fminf(fmaxf(p[k], 0), 1) - (double)fminf(fmaxf(q[k], 0), 1)) * 255;
            sum += e;
            if (e > OFF_LEVEL) far = true;
        }
        off += far;
    }
    if (d.covered) d.mean = sum / (4.0 * (double)d.covered), d.off = (double)off / (double)d.covered;
    return d;
}

static void save(const mf_canvas *c, const char *path)
{
    mf_image img;
    mf_diag d;
    if (mf_canvas_to_image(c, &img) != MF_OK) return;
    if (mf_png_save(&img, path, &d) != MF_OK) printf("  could not write %s: %s\n", path, d.message);
    mf_image_free(&img);
}

/* ---- one scenario ---- */

static const char *first_json(const char *dir, char *out, size_t cap)
{
    static const char *const sfx[] = {"-pro.json", "-ess.json", ".json"};
    const char *name = strrchr(dir, '/') + 1;
    for (int i = 0; i < 3; i++) {
        snprintf(out, cap, "%s/%s%s", dir, name, sfx[i]);
        FILE *f = fopen(out, "rb");
        if (f) {
            fclose(f);
            return out;
        }
    }
    return NULL;
}

typedef struct tally {
    int frames, failed;
    double worst_mean, worst_off;
} tally;

static void run_case(const char *corpus, const pic_case *pc, int max_frames, tally *t)
{
    char dir[1200], json[1400], path[1600];
    snprintf(dir, sizeof dir, "%s/%s", corpus, pc->rig);
    if (!first_json(dir, json, sizeof json)) {
        printf("  %-14s no JSON export\n", pc->rig);
        t->failed++;
        return;
    }
    /* the reference dump */
    snprintf(path, sizeof path, "%s/reference/%s.json", dir, pc->scenario);
    char *text = tu_read(path, NULL);
    cJSON *ref = text ? cJSON_Parse(text) : NULL;
    free(text);
    assert_non_null(ref);
    const cJSON *scen = cJSON_GetObjectItemCaseSensitive(ref, "scenario");
    const cJSON *cmd0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(scen, "commands"), 0);
    const cJSON *anim = cJSON_GetObjectItemCaseSensitive(cmd0, "anim");
    bool loop = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cmd0, "loop"));
    assert_true(cJSON_IsString(anim));
    /* the atlas pages, straight alpha */
    snprintf(path, sizeof path, "%s/%s.atlas", dir, pc->rig);
    mf_atlas *atlas = NULL;
    mf_diag d;
    assert_int_equal(mf_atlas_load(path, &atlas, &d), MF_OK);
    mf_image *pages = calloc((size_t)atlas->page_count, sizeof *pages);
    assert_non_null(pages);
    for (int32_t i = 0; i < atlas->page_count; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, atlas->pages[i].name);
        assert_int_equal(mf_png_load(path, &pages[i], &d), MF_OK);
    }
    /* ours */
    ours o;
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", tu_tmp(pc->rig));
    bool ok = ours_load(&o, json, tmp);
    int32_t clip = ok ? mf_skel_data_find_clip(&o.data, anim->valuestring) : -1;
    if (ok && clip < 0) printf("  %-14s no clip \"%s\" after import\n", pc->rig, anim->valuestring);
    if (clip >= 0) {
        const cJSON *skins = cJSON_GetObjectItemCaseSensitive(scen, "skins"), *s;
        int32_t list[64], n = 0;
        cJSON_ArrayForEach(s, skins) if (cJSON_IsString(s) && n < 64) list[n++] = mf_skel_data_find_skin(&o.data, s->valuestring);
        for (int32_t i = 0; i < n; i++) assert_true(list[i] >= 0);
        if (n) assert_int_equal(mf_pose_set_skins(o.pose, o.skins, list, n, &d), MF_OK);
    }
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(ref, "frames");
    const cJSON *jdt = cJSON_GetObjectItemCaseSensitive(scen, "dt"), *jevery = cJSON_GetObjectItemCaseSensitive(scen, "every");
    double dt = cJSON_IsNumber(jdt) ? jdt->valuedouble : 1.0 / 60;
    int every = cJSON_IsNumber(jevery) ? jevery->valueint : 1;
    int total = cJSON_GetObjectItemCaseSensitive(scen, "frames")->valueint;
    int nf = cJSON_GetArraySize(frames), step = nf > max_frames ? (nf + max_frames - 1) / max_frames : 1;
    mf_canvas a, b;
    assert_int_equal(mf_canvas_create(&a, SIZE, SIZE), MF_OK);
    assert_int_equal(mf_canvas_create(&b, SIZE, SIZE), MF_OK);
    const char *keep = getenv("MF_PICTURE_OUT");
    double worst_mean = 0, worst_off = 0;
    int done = 0, bad = 0, seen = 0;
    float view[6];
    if (!scenario_view(frames, view)) clip = -1;
    for (int f = 0; clip >= 0 && f < nf; f = f + step < nf || f == nf - 1 ? f + step : nf - 1) {
        const cJSON *fr = cJSON_GetArrayItem(frames, f), *draw = cJSON_GetObjectItemCaseSensitive(fr, "draw");
        /* the track time the dump rounded, summed step by step as a player does (the last
         * frame is always recorded): 180 steps of 1/60 stay just under 3, so a loop's end
         * frame does not wrap to 0 */
        double time = cJSON_GetObjectItemCaseSensitive(fr, "t")->valuedouble, stepped = 0;
        for (int k = 0, frame = f == nf - 1 ? total - 1 : f * every; k < frame; k++) stepped += dt;
        if (fabs(stepped - time) < 1e-3) time = stepped;
        mf_pose_reset(o.pose);
        assert_int_equal(mf_pose_sample(o.pose, &(mf_clip_sample){.clip = clip, .time = time, .prev_time = time, .weight = 1, .loop = loop}), MF_OK);
        mf_pose_update_world(o.pose);
        mf_draw_list_build(o.dl, o.pose);
        const float clear[4] = {0, 0, 0, 0};
        mf_canvas_clear(&a, clear);
        mf_canvas_clear(&b, clear);
        mf_render_draw_list(&a, o.dl, o.pages, o.page_count, view, NULL);
        draw_reference(&b, draw, pages, atlas->page_count, view);
        diff df = compare(&a, &b);
        bool fail = df.mean > MEAN_TOL || df.off > OFF_TOL; /* nothing drawn by either: equal */
        seen += df.covered > 0;
        worst_mean = fmax(worst_mean, df.mean), worst_off = fmax(worst_off, df.off);
        done++;
        if (fail || keep) {
            bad += fail;
            printf("  %-14s %-18s t=%.4f %s mean %.2f, %.2f%% off (%ld px; %d/%d items)\n", pc->rig, pc->scenario, time,
                   fail ? "MISS" : "ok  ", df.mean, df.off * 100, df.covered, (int)o.dl->item_count, cJSON_GetArraySize(draw));
        }
        if (fail || keep) {
            char name[1800];
            snprintf(name, sizeof name, "%s/%s-%s-%03d-ours.png", keep ? keep : tu_tmpdir(), pc->rig, pc->scenario, f);
            save(&a, name);
            snprintf(name, sizeof name, "%s/%s-%s-%03d-spine.png", keep ? keep : tu_tmpdir(), pc->rig, pc->scenario, f);
            save(&b, name);
        }
    }
    printf("  %-14s %-18s %2d frames  worst mean %.2f /255, worst %.2f%% px off by > %d%s\n", pc->rig, pc->scenario,
           done, worst_mean, worst_off * 100, OFF_LEVEL, clip < 0 ? "  FAILED to load" : "");
    t->frames += done;
    t->failed += bad + (clip < 0 || seen == 0);
    t->worst_mean = fmax(t->worst_mean, worst_mean), t->worst_off = fmax(t->worst_off, worst_off);
    mf_canvas_free(&a);
    mf_canvas_free(&b);
    ours_free(&o);
    for (int32_t i = 0; i < atlas->page_count; i++) mf_image_free(&pages[i]);
    free(pages);
    mf_atlas_free(atlas);
    cJSON_Delete(ref);
}

static void test_picture_parity(void **state)
{
    (void)state;
    const char *shared = tu_shared();
    if (!shared) {
        printf("skipped: no shared test data (../shared or $MF_SHARED)\n");
        skip();
    }
    char corpus[1024];
    snprintf(corpus, sizeof corpus, "%s/spine-corpus", shared);
    const char *only = getenv("MF_PICTURE_RIGS"); /* optional subset, comma separated */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tally t = {0};
    int cases = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        if (only && !strstr(only, CASES[i].rig)) continue;
        run_case(corpus, &CASES[i], MF_PIC_ASAN ? 3 : 8, &t);
        cases++;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("pictures: %d scenarios, %d frames, %d missed; worst mean %.2f /255 (tolerance %.1f), worst %.2f%% off "
           "(tolerance %.1f%%); %.1f s\n",
           cases, t.frames, t.failed, t.worst_mean, MEAN_TOL, t.worst_off * 100, OFF_TOL * 100,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    assert_true(t.frames > 0);
    assert_int_equal(t.failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_picture_parity)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
