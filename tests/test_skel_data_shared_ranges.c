/* Hostile builds whose records share one range of a pool: unweighted meshes all pointed at one
 * mesh's triangle indices, timelines all pointed at one timeline's key times. The loader answers
 * each record from a table past the pool's budget and accepts and refuses exactly as the walk
 * does, with the same located messages. The blobs are real builds with records rewritten. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"

enum { BIG = 600, SMALL = 400 };

static void *sec(unsigned char *blob, uint32_t id) { return blob + test_blob_section(blob, id)->offset; }

static void expect_ok(unsigned char *blob, size_t size)
{
    test_blob_reseal(blob, size);
    mf_skel_data d;
    mf_diag diag;
    mf_diag_clear(&diag);
    mf_result r = mf_skel_data_load(blob, size, &d, &diag);
    if (r != MF_OK) fprintf(stderr, "%s: %s\n", diag.where, diag.message);
    assert_int_equal(r, MF_OK);
}

static void expect(unsigned char *blob, size_t size, const char *where, const char *msg)
{
    test_blob_reseal(blob, size);
    mf_skel_data d;
    mf_diag diag;
    mf_diag_clear(&diag);
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_ERR_CORRUPT);
    if (strcmp(diag.where, where) || strcmp(diag.message, msg)) fprintf(stderr, "%s: %s\n", diag.where, diag.message);
    assert_string_equal(diag.where, where);
    assert_string_equal(diag.message, msg);
}

/* ---- triangles ---- */

/* An unweighted mesh of nv vertices on a fan (0, i, i + 1). */
static void mesh(char **b, size_t *len, size_t *cap, const char *slot, const char *name, int nv)
{
    tu_cat(b, len, cap, "{\"slot\":\"%s\",\"name\":\"%s\",\"type\":\"Mesh\",\"hull\":3,\"uvs\":[", slot, name);
    for (int i = 0; i < nv; i++) tu_cat(b, len, cap, "%s%.3f,%.3f", i ? "," : "", i / (double)nv, (i % 3) / 3.0);
    tu_cat(b, len, cap, "],\"triangles\":[");
    for (int i = 1; i + 1 < nv; i++) tu_cat(b, len, cap, "%s0,%d,%d", i > 1 ? "," : "", i, i + 1);
    tu_cat(b, len, cap, "],\"vertices\":[");
    for (int i = 0; i < nv; i++) tu_cat(b, len, cap, "%s%.2f,%.2f", i ? "," : "", 3.0 * i, (i % 5) * 2.0);
    tu_cat(b, len, cap, "]}");
}

/* Slot s0: mesh "m" of BIG vertices; slot s1: SMALL triangles "a<k>". */
static char *mesh_rig(void)
{
    size_t len = 0, cap = 1 << 16;
    char *b = malloc(cap);
    assert_non_null(b);
    tu_cat(&b, &len, &cap,
           "%s\"bones\":[{\"name\":\"b0\"}],\"slots\":[{\"name\":\"s0\",\"bone\":\"b0\",\"attachment\":\"m\"},"
           "{\"name\":\"s1\",\"bone\":\"b0\",\"attachment\":\"a0\"}],"
           "\"skins\":[{\"name\":\"default\",\"attachments\":[",
           RIG_HEAD);
    mesh(&b, &len, &cap, "s0", "m", BIG);
    for (int k = 0; k < SMALL; k++) {
        char name[16];
        snprintf(name, sizeof name, "a%d", k);
        tu_cat(&b, &len, &cap, ",");
        mesh(&b, &len, &cap, "s1", name, 3);
    }
    tu_cat(&b, &len, &cap, "]}]}");
    return b;
}

typedef struct meshes {
    test_rig r;
    unsigned char *blob; /* the build, its small meshes all on m's vertices and triangles */
    int32_t m, lo, hi;   /* m; the first and last small mesh */
} meshes;

