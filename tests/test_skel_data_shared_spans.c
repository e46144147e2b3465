/* Hostile builds whose weighted attachments share span ranges: the loader's span check answers
 * each attachment without walking the shared spans again (a table past the streams' budget),
 * and accepts and refuses exactly as the walk does, with the same located messages. The blobs
 * are real builds with attachment records rewritten to point at one mesh's spans. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"

enum { BIG = 600, SMALL = 400, COPIES = 40 };

/* A weighted mesh of nv vertices on a fan, vertex i with 1 + (i * 5 + i / 7) % 8 influences. */
static void mesh(char **b, size_t *len, size_t *cap, const char *slot, const char *name, int nv)
{
    tu_cat(b, len, cap, "{\"slot\":\"%s\",\"name\":\"%s\",\"type\":\"Mesh\",\"hull\":3,\"uvs\":[", slot, name);
    for (int i = 0; i < nv; i++) tu_cat(b, len, cap, "%s%.3f,%.3f", i ? "," : "", i / (double)nv, (i % 3) / 3.0);
    tu_cat(b, len, cap, "],\"triangles\":[");
    for (int i = 1; i + 1 < nv; i++) tu_cat(b, len, cap, "%s0,%d,%d", i > 1 ? "," : "", i, i + 1);
    tu_cat(b, len, cap, "],\"weights\":{\"bones\":[\"b0\",\"b1\",\"b2\",\"b3\"],\"v\":[");
    for (int i = 0; i < nv; i++) {
        int c = 1 + (i * 5 + i / 7) % 8;
        tu_cat(b, len, cap, "%s[", i ? "," : "");
        for (int j = 0; j < c; j++)
            tu_cat(b, len, cap, "%s%d,%.4f,%.3f,%.3f", j ? "," : "", (i + j) % 4, 1.0 / c, 3.0 * i - j, 2.0 * j - i);
        tu_cat(b, len, cap, "]");
    }
    tu_cat(b, len, cap, "]}}");
}

/* Slot s0: mesh "m" of BIG vertices. Slot s1: n meshes "a<k>" of nv vertices each. */
static char *rig_text(int n, int nv)
{
    size_t len = 0, cap = 1 << 16;
    char *b = malloc(cap);
    assert_non_null(b);
    tu_cat(&b, &len, &cap,
        "%s\"bones\":[{\"name\":\"b0\"},{\"name\":\"b1\",\"parent\":\"b0\",\"x\":20},{\"name\":\"b2\",\"parent\":\"b1\","
        "\"x\":15},{\"name\":\"b3\",\"parent\":\"b0\",\"y\":-10}],\"slots\":[{\"name\":\"s0\",\"bone\":\"b0\",\"attachment\":"
        "\"m\"},{\"name\":\"s1\",\"bone\":\"b1\",\"attachment\":\"a0\"}],\"skins\":[{\"name\":\"default\",\"attachments\":[",
        RIG_HEAD);
    mesh(&b, &len, &cap, "s0", "m", BIG);
    for (int k = 0; k < n; k++) {
        char name[16];
        snprintf(name, sizeof name, "a%d", k);
        tu_cat(&b, &len, &cap, ",");
        mesh(&b, &len, &cap, "s1", name, nv);
    }
    tu_cat(&b, &len, &cap, "]}]}");
    return b;
}

static mf_sd_attachment *attachments(unsigned char *blob)
{
    return (mf_sd_attachment *)(void *)(blob + test_blob_section(blob, MF_SD_SEC_ATTACHMENTS)->offset);
}

static mf_sd_span *spans(unsigned char *blob)
{
    return (mf_sd_span *)(void *)(blob + test_blob_section(blob, MF_SD_SEC_SPANS)->offset);
}

/* Points attachment a at the spans [first, first + count) and their influences, m's uvs. */
static void share(const mf_skel_data *d, mf_sd_attachment *a, const mf_sd_attachment *m, int32_t first, int32_t count)
{
    const mf_sd_span *sp = d->spans + first;
    a->vertex_first = first;
    a->vertex_count = count;
    a->infl_first = sp[0].first;
    a->infl_count = sp[count - 1].first + sp[count - 1].count - a->infl_first;
    a->deform_count = 2 * a->infl_count;
    a->uv_first = m->uv_first;
}

