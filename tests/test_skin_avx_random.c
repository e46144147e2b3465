/* AVX skinning against the SSE2 path and the scalar path (bit for bit: all three do the same
 * operations in the same order) on random unweighted meshes of every tail length and regions,
 * and on random weighted meshes, 1 to MF_SD_MAX_INFLUENCES (16) influences a vertex in
 * random runs (equal counts side by side, odd counts, odd vertex counts, every count in one
 * mesh: the level chooser's path past 8 counts), with and without
 * deform; and draw lists whose kept items must equal a fresh build's. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"
#include "../src/runtime/pose/geom_skin.h"
#include "../src/runtime/pose/pose_internal.h"
#include "mf/mf_geometry.h"
#include "mf/mf_pose.h"

static uint32_t rng_next(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return *s = x;
}
static float rng_f(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(rng_next(s) % 100000u) / 100000.0f; }
static int32_t rng_i(uint32_t *s, int32_t n) { return (int32_t)(rng_next(s) % (uint32_t)n); }

#define NBONES 9
#define NMESH 6

/* A random rig's text up to its attachments: NBONES random bones, NMESH slots on b0. */
static void rig_open(char **b, size_t *len, size_t *cap, uint32_t *rng)
{
    tu_cat(b, len, cap, "%s\"bones\":[{\"name\":\"b0\"}", RIG_HEAD);
    for (int i = 1; i < NBONES; i++)
        tu_cat(b, len, cap, ",{\"name\":\"b%d\",\"parent\":\"b%d\",\"x\":%.3f,\"rot\":%.3f,\"sx\":%.3f,\"shy\":%.3f}", i,
            rng_i(rng, i), (double)rng_f(rng, -30, 30), (double)rng_f(rng, -180, 180), (double)rng_f(rng, 0.5f, 1.5f),
            (double)rng_f(rng, -10, 10));
    tu_cat(b, len, cap, "],\"slots\":[");
    for (int m = 0; m < NMESH; m++) tu_cat(b, len, cap, "%s{\"name\":\"s%d\",\"bone\":\"b0\",\"attachment\":\"m%d\"}", m ? "," : "", m, m);
    tu_cat(b, len, cap, "],\"skins\":[{\"name\":\"default\",\"attachments\":[");
}

/* Mesh m's text up to its weights' vertex list: v random uvs, a fan of triangles, every bone. */
static void mesh_open(char **b, size_t *len, size_t *cap, int m, int v, uint32_t *rng)
{
    tu_cat(b, len, cap, "%s{\"slot\":\"s%d\",\"name\":\"m%d\",\"type\":\"Mesh\",\"hull\":%d,\"uvs\":[", m ? "," : "", m, m, v);
    for (int i = 0; i < v; i++) tu_cat(b, len, cap, "%s%.3f,%.3f", i ? "," : "", (double)rng_f(rng, 0, 1), (double)rng_f(rng, 0, 1));
    tu_cat(b, len, cap, "],\"triangles\":[");
    for (int i = 1; i + 1 < v; i++) tu_cat(b, len, cap, "%s0,%d,%d", i > 1 ? "," : "", i, i + 1);
    tu_cat(b, len, cap, "],\"weights\":{\"bones\":[");
    for (int i = 0; i < NBONES; i++) tu_cat(b, len, cap, "%s\"b%d\"", i ? "," : "", i);
    tu_cat(b, len, cap, "],\"v\":[");
}

/* NMESH weighted meshes of random sizes; influence counts in runs so that equal neighbours,
 * odd counts and the two-influence fast run all occur; every third mesh has two influences on
 * every vertex (skinned straight from the records, no spans read). */