static void meshes_make(meshes *h)
{
    char *text = mesh_rig();
    test_rig_build(&h->r, text, NULL, NULL, 0);
    free(text);
    const mf_skel_data *d = &h->r.data;
    h->blob = malloc(h->r.size);
    assert_non_null(h->blob);
    memcpy(h->blob, h->r.blob, h->r.size);
    h->m = -1;
    for (int32_t i = 0; i < d->attachment_count; i++)
        if (d->attachments[i].vertex_count == BIG) h->m = i;
    assert_true(h->m >= 0);
    const mf_sd_attachment *m = &d->attachments[h->m];
    mf_sd_attachment *at = sec(h->blob, MF_SD_SEC_ATTACHMENTS);
    h->lo = d->attachment_count, h->hi = -1;
    for (int32_t i = 0; i < d->attachment_count; i++) {
        if (i == h->m) continue;
        assert_int_equal(at[i].deform_source, i);
        at[i].vertex_first = m->vertex_first, at[i].vertex_count = BIG, at[i].deform_count = 2 * BIG;
        at[i].uv_first = m->uv_first, at[i].tri_first = m->tri_first, at[i].tri_count = m->tri_count;
        h->lo = i < h->lo ? i : h->lo, h->hi = i > h->hi ? i : h->hi;
    }
    assert_int_equal(h->hi - h->lo + 1, SMALL);
    /* far more indices checked than the pool holds: past the budget */
    assert_true((int64_t)SMALL * m->tri_count > d->triangle_index_count);
}

static void meshes_free(meshes *h)
{
    free(h->blob);
    test_rig_free(&h->r);
}

/* Points attachment i at the indices [first, first + count) with vertex count nv, and returns
 * the walk's message for it, or 0 when every index is below nv. */
static int tri_case(meshes *h, int32_t i, int32_t first, int32_t count, int32_t nv, char *msg, size_t n)
{
    const mf_skel_data *d = &h->r.data;
    mf_sd_attachment *a = &((mf_sd_attachment *)sec(h->blob, MF_SD_SEC_ATTACHMENTS))[i];
    a->tri_first = first, a->tri_count = count, a->vertex_count = nv, a->deform_count = 2 * nv;
    const uint16_t *t = sec(h->blob, MF_SD_SEC_TRIANGLES);
    assert_true(first + count <= d->triangle_index_count);
    for (int32_t k = 0; k < count; k++)
        if (t[first + k] >= nv) return snprintf(msg, n, "index %d: vertex %u of %d", k, t[first + k], nv);
    return 0;
}

static void test_shared_triangles_accepted(void **state)
{
    (void)state;
    meshes h;
    meshes_make(&h);
    expect_ok(h.blob, h.r.size);
    /* sub-ranges off the table's blocks, their vertex count just above their largest index */
    const mf_sd_attachment *m = &h.r.data.attachments[h.m];
    char msg[120];
    assert_int_equal(tri_case(&h, h.hi, m->tri_first + 5, 3 * 301, 306, msg, sizeof msg), 0);
    assert_int_equal(tri_case(&h, h.hi - 1, m->tri_first + 70, 3, 26, msg, sizeof msg), 0);
    expect_ok(h.blob, h.r.size);
    meshes_free(&h);
}

