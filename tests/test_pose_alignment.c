/* A host allocator owes only malloc's promise when it is asked to; one that hands out
 * 8-byte aligned blocks (common for arena allocators) must still work. The pose's packed
 * skinning matrices are written by SSE stores at every world update (unaligned ones, for this). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>

#include "mf/mf_geometry.h"
#include "pose_rig.h"

/* malloc's block moved by 8 bytes: 8-byte but not 16-byte aligned */
static void *alloc8(void *user, size_t n)
{
    (void)user;
    unsigned char *b = malloc(n + 16);
    return b ? b + 8 : NULL;
}
static void free8(void *user, void *p)
{
    (void)user;
    if (p) free((unsigned char *)p - 8);
}

static const char *RIG = RIG_WEIGHTED_MESH;

static void test_allocator_8_byte_aligned(void **state)
{
    (void)state;
    test_rig r;
    test_rig_build(&r, RIG, NULL, NULL, 0);
    mf_allocator al = {.alloc = alloc8, .free = free8};
    mf_pose *p = NULL;
    mf_draw_list *dl = NULL;
    assert_int_equal(mf_pose_create(&r.data, &al, &p, NULL), MF_OK);
    assert_int_equal(mf_draw_list_create(&r.data, &al, &dl), MF_OK);
    mf_pose_update_world(p);
    mf_draw_list_build(dl, p);
    assert_int_equal(dl->item_count, 1);
    mf_draw_list_destroy(dl);
    mf_pose_destroy(p);
    test_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allocator_8_byte_aligned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