static char *random_rig(uint32_t *rng)
{
    size_t len = 0, cap = 4096;
    char *b = malloc(cap);
    assert_non_null(b);
    rig_open(&b, &len, &cap, rng);
    for (int m = 0; m < NMESH; m++) {
        int v = m % 3 == 1 ? MF_SD_MAX_INFLUENCES + rng_i(rng, 17) : 3 + rng_i(rng, 30);
        mesh_open(&b, &len, &cap, m, v, rng);
        int count = 1, run = 0;
        for (int i = 0; i < v; i++) {
            if (run-- <= 0) count = 1 + rng_i(rng, MF_SD_MAX_INFLUENCES), run = rng_i(rng, 4);
            if (m % 3 == 0) count = 2; /* every vertex two influences: one group, in order (contiguous stores) */
            if (m % 3 == 1) count = 1 + (i + m) % MF_SD_MAX_INFLUENCES; /* every count */
            tu_cat(&b, &len, &cap, "%s[", i ? "," : "");
            float left = 1;
            for (int j = 0; j < count; j++) {
                float w = j + 1 == count ? left : rng_f(rng, 0, left);
                left -= w;
                tu_cat(&b, &len, &cap, "%s%d,%.4f,%.3f,%.3f", j ? "," : "", rng_i(rng, NBONES), (double)w,
                    (double)rng_f(rng, -60, 60), (double)rng_f(rng, -60, 60));
            }
            tu_cat(&b, &len, &cap, "]");
        }
        tu_cat(&b, &len, &cap, "]}}");
    }
    tu_cat(&b, &len, &cap, "]}]}");
    return b;
}

static void test_avx_matches_sse2_and_scalar(void **state)
{
    (void)state;
    uint32_t rng = 2024u;
    int32_t checked = 0, worst_ulps = 0, padded = 0, wide = 0, scattered = 0, over8 = 0;
    int avx_seen = 0;
    for (int rig = 0; rig < 12; rig++) {
        char *text = random_rig(&rng);
        test_rig r;
        test_rig_build(&r, text, NULL, NULL, 0);
        free(text);
        const mf_skel_data *d = &r.data;
        mf_pose *p = NULL;
        assert_int_equal(mf_pose_create(d, NULL, &p, NULL), MF_OK);
        mf_draw_list *dl = NULL;
        assert_int_equal(mf_draw_list_create(d, NULL, &dl), MF_OK);
        { /* mesh 0: two influences everywhere, one group; the others grouped by count, ascending
           * (the build's shared streams) */
            const mf_skel_data *sc = d;
            int32_t a0 = p->attachment[0], g0 = sc->skin_group_first[a0];
            assert_int_equal(sc->skin_group_first[a0 + 1] - g0, 1);
            assert_int_equal(sc->skin_groups[g0].count, 2);
            assert_int_equal(sc->skin_groups[g0].vertices, d->attachments[a0].vertex_count);
            for (int32_t s = 0; s < p->slot_count; s++) {
                int32_t a = p->attachment[s], total = 0, first = sc->skin_group_first[a];
                int32_t end = sc->skin_group_first[a + 1];
                first += sc->skin_groups[first].runs;
                for (int32_t g = first; g < end; g++) { /* the chain of every vertex (after any run chain) */
                    if (g > sc->skin_group_first[a]) assert_true(sc->skin_groups[g].count > sc->skin_groups[g - 1].count);
                    const mf_sd_skin_group *gr = &sc->skin_groups[g];
                    total += gr->vertices;
                    wide += gr->count > 4;
                    over8 += gr->count > 8;
                    scattered += gr->plain % 15 < 5;
                    for (int32_t i = 0; i < gr->vertices; i++) {
                        int32_t real = sc->skin_vertices[gr->vertex_first + i].records;
                        assert_true(real >= 1 && real <= gr->count);
                        padded += real < gr->count; /* zero records after the real ones */
                    }
                }
                assert_int_equal(total, d->attachments[a].vertex_count);
            }
        }
        for (int frame = 0; frame < 8; frame++) {
            for (int32_t i = 0; i < p->bone_count; i++)
                p->rot[i] += rng_f(&rng, -40, 40), p->x[i] += rng_f(&rng, -5, 5), p->sy[i] = rng_f(&rng, -2, 2);
            bool deformed = frame % 2 == 1;
            for (int32_t s = 0; s < p->slot_count; s++) {
                int32_t att = p->attachment[s];
                const mf_sd_attachment *at = &d->attachments[att];
                assert_true(at->deform_count > 0);
                p->deform_attachment[s] = deformed ? att : -1;
                for (int32_t i = 0; i < at->deform_count; i++) p->deform[p->deform_first[s] + i] = rng_f(&rng, -3, 3);
            }
            mf_pose_update_world(p);
            for (int32_t s = 0; s < p->slot_count; s++) {
                int32_t att = p->attachment[s];
                float avx[80], sse[80], sc[80];
                memset(avx, 0x7f, sizeof avx), memset(sse, 0x7f, sizeof sse);
                uint8_t had = p->scratch->skin_avx;
                avx_seen |= had;
                int32_t n = mf_skin_world_vertices(p, s, att, avx, 40, true);
                p->scratch->skin_avx = 0;
                int32_t m = mf_skin_world_vertices(p, s, att, sse, 40, true);
                p->scratch->skin_avx = had;
                assert_int_equal(mf_skin_world_vertices(p, s, att, sc, 40, false), n);
                assert_int_equal(n, m);
                assert_true(n >= 3);
                for (int32_t i = 0; i < 2 * n; i++) {
                    if (memcmp(&avx[i], &sse[i], 4) != 0)
                        fail_msg("rig %d frame %d slot %d vertex %d (%d influences): avx %.9g sse2 %.9g", rig, frame, s,
                                 i / 2, d->spans[d->attachments[att].vertex_first + i / 2].count, (double)avx[i],
                                 (double)sse[i]);
                    /* the scalar path does the same operations in the same order: same bits */
                    if (memcmp(&avx[i], &sc[i], 4) != 0)
                        fail_msg("rig %d frame %d slot %d vertex %d: simd %.9g scalar %.9g", rig, frame, s, i / 2,
                                 (double)avx[i], (double)sc[i]);
                    checked++;
                }
            }
            /* the draw list skins through its own entry: the same vertices */
            mf_draw_list_build(dl, p);
            assert_int_equal(dl->item_count, p->slot_count);
            for (int32_t k = 0; k < dl->item_count; k++) {
                const mf_draw_item *it = &dl->items[k];
                float v[80];
                assert_int_equal(mf_pose_world_vertices(p, it->slot, it->attachment, v, 40), it->vertex_count);
                if (memcmp(v, dl->vertices + 2 * it->vertex_first, sizeof(float) * 2 * (size_t)it->vertex_count) != 0)
                    fail_msg("rig %d frame %d slot %d: draw list vertices differ", rig, frame, it->slot);
            }
        }
        mf_draw_list_destroy(dl);
        mf_pose_destroy(p);
        test_rig_free(&r);
    }
    (void)worst_ulps;
    printf("avx: %s, %d coordinates checked, %d padded vertices, %d groups above 4, %d scattered\n",
           avx_seen ? "used" : "not available", (int)checked, (int)padded, (int)wide, (int)scattered);
    assert_true(padded > 0 && wide > 0 && scattered > 0 && over8 > 0); /* every kind of group was checked */
    assert_true(checked > 1000);
}