/* The last small mesh (answered from the table) refused with the walk's message. */
static void test_shared_triangles_late_errors(void **state)
{
    (void)state;
    meshes h;
    meshes_make(&h);
    const mf_sd_attachment *m = &h.r.data.attachments[h.m];
    char where[64], msg[120];
    snprintf(where, sizeof where, "attachments[%d].triangles", h.hi);
    /* one vertex fewer: the last triangle's last index */
    assert_int_not_equal(tri_case(&h, h.hi, m->tri_first, m->tri_count, BIG - 1, msg, sizeof msg), 0);
    expect(h.blob, h.r.size, where, msg);
    /* within one block, across blocks, the error in the first or the last partial block */
    const uint16_t *t = sec(h.blob, MF_SD_SEC_TRIANGLES);
    const int32_t cases[][2] = {{7, 3 * 10}, {5, 3 * 301}, {130, 3 * 300}, {64, 3 * 200}, {1, 3 * 590}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int32_t first = m->tri_first + cases[c][0], top = 0; /* the vertex count: the range's largest index */
        for (int32_t k = 0; k < cases[c][1]; k++) top = t[first + k] > top ? t[first + k] : top;
        assert_int_not_equal(tri_case(&h, h.hi, first, cases[c][1], top, msg, sizeof msg), 0);
        expect(h.blob, h.r.size, where, msg);
    }
    /* m's own index 300 out of range: the first of m and the small meshes reports it */
    tri_case(&h, h.hi, m->tri_first, m->tri_count, BIG, msg, sizeof msg);
    ((uint16_t *)sec(h.blob, MF_SD_SEC_TRIANGLES))[m->tri_first + 300] = BIG;
    snprintf(where, sizeof where, "attachments[%d].triangles", h.lo < h.m ? h.lo : h.m);
    snprintf(msg, sizeof msg, "index 300: vertex %d of %d", BIG, BIG);
    expect(h.blob, h.r.size, where, msg);
    meshes_free(&h);
}

/* ---- key times ---- */

/* Bone b0 turns through BIG keys; bones b1..b<SMALL> through 2 keys each. */
static char *bones_rig(void)
{
    size_t len = 0, cap = 1 << 14;
    char *b = malloc(cap);
    assert_non_null(b);
    tu_cat(&b, &len, &cap, "%s\"bones\":[{\"name\":\"b0\"}", RIG_HEAD);
    for (int k = 1; k <= SMALL; k++) tu_cat(&b, &len, &cap, ",{\"name\":\"b%d\",\"parent\":\"b0\"}", k);
    tu_cat(&b, &len, &cap, "]}");
    return b;
}

static char *bones_clip(void)
{
    size_t len = 0, cap = 1 << 14;
    char *b = malloc(cap);
    assert_non_null(b);
    tu_cat(&b, &len, &cap, "%s\"length\":10,\"bones\":{\"b0\":{\"rotate\":{\"t\":[", CLIP_HEAD);
    for (int i = 0; i < BIG; i++) tu_cat(&b, &len, &cap, "%s%.4f", i ? "," : "", i / 60.0);
    tu_cat(&b, &len, &cap, "],\"v\":[");
    for (int i = 0; i < BIG; i++) tu_cat(&b, &len, &cap, "%s%d", i ? "," : "", i % 90);
    tu_cat(&b, &len, &cap, "]}}");
    for (int k = 1; k <= SMALL; k++) tu_cat(&b, &len, &cap, ",\"b%d\":{\"rotate\":{\"t\":[0,1],\"v\":[0,%d]}}", k, k);
    tu_cat(&b, &len, &cap, "}}");
    return b;
}

typedef struct keys {
    test_rig r;
    unsigned char *blob; /* the build, its short timelines all on the long one's keys */
    int32_t l, lo, hi;   /* the long timeline; the first and last short one */
} keys;

static void keys_make(keys *h)
{
    char *rig = bones_rig(), *clip = bones_clip();
    const char *names[] = {"turn"}, *clips[] = {clip};
    test_rig_build(&h->r, rig, names, clips, 1);
    free(rig), free(clip);
    const mf_skel_data *d = &h->r.data;
    h->blob = malloc(h->r.size);
    assert_non_null(h->blob);
    memcpy(h->blob, h->r.blob, h->r.size);
    h->l = -1;
    for (int32_t i = 0; i < d->timeline_count; i++)
        if (d->timelines[i].key_count == BIG) h->l = i;
    assert_true(h->l >= 0);
    const mf_sd_timeline *l = &d->timelines[h->l];
    mf_sd_timeline *tl = sec(h->blob, MF_SD_SEC_TIMELINES);
    h->lo = d->timeline_count, h->hi = -1;
    for (int32_t i = 0; i < d->timeline_count; i++) {
        if (i == h->l) continue;
        assert_int_equal(tl[i].kind, l->kind);
        tl[i].key_first = l->key_first, tl[i].key_count = l->key_count;
        tl[i].value_first = l->value_first, tl[i].curve_first = l->curve_first;
        h->lo = i < h->lo ? i : h->lo, h->hi = i > h->hi ? i : h->hi;
    }
    assert_int_equal(h->hi - h->lo + 1, SMALL);
    assert_true((int64_t)SMALL * BIG > d->time_count);
}

