/* The weighted skinning streams in the build (mf_sd_skin_group …): what they hold, that every
 * instance skins from the one shared copy (a pose's size does not grow with influences), and
 * that the loader refuses streams that are not exactly what the attachments give, located. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_geometry.h"
#include "mf/mf_pose.h"

/* Four bones; slot s0 a weighted mesh of nv vertices, vertex i with counts[i % ncounts]
 * influences; slot s1 an unweighted mesh; slot s2 a region. */
static char *rig_text(int nv, const int *counts, int ncounts)
{
    size_t len = 0, cap = 4096;
    char *b = malloc(cap);
    assert_non_null(b);
    tu_cat(&b, &len, &cap,
        "%s\"bones\":[{\"name\":\"b0\"},{\"name\":\"b1\",\"parent\":\"b0\",\"x\":20,\"rot\":30},"
        "{\"name\":\"b2\",\"parent\":\"b1\",\"x\":15,\"sx\":1.5},{\"name\":\"b3\",\"parent\":\"b0\",\"y\":-10}],"
        "\"slots\":[{\"name\":\"s0\",\"bone\":\"b0\",\"attachment\":\"m\"},{\"name\":\"s1\",\"bone\":\"b1\",\"attachment\":\"u\"},"
        "{\"name\":\"s2\",\"bone\":\"b2\",\"attachment\":\"r\"}],\"skins\":[{\"name\":\"default\",\"attachments\":["
        "{\"slot\":\"s0\",\"name\":\"m\",\"type\":\"Mesh\",\"hull\":%d,\"uvs\":[",
        RIG_HEAD, nv);
    for (int i = 0; i < nv; i++) tu_cat(&b, &len, &cap, "%s%.3f,%.3f", i ? "," : "", i / (double)nv, (i % 3) / 3.0);
    tu_cat(&b, &len, &cap, "],\"triangles\":[");
    for (int i = 1; i + 1 < nv; i++) tu_cat(&b, &len, &cap, "%s0,%d,%d", i > 1 ? "," : "", i, i + 1);
    tu_cat(&b, &len, &cap, "],\"weights\":{\"bones\":[\"b0\",\"b1\",\"b2\",\"b3\"],\"v\":[");
    for (int i = 0; i < nv; i++) {
        int c = counts[i % ncounts];
        tu_cat(&b, &len, &cap, "%s[", i ? "," : "");
        for (int j = 0; j < c; j++)
            tu_cat(&b, &len, &cap, "%s%d,%.4f,%.3f,%.3f", j ? "," : "", (i + j) % 4, 1.0 / c, 3.0 * i - j, 2.0 * j - i);
        tu_cat(&b, &len, &cap, "]");
    }
    tu_cat(&b, &len, &cap,
        "]}},{\"slot\":\"s1\",\"name\":\"u\",\"type\":\"Mesh\",\"hull\":3,\"uvs\":[0,0,1,0,0,1],\"triangles\":[0,1,2],"
        "\"vertices\":[0,0,10,0,0,10]},{\"slot\":\"s2\",\"name\":\"r\",\"type\":\"Region\",\"width\":8,\"height\":6}]}]}");
    return b;
}

static const int MIXED[] = {1, 2, 2, 3, 1, 8, 2, 2, 4};
#define NMIXED (int)(sizeof MIXED / sizeof MIXED[0])

static int32_t attachment_on(const mf_skel_data *d, const char *slot)
{
    int32_t s = mf_skel_data_find_slot(d, slot);
    for (int32_t a = 0; a < d->attachment_count; a++)
        if (d->attachments[a].slot == s) return a;
    fail_msg("no attachment on %s", slot);
    return -1;
}

/* The streams hold every weighted vertex once, its real influences as {w·x, w·y, w, 8·bone}
 * in order, then padding {0, 0, 0, 8·bone_count}; groups ascend by count; other attachments
 * have no groups. */