/* Weighted meshes of 8 to 120 vertices in segments of 1 to 26 vertices that share their bones
 * (1 to 6 influences, the same bones in the same order, random weights and positions; most
 * segments from a palette of three bone lists, so that sets recur apart): runs and sets of 8 or
 * more get run groups (every tail of their eight-a-step kernels, in order and scattered), the
 * rest count groups. */
static char *random_runs_rig(uint32_t *rng)
{
    size_t len = 0, cap = 4096;
    char *b = malloc(cap);
    assert_non_null(b);
    rig_open(&b, &len, &cap, rng);
    for (int m = 0; m < NMESH; m++) {
        int v = 8 + rng_i(rng, 113);
        mesh_open(&b, &len, &cap, m, v, rng);
        int count = 1, run = 0, bones[6], pc[3], pb[3][6]; /* a palette of three bone lists: sets recur */
        for (int k = 0; k < 3; k++) {
            pc[k] = 1 + rng_i(rng, 4);
            for (int j = 0; j < pc[k]; j++) pb[k][j] = rng_i(rng, NBONES);
        }
        for (int i = 0; i < v; i++) {
            if (run-- <= 0) {
                int k = rng_i(rng, 5);
                count = k < 3 ? pc[k] : 1 + rng_i(rng, 6), run = rng_i(rng, 3) ? 7 + rng_i(rng, 20) : rng_i(rng, 4);
                for (int j = 0; j < count; j++) bones[j] = k < 3 ? pb[k][j] : rng_i(rng, NBONES);
            }
            tu_cat(&b, &len, &cap, "%s[", i ? "," : "");
            float left = 1;
            for (int j = 0; j < count; j++) {
                float w = j + 1 == count ? left : rng_f(rng, 0, left);
                if (rng_i(rng, 8) == 0) w = 0; /* zero weights: signed zeros in the sums */
                left -= w;
                tu_cat(&b, &len, &cap, "%s%d,%.4f,%.3f,%.3f", j ? "," : "", bones[j], (double)w,
                    (double)rng_f(rng, -60, 60), (double)rng_f(rng, -60, 60));
            }
            tu_cat(&b, &len, &cap, "]");
        }
        tu_cat(&b, &len, &cap, "]}}");
    }
    tu_cat(&b, &len, &cap, "]}]}");
    return b;
}

