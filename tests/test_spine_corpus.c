/* The Spine importer on the example corpus beside the project ($MF_SHARED or ../shared): every
 * rig imports and loads back, clips match animations, unpacked images match the atlas pixels,
 * straight and premultiplied atlases give the same images, importing twice gives the same bytes,
 * and the imported setup pose and mesh UVs agree with the Spine runtime's reference dumps.
 * Skips (with a message) when the corpus is absent. */
#define _POSIX_C_SOURCE 200809L
#include "parity.h"
#include "testutil.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mf/mf_png.h"
#include "mf/mf_spine.h"

/* paths here are built from bounded folder names; gcc cannot see the bounds */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define MAX_RIGS 64
#define PI 3.14159265358979323846

typedef struct rig {
    char name[128];   /* folder name */
    char dir[8800];   /* corpus folder of the rig */
    char json[8800];  /* its Spine JSON */
    char stem[300];   /* JSON file stem: the rig's name in the output */
    char out[8800];   /* import from the straight atlas */
    char again[8800]; /* the same import a second time */
    char pma[8800];   /* import from the -pma atlas ("" when there is none) */
    mf_result result, result_again, result_pma;
    char error[1400];
    mf_spine_summary summary;
} rig;

static rig rigs[MAX_RIGS];
static int rig_count;
static char corpus[4096];

/* Entries of dir (no dot files), sorted; free with free_list. */
static int list_dir(const char *dir, char ***out)
{
    enum { CAP = 4096 };
    *out = malloc(CAP * sizeof **out);
    assert_non_null(*out);
    return tu_list_dir(dir, *out, CAP);
}