static void test_streams_content(void **state)
{
    (void)state;
    char *text = rig_text(23, MIXED, NMIXED);
    test_rig r;
    test_rig_build(&r, text, NULL, NULL, 0);
    free(text);
    const mf_skel_data *d = &r.data;
    assert_int_equal(d->skin_group_first_count, d->attachment_count + 1);
    assert_int_equal(d->skin_group_first[0], 0);
    assert_int_equal(d->skin_group_first[d->attachment_count], d->skin_group_count);
    int32_t m = attachment_on(d, "s0");
    for (int32_t a = 0; a < d->attachment_count; a++)
        if (a != m) assert_int_equal(d->skin_group_first[a + 1], d->skin_group_first[a]);
    const mf_sd_attachment *at = &d->attachments[m];
    int seen[23] = {0};
    int32_t records = 0, vertices = 0;
    for (int32_t g = d->skin_group_first[m]; g < d->skin_group_first[m + 1]; g++) {
        const mf_sd_skin_group *gr = &d->skin_groups[g];
        if (g > d->skin_group_first[m]) assert_true(gr->count > gr[-1].count);
        assert_int_equal(gr->record_first, records);
        assert_int_equal(gr->vertex_first, vertices);
        for (int32_t k = 0; k < gr->vertices; k++) {
            const mf_sd_skin_vertex *v = &d->skin_vertices[gr->vertex_first + k];
            int32_t i = v->out / 2;
            assert_true(i >= 0 && i < 23);
            seen[i]++;
            const mf_sd_span *sp = &d->spans[at->vertex_first + i];
            assert_int_equal(v->records, sp->count);
            assert_true(sp->count <= gr->count);
            assert_int_equal(v->deform, 2 * (sp->first - at->infl_first));
            for (int32_t j = 0; j < gr->count; j++) {
                const mf_sd_skin_record *rec = &d->skin_records[gr->record_first + k * gr->count + j];
                if (j < sp->count) {
                    const mf_sd_influence *in = &d->influences[sp->first + j];
                    assert_true(rec->wx == in->weight * in->x && rec->wy == in->weight * in->y && rec->w == in->weight);
                    assert_true(rec->bone8 == (float)(8 * in->bone));
                } else {
                    assert_true(rec->wx == 0 && rec->wy == 0 && rec->w == 0 && rec->bone8 == (float)(8 * d->bone_count));
                }
            }
        }
        records += gr->count * gr->vertices, vertices += gr->vertices;
    }
    for (int i = 0; i < 23; i++) assert_int_equal(seen[i], 1);
    assert_int_equal(records, d->skin_record_count);
    assert_int_equal(vertices, d->skin_vertex_count);
    test_rig_free(&r);
}

static size_t g_bytes;
static void *count_alloc(void *u, size_t n)
{
    (void)u;
    g_bytes += n;
    return malloc(n);
}
static void count_free(void *u, void *p)
{
    (void)u;
    free(p);
}

static size_t pose_bytes(const mf_skel_data *d)
{
    mf_allocator al = {.alloc = count_alloc, .free = count_free};
    mf_pose *p = NULL;
    g_bytes = 0;
    assert_int_equal(mf_pose_create(d, &al, &p, NULL), MF_OK);
    size_t n = g_bytes;
    mf_pose_destroy(p);
    return n;
}

/* Records of attachment a's chain of every vertex (a run chain may come before it). */
static int32_t first_chain_records(const mf_skel_data *d, int32_t a)
{
    int32_t g0 = d->skin_group_first[a], g1 = d->skin_group_first[a + 1], n = 0;
    if (g0 < g1) g0 += d->skin_groups[g0].runs;
    for (int32_t g = g0; g < g1; g++) n += d->skin_groups[g].count * d->skin_groups[g].vertices;
    return n;
}

/* Instances share the build's streams: a pose of a mesh with 8 influences a vertex is larger
 * than one with 1 only by its deform scratch, and two poses skin to the same bits. */
static void test_poses_share_streams(void **state)
{
    (void)state;
    const int one[] = {1}, eight[] = {8};
    char *t1 = rig_text(200, one, 1), *t8 = rig_text(200, eight, 1);
    test_rig r1, r8;
    test_rig_build(&r1, t1, NULL, NULL, 0);
    test_rig_build(&r8, t8, NULL, NULL, 0);
    free(t1), free(t8);
    assert_int_equal(first_chain_records(&r1.data, attachment_on(&r1.data, "s0")), 200);
    assert_int_equal(first_chain_records(&r8.data, attachment_on(&r8.data, "s0")), 1600);
    /* the only per-instance part that grows with influences is the slot's deform scratch (2
     * floats an influence, what weighted deform keys hold) */
    assert_int_equal(pose_bytes(&r8.data) - pose_bytes(&r1.data), 2 * (1600 - 200) * sizeof(float));

    mf_pose *a = NULL, *b = NULL;
    assert_int_equal(mf_pose_create(&r8.data, NULL, &a, NULL), MF_OK);
    assert_int_equal(mf_pose_create(&r8.data, NULL, &b, NULL), MF_OK);
    mf_pose_update_world(a), mf_pose_update_world(b);
    int32_t m = attachment_on(&r8.data, "s0");
    float va[400], vb[400];
    assert_int_equal(mf_pose_world_vertices(a, 0, m, va, 200), 200);
    assert_int_equal(mf_pose_world_vertices(b, 0, m, vb, 200), 200);
    assert_memory_equal(va, vb, sizeof va);
    mf_pose_destroy(a), mf_pose_destroy(b);

    /* a view without streams (not from the loader) is refused, not skinned from nothing */
    mf_skel_data bare = r8.data;
    bare.skin_group_first_count = 0;
    mf_diag diag;
    assert_int_equal(mf_pose_create(&bare, NULL, &a, &diag), MF_ERR_ARGUMENT);
    assert_null(a);
    assert_contains(diag.message, "skinning streams");
    test_rig_free(&r1), test_rig_free(&r8);
}