/* Run groups give the bits of the SSE2 and scalar paths, deformed (through the chain of every vertex)
 * or not, and the draw list's too. */
static void test_avx_runs_match_sse2_and_scalar(void **state)
{
    (void)state;
    uint32_t rng = 77u;
    int32_t checked = 0, runs = 0, run_vertices = 0, scattered_sets = 0;
    for (int rig = 0; rig < 16; rig++) {
        char *text = random_runs_rig(&rng);
        test_rig r;
        test_rig_build(&r, text, NULL, NULL, 0);
        free(text);
        const mf_skel_data *d = &r.data;
        mf_pose *p = NULL;
        assert_int_equal(mf_pose_create(d, NULL, &p, NULL), MF_OK);
        mf_draw_list *dl = NULL;
        assert_int_equal(mf_draw_list_create(d, NULL, &dl), MF_OK);
        for (int32_t s = 0; s < p->slot_count; s++) { /* the run chain covers every vertex once */
            int32_t a = p->attachment[s], g0 = d->skin_group_first[a];
            if (!d->skin_groups[g0].runs) continue;
            int32_t total = 0;
            for (int32_t g = g0; g < g0 + d->skin_groups[g0].runs; g++) {
                const mf_sd_skin_group *gr = &d->skin_groups[g];
                total += gr->vertices;
                if (gr->plain >= 30) runs++, run_vertices += gr->vertices, assert_true(gr->vertices >= 8 && gr->count <= 4);
                scattered_sets += gr->plain >= 38;
            }
            assert_int_equal(total, d->attachments[a].vertex_count);
        }
        for (int frame = 0; frame < 6; frame++) {
            for (int32_t i = 0; i < p->bone_count; i++)
                p->rot[i] += rng_f(&rng, -40, 40), p->x[i] += rng_f(&rng, -5, 5), p->sy[i] = rng_f(&rng, -2, 2);
            if (frame == 5) p->sx[1] = 0, p->sy[2] = -0.0f; /* zero and negative-zero matrices */
            bool deformed = frame % 3 == 1;
            for (int32_t s = 0; s < p->slot_count; s++) {
                int32_t att = p->attachment[s];
                const mf_sd_attachment *at = &d->attachments[att];
                p->deform_attachment[s] = deformed ? att : -1;
                for (int32_t i = 0; i < at->deform_count; i++) p->deform[p->deform_first[s] + i] = rng_f(&rng, -3, 3);
            }
            mf_pose_update_world(p);
            for (int32_t s = 0; s < p->slot_count; s++) {
                int32_t att = p->attachment[s];
                float avx[260], sse[260], sc[260];
                memset(avx, 0x7f, sizeof avx), memset(sse, 0x7f, sizeof sse);
                uint8_t had = p->scratch->skin_avx;
                int32_t n = mf_skin_world_vertices(p, s, att, avx, 128, true);
                assert_true(memcmp(&avx[2 * n], &sse[2 * n], 4) == 0); /* nothing past the vertices */
                p->scratch->skin_avx = 0;
                int32_t m = mf_skin_world_vertices(p, s, att, sse, 128, true);
                p->scratch->skin_avx = had;
                assert_int_equal(mf_skin_world_vertices(p, s, att, sc, 128, false), n);
                assert_int_equal(n, m);
                for (int32_t i = 0; i < 2 * n; i++) {
                    if (memcmp(&avx[i], &sse[i], 4) != 0 || memcmp(&avx[i], &sc[i], 4) != 0)
                        fail_msg("rig %d frame %d slot %d vertex %d: avx %a sse2 %a scalar %a", rig, frame, s, i / 2,
                                 (double)avx[i], (double)sse[i], (double)sc[i]);
                    checked++;
                }
            }
            mf_draw_list_build(dl, p);
            for (int32_t k = 0; k < dl->item_count; k++) {
                const mf_draw_item *it = &dl->items[k];
                float v[260];
                assert_int_equal(mf_pose_world_vertices(p, it->slot, it->attachment, v, 128), it->vertex_count);
                if (memcmp(v, dl->vertices + 2 * it->vertex_first, sizeof(float) * 2 * (size_t)it->vertex_count) != 0)
                    fail_msg("rig %d frame %d slot %d: draw list vertices differ", rig, frame, it->slot);
            }
        }
        mf_draw_list_destroy(dl);
        mf_pose_destroy(p);
        test_rig_free(&r);
    }
    printf("runs: %d run groups (%d vertices, %d groups scattered), %d coordinates checked\n", (int)runs,
           (int)run_vertices, (int)scattered_sets, (int)checked);
    assert_true(runs > 20 && scattered_sets > 5 && checked > 10000);
}