/* The attachment named name (slot s0 or s1). */
static int32_t find(const mf_skel_data *d, const char *name)
{
    for (int32_t i = 0; i < d->attachment_count; i++)
        if (!strcmp(mf_skel_data_string(d, d->attachments[i].name), name)) return i;
    fail_msg("no attachment %s", name);
    return -1;
}

static void expect(unsigned char *blob, size_t size, const char *where, const char *msg)
{
    test_blob_reseal(blob, size);
    mf_skel_data d;
    mf_diag diag;
    mf_diag_clear(&diag);
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_ERR_CORRUPT);
    assert_string_equal(diag.where, where);
    assert_string_equal(diag.message, msg);
}

typedef struct hostile {
    test_rig r;
    unsigned char *blob; /* the build, its small meshes all sharing m's spans */
    int32_t m, lo, hi;   /* m; the smallest and largest index of the small meshes */
} hostile;

static void hostile_make(hostile *h)
{
    char *text = rig_text(SMALL, 3);
    test_rig_build(&h->r, text, NULL, NULL, 0);
    free(text);
    const mf_skel_data *d = &h->r.data;
    h->blob = malloc(h->r.size);
    assert_non_null(h->blob);
    memcpy(h->blob, h->r.blob, h->r.size);
    h->m = find(d, "m");
    h->lo = d->attachment_count, h->hi = -1;
    mf_sd_attachment *at = attachments(h->blob);
    for (int32_t i = 0; i < d->attachment_count; i++) {
        if (i == h->m) continue;
        share(d, &at[i], &d->attachments[h->m], d->attachments[h->m].vertex_first, BIG);
        h->lo = i < h->lo ? i : h->lo, h->hi = i > h->hi ? i : h->hi;
    }
    assert_int_equal(h->hi - h->lo + 1, SMALL);
    /* far more vertices than the streams hold: past the budget */
    assert_true((int64_t)SMALL * BIG > d->skin_vertex_count);
}

static void hostile_free(hostile *h)
{
    free(h->blob);
    test_rig_free(&h->r);
}

/* Every span check passes; the streams are the first thing wrong: at the first group of the
 * first small mesh, generated now for BIG vertices. */
static void test_shared_spans_streams(void **state)
{
    (void)state;
    hostile h;
    hostile_make(&h);
    const mf_skel_data *d = &h.r.data;
    char where[64];
    snprintf(where, sizeof where, "skinGroups[%d]", d->skin_group_first[h.lo]);
    test_blob_reseal(h.blob, h.r.size);
    mf_skel_data out;
    mf_diag diag;
    mf_diag_clear(&diag);
    assert_int_equal(mf_skel_data_load(h.blob, h.r.size, &out, &diag), MF_ERR_CORRUPT);
    assert_string_equal(diag.where, where);
    assert_contains(diag.message, "(streams are not the build's)");
    /* a valid sub-range of m's spans on the last one: still the streams */
    mf_sd_attachment *at = attachments(h.blob);
    share(d, &at[h.hi], &d->attachments[h.m], d->attachments[h.m].vertex_first + 7, BIG - 20);
    test_blob_reseal(h.blob, h.r.size);
    assert_int_equal(mf_skel_data_load(h.blob, h.r.size, &out, &diag), MF_ERR_CORRUPT);
    assert_string_equal(diag.where, where);
    hostile_free(&h);
}