static void free_list(char **v, int n)
{
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void import(rig *r, const char *out, const char *atlas, mf_result *res)
{
    mf_spine_options opt = {atlas};
    mf_diag d;
    mf_spine_summary s;
    *res = mf_spine_import(r->json, out, &opt, &s, &d);
    if (*res != MF_OK) {
        mf_diag_format(&d, r->error, sizeof r->error);
        return;
    }
    if (out == r->out) r->summary = s;
}

static int setup(void **state)
{
    (void)state;
    const char *shared = tu_shared();
    if (!shared) return 0;
    snprintf(corpus, sizeof corpus, "%s/spine-corpus", shared);
    if (!is_dir(corpus)) {
        corpus[0] = '\0';
        return 0;
    }
    char **names;
    int n = list_dir(corpus, &names);
    for (int i = 0; i < n && rig_count < MAX_RIGS; i++) {
        rig *r = &rigs[rig_count];
        char dir[8800], json[8800] = "", stem[300] = "";
        snprintf(dir, sizeof dir, "%s/%.200s", corpus, names[i]);
        if (!is_dir(dir) || strlen(dir) >= sizeof r->dir) continue;
        char **files;
        int nf = list_dir(dir, &files);
        for (int k = 0; k < nf && !json[0]; k++)
            if (ends_with(files[k], ".json") && strlen(files[k]) < 200) {
                snprintf(json, sizeof json, "%.4400s/%.200s", dir, files[k]);
                snprintf(stem, sizeof stem, "%.*s", (int)(strlen(files[k]) - 5), files[k]);
            }
        free_list(files, nf);
        if (!json[0]) continue;
        strcpy(r->dir, dir);
        strcpy(r->json, json);
        strcpy(r->stem, stem);
        snprintf(r->name, sizeof r->name, "%.100s", names[i]);
        char atlas[8800], pma_atlas[8800];
        snprintf(atlas, sizeof atlas, "%.4400s/%.100s.atlas", dir, names[i]);
        snprintf(pma_atlas, sizeof pma_atlas, "%.4400s/%.100s-pma.atlas", dir, names[i]);
        snprintf(r->out, sizeof r->out, "%.3000s/corpus/%.100s/straight", tu_tmpdir(), names[i]);
        snprintf(r->again, sizeof r->again, "%.3000s/corpus/%.100s/again", tu_tmpdir(), names[i]);
        import(r, r->out, atlas, &r->result);
        import(r, r->again, atlas, &r->result_again);
        if (exists(pma_atlas)) {
            snprintf(r->pma, sizeof r->pma, "%.3000s/corpus/%.100s/pma", tu_tmpdir(), names[i]);
            import(r, r->pma, pma_atlas, &r->result_pma);
        }
        printf("%-18s import %.3f s, %3d report lines (%s)\n", r->name, r->summary.seconds, r->summary.report_lines,
               r->summary.report_counts);
        rig_count++;
    }
    free_list(names, n);
    return 0;
}

static void need_corpus(void)
{
    if (corpus[0]) return;
    printf("skipped: no Spine corpus (set MF_SHARED or put shared/spine-corpus beside the source tree)\n");
    skip();
}

/* ---- every rig imports, loads back and passes the clip checks ---- */

static int animation_count(const char *json_path)
{
    char *text = tu_read(json_path, NULL);
    cJSON *root = cJSON_Parse(text);
    free(text);
    int n = cJSON_GetArraySize(cJSON_GetObjectItem(root, "animations"));
    cJSON_Delete(root);
    return n;
}

static void test_every_rig_imports_and_loads(void **state)
{
    (void)state;
    need_corpus();
    assert_true(rig_count >= 1);
    for (int i = 0; i < rig_count; i++) {
        rig *r = &rigs[i];
        if (r->result != MF_OK) print_error("%s: %s\n", r->name, r->error);
        assert_int_equal(r->result, MF_OK);
        char path[9400], clips[9400];
        snprintf(path, sizeof path, "%s/%s.mskel", r->out, r->stem);
        mf_skeleton *sk = NULL;
        mf_diag d;
        char msg[1400];
        if (mf_skeleton_load(path, &sk, &d) != MF_OK) {
            mf_diag_format(&d, msg, sizeof msg);
            print_error("%s\n", msg);
            fail();
        }
        snprintf(clips, sizeof clips, "%s/%s.clips", r->out, r->stem);
        char **files;
        int n = list_dir(clips, &files), manim = 0;
        for (int k = 0; k < n; k++) {
            if (!ends_with(files[k], ".manim")) continue;
            manim++;
            snprintf(path, sizeof path, "%s/%s", clips, files[k]);
            mf_clip *clip = NULL;
            mf_result res = mf_clip_load(path, &clip, &d);
            if (res == MF_OK) res = mf_clip_check(clip, sk, path, &d);
            if (res != MF_OK) {
                mf_diag_format(&d, msg, sizeof msg);
                print_error("%s\n", msg);
            }
            assert_int_equal(res, MF_OK);
            mf_clip_free(clip);
        }
        free_list(files, n);
        if (manim != animation_count(r->json)) print_error("%s: %d clips\n", r->name, manim);
        assert_int_equal(manim, animation_count(r->json));
        assert_int_equal(r->summary.clips, manim);
        assert_true(exists(clips) || manim == 0);
        snprintf(path, sizeof path, "%s/import-report.txt", r->out);
        assert_true(exists(path));
        mf_skeleton_free(sk);
    }
}

/* ---- unpacked images: the atlas pixels, unrotated, with the stripped margins back ---- */

/* The expected pixel (x, y) of a region's original image, read straight from its page. */
static const uint8_t *expected_pixel(const mf_atlas_region *g, const mf_image *page, int x, int y)
{
    static const uint8_t clear[4] = {0, 0, 0, 0};
    int ix = x - g->offset_x, iy = y - (g->orig_height - g->offset_y - g->height);
    if (ix < 0 || iy < 0 || ix >= g->width || iy >= g->height) return clear;
    int px, py;
    if (g->degrees == 90) px = g->x + iy, py = g->y + g->width - 1 - ix; /* the image's top row is the left column */
    else px = g->x + ix, py = g->y + iy;
    return page->rgba + ((size_t)py * (size_t)page->width + (size_t)px) * 4;
}

static void test_images_match_atlas_pixels(void **state)
{
    (void)state;
    need_corpus();
    long checked = 0;
    for (int i = 0; i < rig_count; i++) {
        rig *r = &rigs[i];
        char atlas_path[9000];
        snprintf(atlas_path, sizeof atlas_path, "%s/%s.atlas", r->dir, r->name);
        mf_atlas *at = NULL;
        mf_diag d;
        assert_int_equal(mf_atlas_load(atlas_path, &at, &d), MF_OK);
        mf_image *pages = calloc((size_t)at->page_count, sizeof *pages);
        for (int p = 0; p < at->page_count; p++) {
            char path[9400];
            snprintf(path, sizeof path, "%s/%s", r->dir, at->pages[p].name);
            assert_int_equal(mf_png_load(path, &pages[p], &d), MF_OK);
        }
        for (int k = 0; k < at->region_count; k++) {
            const mf_atlas_region *g = &at->regions[k];
            assert_true(g->degrees == 0 || g->degrees == 90); /* what the corpus holds */
            char path[9400];
            snprintf(path, sizeof path, "%s/images/%s.png", r->out, g->name);
            mf_image img;
            if (mf_png_load(path, &img, &d) != MF_OK) print_error("%s: no image %s\n", r->name, path);
            assert_int_equal(img.width, g->orig_width);
            assert_int_equal(img.height, g->orig_height);
            for (int y = 0; y < img.height; y++)
                for (int x = 0; x < img.width; x++) {
                    const uint8_t *want = expected_pixel(g, &pages[g->page], x, y);
                    const uint8_t *got = img.rgba + ((size_t)y * (size_t)img.width + (size_t)x) * 4;
                    if (memcmp(want, got, 4) != 0) {
                        print_error("%s: %s pixel %d,%d\n", r->name, g->name, x, y);
                        fail();
                    }
                }
            checked++;
            mf_image_free(&img);
        }
        for (int p = 0; p < at->page_count; p++) mf_image_free(&pages[p]);
        free(pages);
        mf_atlas_free(at);
    }
    printf("%ld region images match their atlas pixels\n", checked);
    assert_true(checked > 0);
}

/* ---- premultiplied atlases give the same images ---- */

static void collect(const char *root, const char *rel, char ***out, int *n, int *cap)
{
    char dir[9400];
    snprintf(dir, sizeof dir, "%s%s%s", root, rel[0] ? "/" : "", rel);
    char **names;
    int k = list_dir(dir, &names);
    for (int i = 0; i < k; i++) {
        char sub[9400], full[9400];
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
        snprintf(full, sizeof full, "%s/%s", root, sub);
        if (is_dir(full)) {
            collect(root, sub, out, n, cap);
            continue;
        }
        if (*n == *cap) *out = realloc(*out, (size_t)(*cap = *cap ? *cap * 2 : 64) * sizeof **out);
        (*out)[(*n)++] = strdup(sub);
    }
    free_list(names, k);
}


static void test_pma_atlas_gives_the_same_images(void **state)
{
    (void)state;
    need_corpus();
    int compared = 0, worst = 0;
    long pixels = 0, pixels_hi = 0;
    for (int i = 0; i < rig_count; i++) {
        rig *r = &rigs[i];
        if (!r->pma[0]) continue;
        if (r->result_pma != MF_OK) print_error("%s (pma): %s\n", r->name, r->error);
        assert_int_equal(r->result_pma, MF_OK);
        char dir[9400];
        snprintf(dir, sizeof dir, "%s/images", r->out);
        char **files = NULL;
        int n = 0, cap = 0;
        collect(dir, "", &files, &n, &cap);
        for (int k = 0; k < n; k++) {
            char a[9400], b[9400];
            mf_image sa, sb;
            mf_diag d;
            snprintf(a, sizeof a, "%s/images/%s", r->out, files[k]);
            snprintf(b, sizeof b, "%s/images/%s", r->pma, files[k]);
            assert_int_equal(mf_png_load(a, &sa, &d), MF_OK);
            if (mf_png_load(b, &sb, &d) != MF_OK) print_error("%s: no pma image %s\n", r->name, b);
            assert_int_equal(sa.width, sb.width);
            assert_int_equal(sa.height, sb.height);
            for (size_t p = 0; p < (size_t)sa.width * (size_t)sa.height; p++) {
                const uint8_t *x = sa.rgba + p * 4, *y = sb.rgba + p * 4;
                assert_int_equal(x[3], y[3]);
                if (x[3] == 0) continue;
                pixels++;
                /* Spine's pma pages store floor(c * a / 255): from alpha 128 up that keeps every
                 * colour within 1; below, a page step spans 255 / a colours, and half of it is the
                 * best any reader can do */
                int alpha = x[3], tol = alpha >= 128 ? 1 : (255 + alpha - 1) / alpha / 2 + 1;
                for (int ch = 0; ch < 3; ch++) {
                    int diff = abs((int)x[ch] - (int)y[ch]);
                    if (alpha >= 128 && diff > worst) worst = diff;
                    if (alpha >= 128) pixels_hi++;
                    if (diff > tol) {
                        print_error("%s: %s pixel %zu channel %d: %d vs %d (alpha %d)\n", r->name, files[k], p, ch,
                                    x[ch], y[ch], x[3]);
                        fail();
                    }
                }
            }
            mf_image_free(&sa);
            mf_image_free(&sb);
            compared++;
        }
        free_list(files, n);
    }
    printf("%d images from straight and pma atlases: %ld pixels with alpha, %ld channels at alpha >= 128 equal "
           "within %d, the others within the page's quantization\n",
           compared, pixels, pixels_hi, worst);
    assert_true(compared > 0);
}

/* ---- importing twice gives identical files ---- */

static void test_import_twice_gives_identical_files(void **state)
{
    (void)state;
    need_corpus();
    int files_compared = 0;
    for (int i = 0; i < rig_count; i++) {
        rig *r = &rigs[i];
        assert_int_equal(r->result_again, MF_OK);
        char **a = NULL, **b = NULL;
        int na = 0, nb = 0, ca = 0, cb = 0;
        collect(r->out, "", &a, &na, &ca);
        collect(r->again, "", &b, &nb, &cb);
        assert_int_equal(na, nb);
        for (int k = 0; k < na; k++) {
            assert_string_equal(a[k], b[k]);
            char pa[9400], pb[9400];
            size_t la, lb;
            snprintf(pa, sizeof pa, "%s/%s", r->out, a[k]);
            snprintf(pb, sizeof pb, "%s/%s", r->again, b[k]);
            char *da = tu_read(pa, &la), *db = tu_read(pb, &lb);
            /* the report names the input path, which is the same for both imports */
            if (la != lb || memcmp(da, db, la) != 0) print_error("%s: %s differs\n", r->name, a[k]);
            assert_true(la == lb && memcmp(da, db, la) == 0);
            free(da), free(db);
            files_compared++;
        }
        free_list(a, na);
        free_list(b, nb);
    }
    printf("%d files identical across two imports\n", files_compared);
}

/* ---- the setup pose and the mesh UVs agree with the Spine runtime's dumps ---- */

/* The first "anim-*" reference of a rig, parsed; NULL when it has none. */
static cJSON *first_dump(const rig *r)
{
    char dir[9000], path[9400];
    snprintf(dir, sizeof dir, "%s/reference", r->dir);
    char **names;
    int n = list_dir(dir, &names);
    cJSON *root = NULL;
    for (int i = 0; i < n && !root; i++) {
        if (strncmp(names[i], "anim-", 5) != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *text = tu_read(path, NULL);
        root = cJSON_Parse(text);
        free(text);
    }
    free_list(names, n);
    return root;
}

static mf_skeleton *load_rig(const rig *r)
{
    char path[9400];
    snprintf(path, sizeof path, "%s/%s.mskel", r->out, r->stem);
    mf_skeleton *sk = NULL;
    mf_diag d;
    assert_int_equal(mf_skeleton_load(path, &sk, &d), MF_OK);
    return sk;
}

typedef struct mat {
    double a, b, c, d, x, y;
} mat;

/* world = parent × local, local in Y-down with clockwise degrees (docs/formats.md). */
static mat world_of(const mf_skeleton *sk, int i)
{
    const mf_bone *b = &sk->bones[i];
    double r = b->rot * PI / 180, shx = b->shx * PI / 180, shy = b->shy * PI / 180;
    mat l = {cos(r + shx) * b->sx, cos(r + PI / 2 + shy) * b->sy, sin(r + shx) * b->sx,
             sin(r + PI / 2 + shy) * b->sy, b->x, b->y};
    if (b->parent < 0) return l;
    mat p = world_of(sk, b->parent);
    return (mat){p.a * l.a + p.b * l.c, p.a * l.b + p.b * l.d, p.c * l.a + p.d * l.c, p.c * l.b + p.d * l.d,
                 p.a * l.x + p.b * l.y + p.x, p.c * l.x + p.d * l.y + p.y};
}

/* Bones whose setup pose frame 0 shows as it is: neither they nor an ancestor are keyed by the
 * clip or moved by a constraint, and all inherit Normally. */
static void mark_moving(const mf_skeleton *sk, const mf_clip *clip, bool *moving)
{
    for (int32_t t = 0; clip && t < clip->timeline_count; t++) {
        const mf_timeline *tl = &clip->timelines[t];
        if (tl->kind <= MF_TL_INHERIT) moving[mf_skeleton_find_bone(sk, tl->target)] = true;
    }
    for (int32_t i = 0; i < sk->ik_count; i++)
        for (int32_t k = 0; k < sk->ik[i].bone_count; k++) moving[sk->ik[i].bones[k]] = true;
    for (int32_t i = 0; i < sk->transform_count; i++)
        for (int32_t k = 0; k < sk->transform[i].bone_count; k++) moving[sk->transform[i].bones[k]] = true;
    for (int32_t i = 0; i < sk->path_count; i++)
        for (int32_t k = 0; k < sk->path[i].bone_count; k++) moving[sk->path[i].bones[k]] = true;
    for (int32_t i = 0; i < sk->physics_count; i++) moving[sk->physics[i].bone] = true;
    for (int32_t i = 0; i < sk->bone_count; i++) {
        if (sk->bones[i].inherit != MF_INHERIT_NORMAL) moving[i] = true;
        if (sk->bones[i].parent >= 0 && moving[sk->bones[i].parent]) moving[i] = true;
    }
}

static void test_setup_pose_matches_reference_dumps(void **state)
{
    (void)state;
    need_corpus();
    int bones = 0;
    double worst = 0;
    for (int i = 0; i < rig_count; i++) {
        rig *r = &rigs[i];
        cJSON *dump = first_dump(r);
        if (!dump) continue;
        mf_skeleton *sk = load_rig(r);
        const cJSON *scenario = cJSON_GetObjectItem(dump, "scenario");
        const char *anim = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(scenario, "commands"), 0), "anim")->valuestring;
        char path[9400];
        snprintf(path, sizeof path, "%s/%s.clips/%s.manim", r->out, r->stem, anim);
        mf_clip *clip = NULL;
        mf_diag d;
        assert_int_equal(mf_clip_load(path, &clip, &d), MF_OK);
        bool *moving = calloc((size_t)sk->bone_count, sizeof *moving);
        mark_moving(sk, clip, moving);
        const cJSON *names = cJSON_GetObjectItem(dump, "boneNames");
        const cJSON *frame = cJSON_GetArrayItem(cJSON_GetObjectItem(dump, "frames"), 0);
        const cJSON *mats = cJSON_GetObjectItem(frame, "bones");
        assert_int_equal(cJSON_GetArraySize(names), sk->bone_count);
        const cJSON *inactive;
        cJSON_ArrayForEach(inactive, cJSON_GetObjectItem(frame, "inactive"))
        {
            if (inactive->valueint >= 0 && inactive->valueint < sk->bone_count) moving[inactive->valueint] = true;
        }
        for (int32_t b = 0; b < sk->bone_count; b++) {
            assert_string_equal(cJSON_GetArrayItem(names, b)->valuestring, sk->bones[b].name);
            if (moving[b]) continue;
            const cJSON *m = cJSON_GetArrayItem(mats, b);
            mat w = world_of(sk, b);
            double want[6] = {w.a, w.b, w.c, w.d, w.x, w.y};
            for (int k = 0; k < 6; k++) {
                double e = fabs(want[k] - cJSON_GetArrayItem(m, k)->valuedouble);
                if (e > worst) worst = e;
                if (e > 2e-3) {
                    print_error("%s: bone %s component %d: %g, dump %g\n", r->name, sk->bones[b].name, k, want[k],
                                cJSON_GetArrayItem(m, k)->valuedouble);
                    fail();
                }
            }
            bones++;
        }
        free(moving);
        mf_clip_free(clip);
        mf_skeleton_free(sk);
        cJSON_Delete(dump);
    }
    printf("%d unkeyed bones: setup pose = dumped frame 0 within %.2g\n", bones, worst);
    assert_true(bones > 20);
}