/* Unweighted meshes of 3 to 14 vertices (every tail of the four-a-step AVX path) and
 * regions, on random bones. */
static char *random_rigid_rig(uint32_t *rng)
{
    size_t len = 0, cap = 4096;
    char *b = malloc(cap);
    assert_non_null(b);
    tu_cat(&b, &len, &cap, "%s\"bones\":[{\"name\":\"b0\"}", RIG_HEAD);
    for (int i = 1; i < NBONES; i++)
        tu_cat(&b, &len, &cap, ",{\"name\":\"b%d\",\"parent\":\"b%d\",\"x\":%.3f,\"rot\":%.3f,\"sx\":%.3f,\"shy\":%.3f}", i,
            rng_i(rng, i), (double)rng_f(rng, -30, 30), (double)rng_f(rng, -180, 180), (double)rng_f(rng, 0.5f, 1.5f),
            (double)rng_f(rng, -10, 10));
    tu_cat(&b, &len, &cap, "],\"slots\":[");
    for (int m = 0; m < 14; m++)
        tu_cat(&b, &len, &cap, "%s{\"name\":\"s%d\",\"bone\":\"b%d\",\"attachment\":\"m%d\"}", m ? "," : "", m,
            rng_i(rng, NBONES), m);
    tu_cat(&b, &len, &cap, "],\"skins\":[{\"name\":\"default\",\"attachments\":[");
    for (int m = 0; m < 14; m++) {
        if (m >= 12) { /* two regions */
            tu_cat(&b, &len, &cap, ",{\"slot\":\"s%d\",\"name\":\"m%d\",\"type\":\"Region\",\"x\":%.3f,\"rot\":%.3f,"
                "\"width\":%.3f,\"height\":%.3f}", m, m, (double)rng_f(rng, -9, 9), (double)rng_f(rng, -90, 90),
                (double)rng_f(rng, 1, 40), (double)rng_f(rng, 1, 40));
            continue;
        }
        int v = 3 + m; /* 3..14 */
        tu_cat(&b, &len, &cap, "%s{\"slot\":\"s%d\",\"name\":\"m%d\",\"type\":\"Mesh\",\"hull\":%d,\"uvs\":[", m ? "," : "", m, m, v);
        for (int i = 0; i < v; i++) tu_cat(&b, &len, &cap, "%s%.3f,%.3f", i ? "," : "", (double)rng_f(rng, 0, 1), (double)rng_f(rng, 0, 1));
        tu_cat(&b, &len, &cap, "],\"triangles\":[");
        for (int i = 1; i + 1 < v; i++) tu_cat(&b, &len, &cap, "%s0,%d,%d", i > 1 ? "," : "", i, i + 1);
        tu_cat(&b, &len, &cap, "],\"vertices\":[");
        for (int i = 0; i < v; i++)
            tu_cat(&b, &len, &cap, "%s%.3f,%.3f", i ? "," : "", (double)rng_f(rng, -60, 60), (double)rng_f(rng, -60, 60));
        tu_cat(&b, &len, &cap, "]}");
    }
    tu_cat(&b, &len, &cap, "]}]}");
    return b;
}

