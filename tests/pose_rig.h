/* Small rigs for the runtime pose tests, built in memory from .mskel / .manim text. */
#ifndef MF_TEST_POSE_RIG_H
#define MF_TEST_POSE_RIG_H
#include <stdlib.h>
#include <string.h>

#include "mf/mf_build.h"
#include "mf/mf_clip.h"
#include "mf/mf_skel_data.h"
#include "mf/mf_skeleton.h"

typedef struct test_rig {
    void *blob;
    size_t size;
    mf_skel_data data;
} test_rig;

/* Builds rig text and clips (names[i] ↔ clips[i]); asserts every step succeeds. */
static inline void test_rig_build(test_rig *r, const char *mskel, const char *const *names,
                                  const char *const *clips, int n)
{
    mf_diag diag;
    mf_diag_clear(&diag);
    mf_skeleton *sk = NULL;
    mf_result res = mf_skeleton_parse(mskel, strlen(mskel), "test.mskel", &sk, &diag);
    if (res != MF_OK) fprintf(stderr, "%s: %s: %s\n", diag.file, diag.where, diag.message);
    assert_int_equal(res, MF_OK);
    mf_clip *cl[8] = {0};
    for (int i = 0; i < n; i++) {
        res = mf_clip_parse(clips[i], strlen(clips[i]), names[i], names[i], &cl[i], &diag);
        if (res != MF_OK) fprintf(stderr, "%s: %s: %s\n", diag.file, diag.where, diag.message);
        assert_int_equal(res, MF_OK);
    }
    res = mf_build_skeleton(sk, (const mf_clip *const *)cl, n, &r->blob, &r->size, &diag);
    if (res != MF_OK) fprintf(stderr, "%s: %s: %s\n", diag.file, diag.where, diag.message);
    assert_int_equal(res, MF_OK);
    assert_int_equal(mf_skel_data_load(r->blob, r->size, &r->data, &diag), MF_OK);
    for (int i = 0; i < n; i++) mf_clip_free(cl[i]);
    mf_skeleton_free(sk);
}

static inline void test_rig_free(test_rig *r) { free(r->blob); }

#define RIG_HEAD "{\"format\":1,\"uid\":\"skl_000000000001\",\"type\":\"Skeleton\","

/* Five bones in a chain, one slot with a three-vertex mesh weighted to two of them. */
#define RIG_WEIGHTED_MESH RIG_HEAD \
    "\"bones\":[{\"name\":\"root\"},{\"name\":\"a\",\"parent\":\"root\",\"x\":3}," \
    "{\"name\":\"b\",\"parent\":\"a\",\"x\":3},{\"name\":\"c\",\"parent\":\"b\",\"x\":3},{\"name\":\"d\",\"parent\":\"c\"}]," \
    "\"slots\":[{\"name\":\"s\",\"bone\":\"root\",\"attachment\":\"m\"}]," \
    "\"skins\":[{\"name\":\"default\",\"attachments\":[{\"slot\":\"s\",\"name\":\"m\",\"type\":\"Mesh\",\"hull\":3," \
    "\"uvs\":[0,0,1,0,1,1],\"triangles\":[0,1,2],\"weights\":{\"bones\":[\"a\",\"d\"]," \
    "\"v\":[[0,0.5,1,1,1,0.5,2,2],[0,0.5,1,1,1,0.5,2,2],[1,1,0,0]]}}]}]}"

#define CLIP_HEAD "{\"format\":1,\"uid\":\"anm_000000000001\",\"type\":\"SkeletonClip\",\"skeleton\":{\"uid\":\"skl_000000000001\"},"
/* A binary build's section entry (the table after the 64-byte header); fails the test when
 * the build has none with that id. */
static inline mf_sd_section *test_blob_section(unsigned char *blob, uint32_t id)
{
    uint32_t count;
    memcpy(&count, blob + 20, 4);
    for (uint32_t i = 0; i < count; i++) {
        mf_sd_section *s = (mf_sd_section *)(void *)(blob + 64 + 16 * (size_t)i);
        if (s->id == id) return s;
    }
    fail_msg("no section %u", id);
    return NULL;
}

/* The header's checksum again after a test edited the build. */
static inline void test_blob_reseal(unsigned char *blob, size_t size)
{
    uint64_t sum = mf_skel_data_checksum(blob + 64, size - 64);
    memcpy(blob + 32, &sum, 8);
}

#endif