/* ---------------------------------------------------------------- loader */

static void expect_bad(unsigned char *blob, size_t size, const char *where, const char *msg)
{
    test_blob_reseal(blob, size);
    mf_skel_data d;
    mf_diag diag;
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_ERR_CORRUPT);
    assert_string_equal(diag.where, where);
    assert_contains(diag.message, msg);
}

/* Changes one 32-bit word of record i of a section, expects the error, puts it back. */
static void poke(unsigned char *blob, size_t size, uint32_t id, int32_t i, int word, uint32_t value,
                 const char *where, const char *msg)
{
    const mf_sd_section *s = test_blob_section(blob, id);
    unsigned char *at = blob + s->offset + (size_t)s->elem_size * (size_t)i + 4 * (size_t)word;
    uint32_t keep;
    memcpy(&keep, at, 4);
    memcpy(at, &value, 4);
    expect_bad(blob, size, where, msg);
    memcpy(at, &keep, 4);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void test_loader_checks(void **state)
{
    (void)state;
    char *text = rig_text(23, MIXED, NMIXED);
    test_rig r;
    test_rig_build(&r, text, NULL, NULL, 0);
    free(text);
    unsigned char *blob = r.blob;
    size_t n = r.size;
    const mf_skel_data *d = &r.data;
    int32_t nb = d->bone_count;
    /* a record's bone past the all-zero matrix: the runtime would read outside its matrices */
    poke(blob, n, MF_SD_SEC_SKIN_RECORDS, 3, 3, fbits((float)(8 * (nb + 1))), "skinRecords[3]", "word 3");
    /* -0 for +0 in a padding record: the same value, other bits */
    int32_t pad = -1;
    for (int32_t i = 0; i < d->skin_record_count && pad < 0; i++)
        if (d->skin_records[i].bone8 == (float)(8 * nb)) pad = i;
    assert_true(pad >= 0);
    char where[64];
    snprintf(where, sizeof where, "skinRecords[%d]", pad);
    poke(blob, n, MF_SD_SEC_SKIN_RECORDS, pad, 0, 0x80000000u, where, "word 0");
    /* a vertex writing past the attachment's output */
    poke(blob, n, MF_SD_SEC_SKIN_VERTICES, 0, 0, 2 * 23, "skinVertices[0]", "word 0");
    /* a group claiming more vertices, or another kernel */
    poke(blob, n, MF_SD_SEC_SKIN_GROUPS, 0, 3, (uint32_t)d->skin_groups[0].vertices + 1, "skinGroups[0]", "word 3");
    poke(blob, n, MF_SD_SEC_SKIN_GROUPS, 1, 4, 99, "skinGroups[1]", "word 4");
    /* group ranges */
    int32_t m = attachment_on(d, "s0");
    snprintf(where, sizeof where, "skinGroupFirst[%d]", m + 1);
    poke(blob, n, MF_SD_SEC_SKIN_GROUP_FIRST, m + 1, 0, (uint32_t)d->skin_group_first[m], where, "word 0");
    /* a section one record short, or longer than the attachments give */
    mf_sd_section *s = test_blob_section(blob, MF_SD_SEC_SKIN_RECORDS);
    s->count--;
    expect_bad(blob, n, "section skinRecords", "but the attachments' weighted vertices give more");
    s->count++;
    s = test_blob_section(blob, MF_SD_SEC_SKIN_GROUP_FIRST);
    s->count--;
    expect_bad(blob, n, "section skinGroupFirst", "give more");
    s->count++;
    test_blob_reseal(blob, n);
    mf_skel_data ok;
    assert_int_equal(mf_skel_data_load(blob, n, &ok, NULL), MF_OK);
    test_rig_free(&r);
}

/* A section longer than the streams: the extra records are refused too. */
static void test_loader_extra_records(void **state)
{
    (void)state;
    char *text = rig_text(9, MIXED, NMIXED);
    test_rig r;
    test_rig_build(&r, text, NULL, NULL, 0);
    free(text);
    /* skinVertices is the last section: one more (zero) record at the end of a longer blob */
    size_t n = r.size + sizeof(mf_sd_skin_vertex);
    unsigned char *blob = calloc(1, n);
    assert_non_null(blob);
    memcpy(blob, r.blob, r.size);
    uint64_t total = n;
    memcpy(blob + 24, &total, 8);
    mf_sd_section *v = test_blob_section(blob, MF_SD_SEC_SKIN_VERTICES);
    assert_int_equal(v->offset + v->count * v->elem_size, r.size);
    v->count++;
    char msg[96];
    snprintf(msg, sizeof msg, "%u records, expected %u", v->count, v->count - 1);
    expect_bad(blob, n, "section skinVertices", msg);
    free(blob);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_streams_content),
        cmocka_unit_test(test_poses_share_streams),
        cmocka_unit_test(test_loader_checks),
        cmocka_unit_test(test_loader_extra_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