static void test_avx_rigid_matches_sse2_and_scalar(void **state)
{
    (void)state;
    uint32_t rng = 77u;
    int32_t checked = 0, regions = 0, deformed_meshes = 0;
    for (int rig = 0; rig < 6; rig++) {
        char *text = random_rigid_rig(&rng);
        test_rig r;
        test_rig_build(&r, text, NULL, NULL, 0);
        free(text);
        const mf_skel_data *d = &r.data;
        mf_pose *p = NULL;
        assert_int_equal(mf_pose_create(d, NULL, &p, NULL), MF_OK);
        for (int frame = 0; frame < 6; frame++) {
            for (int32_t i = 0; i < p->bone_count; i++)
                p->rot[i] += rng_f(&rng, -40, 40), p->x[i] += rng_f(&rng, -5, 5), p->sy[i] = rng_f(&rng, -2, 2);
            bool deformed = frame % 2 == 1;
            for (int32_t s = 0; s < p->slot_count; s++) {
                int32_t att = p->attachment[s];
                const mf_sd_attachment *at = &d->attachments[att];
                if (at->type == MF_SD_ATT_REGION || at->deform_count <= 0) continue;
                p->deform_attachment[s] = deformed ? att : -1;
                deformed_meshes += deformed;
                for (int32_t i = 0; i < at->deform_count; i++) p->deform[p->deform_first[s] + i] = rng_f(&rng, -3, 3);
            }
            mf_pose_update_world(p);
            for (int32_t s = 0; s < p->slot_count; s++) {
                int32_t att = p->attachment[s];
                assert_false(d->attachments[att].flags & MF_SD_ATT_WEIGHTED);
                regions += d->attachments[att].type == MF_SD_ATT_REGION;
                float avx[40], sse[40], sc[40];
                memset(avx, 0x7f, sizeof avx), memset(sse, 0x7f, sizeof sse);
                uint8_t had = p->scratch->skin_avx;
                int32_t n = mf_skin_world_vertices(p, s, att, avx, 16, true);
                p->scratch->skin_avx = 0;
                int32_t m = mf_skin_world_vertices(p, s, att, sse, 16, true);
                p->scratch->skin_avx = had;
                assert_int_equal(mf_skin_world_vertices(p, s, att, sc, 16, false), n);
                assert_int_equal(n, m);
                assert_true(n >= 3 && n <= 14);
                for (int32_t i = 0; i < 2 * n; i++) {
                    if (memcmp(&avx[i], &sse[i], 4) != 0 || memcmp(&avx[i], &sc[i], 4) != 0)
                        fail_msg("rig %d frame %d slot %d vertex %d: avx %.9g sse2 %.9g scalar %.9g", rig, frame, s,
                                 i / 2, (double)avx[i], (double)sse[i], (double)sc[i]);
                    checked++;
                }
                /* the masked tail writes nothing past the last vertex */
                for (int32_t i = 2 * n; i < 40; i++) {
                    uint32_t bits;
                    memcpy(&bits, &avx[i], 4);
                    assert_int_equal(bits, 0x7f7f7f7fu);
                }
            }
        }
        mf_pose_destroy(p);
        test_rig_free(&r);
    }
    printf("avx rigid: %d coordinates checked, %d regions, %d deformed meshes\n", (int)checked, (int)regions,
           (int)deformed_meshes);
    assert_true(checked > 1000 && regions > 0 && deformed_meshes > 0);
}