/* The last small mesh (checked with the table) goes wrong in each way the walk reports. */
static void test_shared_spans_late_errors(void **state)
{
    (void)state;
    hostile h;
    hostile_make(&h);
    const mf_skel_data *d = &h.r.data;
    const mf_sd_attachment *m = &d->attachments[h.m];
    const mf_sd_span *sp = d->spans + m->vertex_first;
    mf_sd_attachment *a = &attachments(h.blob)[h.hi];
    mf_sd_attachment keep = *a;
    char where[64], msg[160];
    /* its influences start one later than its first span */
    a->infl_first++;
    snprintf(where, sizeof where, "spans[%d]", m->vertex_first);
    snprintf(msg, sizeof msg, "vertex 0 of attachment %d: span %d+%d, expected %d+(1..%d)", h.hi, sp[0].first,
             sp[0].count, sp[0].first + 1, MF_SD_MAX_INFLUENCES);
    expect(h.blob, h.r.size, where, msg);
    *a = keep;
    /* one influence more than the spans cover (the deform follows, so it is the spans' error) */
    a->infl_count++, a->deform_count += 2;
    snprintf(where, sizeof where, "attachments[%d].influences", h.hi);
    snprintf(msg, sizeof msg, "the vertex spans cover %d influences, not %d", keep.infl_count, keep.infl_count + 1);
    expect(h.blob, h.r.size, where, msg);
    *a = keep;
    /* one vertex more: the span after m's does not follow on from m's last */
    a->vertex_count++;
    snprintf(where, sizeof where, "spans[%d]", m->vertex_first + BIG);
    const mf_sd_span *after = &d->spans[m->vertex_first + BIG];
    if (after->first == sp[BIG - 1].first + sp[BIG - 1].count) {
        /* it does follow (another mesh's spans come next): then the count is off */
        snprintf(where, sizeof where, "attachments[%d].influences", h.hi);
        snprintf(msg, sizeof msg, "the vertex spans cover %d influences, not %d", keep.infl_count + after->count,
                 keep.infl_count);
    } else {
        snprintf(msg, sizeof msg, "vertex %d of attachment %d: span %d+%d, expected %d+(1..%d)", BIG, h.hi,
                 after->first, after->count, keep.infl_first + keep.infl_count, MF_SD_MAX_INFLUENCES);
    }
    assert_true(m->vertex_first + BIG < d->span_count && m->uv_first + 2 * (BIG + 1) <= d->float_count);
    expect(h.blob, h.r.size, where, msg);
    *a = keep;
    /* a span of m's broken: m, or the first small mesh when it comes before m, reports it */
    mf_sd_span *s = &spans(h.blob)[m->vertex_first + 300];
    mf_sd_span ks = *s;
    s->count = 0;
    int32_t first = h.lo < h.m ? h.lo : h.m;
    snprintf(where, sizeof where, "spans[%d]", m->vertex_first + 300);
    snprintf(msg, sizeof msg, "vertex 300 of attachment %d: span %d+0, expected %d+(1..%d)", first, ks.first, ks.first,
             MF_SD_MAX_INFLUENCES);
    expect(h.blob, h.r.size, where, msg);
    *s = ks;
    /* spans no other attachment reads any more (the small meshes' own), one of them broken */
    assert_true(m->vertex_first + BIG + 60 <= d->span_count);
    share(d, a, m, m->vertex_first + BIG + 10, 40);
    s = &spans(h.blob)[m->vertex_first + BIG + 30];
    ks = *s;
    s->first++;
    snprintf(where, sizeof where, "spans[%d]", m->vertex_first + BIG + 30);
    snprintf(msg, sizeof msg, "vertex 20 of attachment %d: span %d+%d, expected %d+(1..%d)", h.hi, ks.first + 1, ks.count,
             ks.first, MF_SD_MAX_INFLUENCES);
    expect(h.blob, h.r.size, where, msg);
    *s = ks;
    *a = keep;
    hostile_free(&h);
}

/* Identical meshes all pointed at the first one's spans: the streams they give are the ones
 * stored, so the blob loads (within the budget: no table). */
static void test_shared_spans_accepted(void **state)
{
    (void)state;
    char *text = rig_text(COPIES, BIG);
    test_rig r;
    test_rig_build(&r, text, NULL, NULL, 0);
    free(text);
    const mf_skel_data *d = &r.data;
    unsigned char *blob = r.blob;
    int32_t a0 = find(d, "a0");
    mf_sd_attachment *at = attachments(blob);
    for (int k = 1; k < COPIES; k++) {
        char name[16];
        snprintf(name, sizeof name, "a%d", k);
        int32_t i = find(d, name);
        at[i].vertex_first = d->attachments[a0].vertex_first;
        at[i].infl_first = d->attachments[a0].infl_first;
    }
    test_blob_reseal(blob, r.size);
    mf_skel_data out;
    mf_diag diag;
    mf_diag_clear(&diag);
    mf_result res = mf_skel_data_load(blob, r.size, &out, &diag);
    if (res != MF_OK) fprintf(stderr, "%s: %s\n", diag.where, diag.message);
    assert_int_equal(res, MF_OK);
    for (int k = 1; k < COPIES; k++) {
        char name[16];
        snprintf(name, sizeof name, "a%d", k);
        assert_int_equal(out.attachments[find(&out, name)].vertex_first, d->attachments[a0].vertex_first);
    }
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_spans_streams),
        cmocka_unit_test(test_shared_spans_late_errors),
        cmocka_unit_test(test_shared_spans_accepted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