static const mf_attachment *find_attachment(const mf_skeleton *sk, const char *slot_name, const char *name, int32_t *skin)
{
    int32_t slot = mf_skeleton_find_slot(sk, slot_name);
    for (int32_t s = 0; s < sk->skin_count; s++) {
        const mf_attachment *a = mf_skin_find_attachment(&sk->skins[s], slot, name);
        if (a) {
            *skin = s;
            return a;
        }
    }
    return NULL;
}

/* Page uv of a mesh uv through the region (un-trimmed, un-rotated image → page). */
static void page_uv(const mf_atlas *at, const mf_atlas_region *g, float u, float v, double *pu, double *pv)
{
    const mf_atlas_page *p = &at->pages[g->page];
    double x = u * g->orig_width - g->offset_x, y = v * g->orig_height - (g->orig_height - g->offset_y - g->height);
    double px = g->degrees == 90 ? g->x + y : g->x + x, py = g->degrees == 90 ? g->y + g->width - x : g->y + y;
    *pu = px / p->width;
    *pv = py / p->height;
}

static void test_mesh_uvs_match_reference_dumps(void **state)
{
    (void)state;
    need_corpus();
    int meshes = 0;
    double worst = 0;
    for (int i = 0; i < rig_count; i++) {
        rig *r = &rigs[i];
        cJSON *dump = first_dump(r);
        if (!dump) continue;
        mf_skeleton *sk = load_rig(r);
        char atlas_path[9000];
        snprintf(atlas_path, sizeof atlas_path, "%s/%s.atlas", r->dir, r->name);
        mf_atlas *at = NULL;
        mf_diag d;
        assert_int_equal(mf_atlas_load(atlas_path, &at, &d), MF_OK);
        const cJSON *frame = cJSON_GetArrayItem(cJSON_GetObjectItem(dump, "frames"), 0);
        const cJSON *draw;
        cJSON_ArrayForEach(draw, cJSON_GetObjectItem(frame, "draw"))
        {
            int32_t skin = -1;
            const mf_attachment *a = find_attachment(sk, cJSON_GetObjectItem(draw, "slot")->valuestring,
                                                     cJSON_GetObjectItem(draw, "attachment")->valuestring, &skin);
            if (!a || (a->type != MF_ATTACH_MESH && a->type != MF_ATTACH_LINKED_MESH) || a->sequence.count > 0 ||
                cJSON_IsTrue(cJSON_GetObjectItem(draw, "clipped")))
                continue;
            const mf_attachment *geo = a;
            if (a->type == MF_ATTACH_LINKED_MESH)
                geo = mf_skin_find_attachment(&sk->skins[a->parent_skin >= 0 ? a->parent_skin : skin], a->slot,
                                              a->parent);
            const mf_atlas_region *g = mf_atlas_find(at, a->image);
            assert_non_null(geo);
            assert_non_null(g);
            const cJSON *uvs = cJSON_GetObjectItem(draw, "uvs");
            assert_int_equal(cJSON_GetArraySize(uvs), geo->uv_count * 2);
            for (int32_t k = 0; k < geo->uv_count; k++) {
                double pu, pv;
                page_uv(at, g, geo->uvs[2 * k], geo->uvs[2 * k + 1], &pu, &pv);
                double e = fmax(fabs(pu - cJSON_GetArrayItem(uvs, 2 * k)->valuedouble),
                                fabs(pv - cJSON_GetArrayItem(uvs, 2 * k + 1)->valuedouble));
                if (e > worst) worst = e;
                if (e > 1e-4) {
                    print_error("%s: %s uv %d off by %g\n", r->name, a->name, k, e);
                    fail();
                }
            }
            meshes++;
        }
        mf_atlas_free(at);
        mf_skeleton_free(sk);
        cJSON_Delete(dump);
    }
    printf("%d drawn meshes: UVs (kept top-down, as Spine's) = dumped page UVs within %.2g\n", meshes, worst);
    assert_true(meshes > 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_rig_imports_and_loads),
        cmocka_unit_test(test_images_match_atlas_pixels),
        cmocka_unit_test(test_pma_atlas_gives_the_same_images),
        cmocka_unit_test(test_import_twice_gives_identical_files),
        cmocka_unit_test(test_setup_pose_matches_reference_dumps),
        cmocka_unit_test(test_mesh_uvs_match_reference_dumps),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