/* The zero-weight partner of an odd last influence reads bone 0: a bone 0 whose world is not
 * finite (here a second root's mesh, bone 0 moved to infinity by the host) must not reach a
 * vertex none of whose influences is on bone 0 (0 * inf is NaN). */
static const char *TWO_ROOTS = RIG_HEAD "\"bones\":[{\"name\":\"r0\"},{\"name\":\"r1\"}],"
    "\"slots\":[{\"name\":\"s\",\"bone\":\"r1\",\"attachment\":\"m\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"s\",\"name\":\"m\",\"type\":\"Mesh\",\"hull\":4,"
    "\"uvs\":[0,0,1,0,1,1,0,1],\"triangles\":[0,1,2,0,2,3],\"weights\":{\"bones\":[\"r0\",\"r1\"],"
    "\"v\":[[1,1,0,0],[1,1,10,0],[1,1,10,10],[1,1,0,10]]}}]}]}";

static void test_avx_odd_partner_bone0(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, TWO_ROOTS, NULL, NULL, 0);
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    p->x[0] = INFINITY; /* r0 is not used by the mesh */
    mf_pose_update_world(p);
    float simd[8], sc[8];
    assert_int_equal(mf_skin_world_vertices(p, 0, p->attachment[0], simd, 4, true), 4);
    assert_int_equal(mf_skin_world_vertices(p, 0, p->attachment[0], sc, 4, false), 4);
    for (int i = 0; i < 8; i++)
        if (!(simd[i] == sc[i])) fail_msg("coordinate %d: simd %g scalar %g", i, (double)simd[i], (double)sc[i]);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

/* ---------------------------------------------------------------- kept draw items */

#define SLOT_ATTS(s) \
    "{\"slot\":\"" s "\",\"name\":\"ra\",\"type\":\"Region\",\"width\":10,\"height\":10}," \
    "{\"slot\":\"" s "\",\"name\":\"rb\",\"type\":\"Region\",\"x\":3,\"width\":20,\"height\":5}," \
    "{\"slot\":\"" s "\",\"name\":\"m4\",\"type\":\"Mesh\",\"hull\":4,\"uvs\":[0,0,0.5,0,0.5,0.5,0,0.5]," \
    "\"triangles\":[0,2,1,0,3,2],\"vertices\":[-8,-8,8,-8,8,8,-8,8]}," \
    "{\"slot\":\"" s "\",\"name\":\"m5\",\"type\":\"Mesh\",\"hull\":5,\"uvs\":[0,0,1,0,1,1,0,1,0.5,0.2]," \
    "\"triangles\":[0,1,4,1,2,4,2,3,4],\"vertices\":[-9,-9,9,-9,9,9,-9,9,0,-3]}"