static void keys_free(keys *h)
{
    free(h->blob);
    test_rig_free(&h->r);
}

/* Points timeline i at keys [first, first + count) (the long one's values and curves). */
static void keys_point(keys *h, int32_t i, int32_t first, int32_t count)
{
    const mf_sd_timeline *l = &h->r.data.timelines[h->l];
    mf_sd_timeline *t = &((mf_sd_timeline *)sec(h->blob, MF_SD_SEC_TIMELINES))[i];
    t->key_first = first, t->key_count = count;
    t->value_first = l->value_first, t->curve_first = l->curve_first;
}

static void test_shared_times(void **state)
{
    (void)state;
    keys h;
    keys_make(&h);
    expect_ok(h.blob, h.r.size);
    const mf_sd_timeline *l = &h.r.data.timelines[h.l];
    float *tm = sec(h.blob, MF_SD_SEC_TIMES);
    char where[64], msg[120];
    /* a key of the long one's not after the one before: the first of them reports it */
    int32_t first = h.lo < h.l ? h.lo : h.l;
    snprintf(where, sizeof where, "timelines[%d].keys", first);
    float keep = tm[l->key_first + 300];
    tm[l->key_first + 300] = tm[l->key_first + 299] - 1.0f;
    snprintf(msg, sizeof msg, "key 300: time %g is before key 299's %g", (double)tm[l->key_first + 300],
             (double)tm[l->key_first + 299]);
    expect(h.blob, h.r.size, where, msg);
    /* the same with every earlier timeline on keys 301..350: the last one reports it at its key */
    mf_sd_timeline *tl = sec(h.blob, MF_SD_SEC_TIMELINES);
    for (int32_t i = 0; i < h.hi; i++) tl[i].key_first = l->key_first + 301, tl[i].key_count = 50;
    keys_point(&h, h.hi, l->key_first + 250, 100);
    snprintf(where, sizeof where, "timelines[%d].keys", h.hi);
    snprintf(msg, sizeof msg, "key 50: time %g is before key 49's %g", (double)tm[l->key_first + 300],
             (double)tm[l->key_first + 299]);
    expect(h.blob, h.r.size, where, msg);
    /* starting at it, or ending just before it: accepted */
    keys_point(&h, h.hi, l->key_first + 300, 40);
    expect_ok(h.blob, h.r.size);
    keys_point(&h, h.hi, l->key_first, 300);
    expect_ok(h.blob, h.r.size);
    /* not a number: at the first key, then inside */
    tm[l->key_first + 300] = keep;
    tm[l->key_first + 400] = NAN;
    keys_point(&h, h.hi, l->key_first + 400, 20);
    expect(h.blob, h.r.size, where, "key 0: time is not a finite number");
    keys_point(&h, h.hi, l->key_first + 390, 20);
    snprintf(msg, sizeof msg, "key 10: time %g is before key 9's %g", (double)NAN, (double)tm[l->key_first + 399]);
    expect(h.blob, h.r.size, where, msg);
    keys_free(&h);
}

/* ---- ints ---- */

/* Slots s0..s<SMALL> on one bone; s0's attachment switches through BIG keys, the others' through 2. */
static char *slots_rig(void)
{
    size_t len = 0, cap = 1 << 14;
    char *b = malloc(cap);
    assert_non_null(b);
    tu_cat(&b, &len, &cap, "%s\"bones\":[{\"name\":\"b0\"}],\"slots\":[", RIG_HEAD);
    for (int k = 0; k <= SMALL; k++) tu_cat(&b, &len, &cap, "%s{\"name\":\"s%d\",\"bone\":\"b0\"}", k ? "," : "", k);
    tu_cat(&b, &len, &cap, "]}");
    return b;
}