static const char *DRAW_RIG = RIG_HEAD "\"bones\":[{\"name\":\"root\"},{\"name\":\"b1\",\"parent\":\"root\",\"x\":4}],"
    "\"slots\":[{\"name\":\"s0\",\"bone\":\"root\",\"attachment\":\"ra\"},{\"name\":\"s1\",\"bone\":\"b1\",\"attachment\":\"m4\"},"
    "{\"name\":\"cl\",\"bone\":\"root\",\"attachment\":\"c\"},{\"name\":\"s2\",\"bone\":\"root\",\"attachment\":\"m5\"},"
    "{\"name\":\"s3\",\"bone\":\"b1\",\"attachment\":\"rb\"},{\"name\":\"s4\",\"bone\":\"root\",\"attachment\":\"ra\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":[" SLOT_ATTS("s0") "," SLOT_ATTS("s1") "," SLOT_ATTS("s2") ","
    SLOT_ATTS("s3") "," SLOT_ATTS("s4") ","
    "{\"slot\":\"cl\",\"name\":\"c\",\"type\":\"Clipping\",\"end\":\"s2\",\"vertices\":[-4,-6,6,-5,7,7,-5,6]},"
    "{\"slot\":\"cl\",\"name\":\"c2\",\"type\":\"Clipping\",\"end\":\"s4\",\"vertices\":[0,-20,20,0,0,20,-20,0]}]}]}";

static void same_draw(const mf_draw_list *x, const mf_draw_list *y, int step)
{
    assert_int_equal(x->item_count, y->item_count);
    assert_int_equal(x->vertex_count, y->vertex_count);
    assert_int_equal(x->index_count, y->index_count);
    assert_int_equal(x->overflow, y->overflow);
    for (int32_t i = 0; i < x->item_count; i++) {
        const mf_draw_item *a = &x->items[i], *b = &y->items[i];
        assert_int_equal(a->slot, b->slot), assert_int_equal(a->attachment, b->attachment);
        assert_int_equal(a->vertex_first, b->vertex_first), assert_int_equal(a->vertex_count, b->vertex_count);
        assert_int_equal(a->index_first, b->index_first), assert_int_equal(a->index_count, b->index_count);
        assert_int_equal(a->clipped, b->clipped), assert_int_equal(a->uv_set, b->uv_set);
    }
    size_t nv = (size_t)x->vertex_count * 2 * sizeof(float);
    if (memcmp(x->vertices, y->vertices, nv) != 0) fail_msg("step %d: vertices differ", step);
    if (memcmp(x->uvs, y->uvs, nv) != 0) fail_msg("step %d: uvs differ (%d items kept)", step, (int)x->items_kept);
    if (memcmp(x->indices, y->indices, (size_t)x->index_count * sizeof(uint16_t)) != 0)
        fail_msg("step %d: indices differ (%d items kept)", step, (int)x->items_kept);
}

static void test_draw_kept_equals_fresh(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, DRAW_RIG, NULL, NULL, 0);
    const mf_skel_data *d = &r.data;
    mf_pose *p = NULL;
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_pose_create(d, NULL, &p, NULL), MF_OK);
    assert_int_equal(mf_draw_list_create(d, NULL, &dl), MF_OK);
    uint32_t rng = 99u;
    int32_t clipped = 0;
    int32_t kept = 0;
    for (int step = 0; step < 4000; step++) {
        int32_t ops = rng_i(&rng, 3);
        for (int32_t k = 0; k < ops; k++) {
            int32_t s = rng_i(&rng, p->slot_count), op = rng_i(&rng, 5);
            if (op == 0) { /* another attachment of the slot, or none */
                int32_t pick = -1, seen = 0;
                for (int32_t a = 0; a < d->attachment_count; a++)
                    if (d->attachments[a].slot == s && rng_i(&rng, ++seen) == 0) pick = a;
                p->attachment[s] = rng_i(&rng, 5) == 0 ? -1 : pick;
            } else if (op == 1) { /* two slots swap in the draw order */
                int32_t j = rng_i(&rng, p->slot_count), t = p->draw_order[s];
                p->draw_order[s] = p->draw_order[j], p->draw_order[j] = t;
            } else if (op == 2) {
                p->active[1] = (uint8_t)rng_i(&rng, 2);
            } else if (op == 3) {
                p->rot[rng_i(&rng, 2)] += rng_f(&rng, -30, 30);
            } else {
                mf_pose_reset(p);
            }
        }
        mf_pose_update_world(p);
        mf_draw_list_build(dl, p);
        kept += dl->items_kept;
        for (int32_t i = 0; i < dl->item_count; i++) clipped += dl->items[i].clipped;
        mf_draw_list *fresh = NULL;
        assert_int_equal(mf_draw_list_create(d, NULL, &fresh), MF_OK);
        mf_draw_list_build(fresh, p);
        same_draw(dl, fresh, step);
        mf_draw_list_destroy(fresh);
    }
    printf("draw: %d items kept, %d clipped over 4000 builds\n", (int)kept, (int)clipped);
    assert_true(kept > 1000 && clipped > 1000);
    mf_draw_list_destroy(dl);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_avx_matches_sse2_and_scalar),
        cmocka_unit_test(test_avx_runs_match_sse2_and_scalar),
        cmocka_unit_test(test_avx_rigid_matches_sse2_and_scalar),
        cmocka_unit_test(test_avx_odd_partner_bone0),
        cmocka_unit_test(test_draw_kept_equals_fresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