static char *slots_clip(void)
{
    size_t len = 0, cap = 1 << 14;
    char *b = malloc(cap);
    assert_non_null(b);
    tu_cat(&b, &len, &cap, "%s\"length\":10,\"slots\":{\"s0\":{\"attachment\":{\"t\":[", CLIP_HEAD);
    for (int i = 0; i < BIG; i++) tu_cat(&b, &len, &cap, "%s%.4f", i ? "," : "", i / 60.0);
    tu_cat(&b, &len, &cap, "],\"v\":[");
    for (int i = 0; i < BIG; i++) tu_cat(&b, &len, &cap, "%snull", i ? "," : "");
    tu_cat(&b, &len, &cap, "]}}");
    for (int k = 1; k <= SMALL; k++)
        tu_cat(&b, &len, &cap, ",\"s%d\":{\"attachment\":{\"t\":[0,1],\"v\":[null,null]}}", k);
    tu_cat(&b, &len, &cap, "}}");
    return b;
}

/* Every short attachment timeline on the long one's keys and ints; one int of the long one's
 * made an offset outside the string table: the first timeline in order that reads it reports it. */
static void test_shared_ints(void **state)
{
    (void)state;
    char *rig = slots_rig(), *clip = slots_clip();
    const char *names[] = {"switch"}, *clips[] = {clip};
    test_rig r;
    test_rig_build(&r, rig, names, clips, 1);
    free(rig), free(clip);
    const mf_skel_data *d = &r.data;
    unsigned char *blob = r.blob;
    int32_t li = -1, lo = d->timeline_count, hi = -1;
    for (int32_t i = 0; i < d->timeline_count; i++)
        if (d->timelines[i].key_count == BIG) li = i;
    assert_true(li >= 0);
    const mf_sd_timeline l = d->timelines[li];
    assert_int_equal(l.int_comps, 1);
    mf_sd_timeline *tl = sec(blob, MF_SD_SEC_TIMELINES);
    for (int32_t i = 0; i < d->timeline_count; i++) {
        if (i == li) continue;
        assert_int_equal(tl[i].kind, l.kind);
        tl[i].key_first = l.key_first, tl[i].key_count = BIG, tl[i].int_first = l.int_first;
        lo = i < lo ? i : lo, hi = i > hi ? i : hi;
    }
    assert_int_equal(hi - lo + 1, SMALL);
    assert_true((int64_t)SMALL * BIG > d->int_count);
    expect_ok(blob, r.size);
    int32_t *ints = sec(blob, MF_SD_SEC_INTS), bad = d->string_bytes;
    char where[64], msg[120];
    ints[l.int_first + 450] = bad;
    snprintf(where, sizeof where, "timelines[%d].ints", lo < li ? lo : li);
    snprintf(msg, sizeof msg, "key 450: string offset %d outside the string table", bad);
    expect(blob, r.size, where, msg);
    /* every earlier timeline on ints 0..399 (accepted from the tables), the last one on 400.. */
    for (int32_t i = 0; i < hi; i++) tl[i].key_count = 400;
    tl[hi].key_first = l.key_first + 400, tl[hi].int_first = l.int_first + 400, tl[hi].key_count = 100;
    snprintf(where, sizeof where, "timelines[%d].ints", hi);
    snprintf(msg, sizeof msg, "key 50: string offset %d outside the string table", bad);
    expect(blob, r.size, where, msg);
    /* the last one ending just before it: accepted */
    tl[hi].key_count = 50;
    expect_ok(blob, r.size);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_triangles_accepted),
        cmocka_unit_test(test_shared_triangles_late_errors),
        cmocka_unit_test(test_shared_times),
        cmocka_unit_test(test_shared_ints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
