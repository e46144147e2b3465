/* mf_pose_set_simd / mf_pose_simd (mf_pose.h): bad arguments, caps below what the CPU offers and
 * AUTO restoring it, and the same world transforms and world vertices at every level this CPU
 * has, frame by frame, on project fixtures (tests/data/mskel, with every skin; the mannequin's
 * clips, whose 19 bones take the AVX2 and AVX-512 dirty marks), also with the level switched
 * every frame and between a world update and its skinning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "mf/mf_build.h"
#include "mf/mf_geometry.h"
#include "mf/mf_physics.h"
#include "mf/mf_pose.h"
#include "mf/mf_rig.h"
#include "mf/mf_tracks.h"

#define FRAMES 24
#define LEVELS 4 /* MF_SIMD_BASE .. MF_SIMD_AVX512 */

typedef struct fixture {
    void *blob;
    mf_skel_data data;
    mf_skin_cache *skins;
    int32_t skin_list[16], skin_count;
} fixture;

static void fixture_open(fixture *fx, const char *rel)
{
    mf_rig rig;
    mf_diag diag;
    mf_diag_clear(&diag);
    size_t size = 0;
    mf_result res = mf_rig_load(tu_src(rel), &rig, &diag);
    if (res != MF_OK) fprintf(stderr, "%s: %s: %s\n", diag.file, diag.where, diag.message);
    assert_int_equal(res, MF_OK);
    res = mf_build_skeleton(rig.sk, (const mf_clip *const *)rig.clips, rig.clip_count, &fx->blob, &size, &diag);
    mf_rig_free(&rig);
    assert_int_equal(res, MF_OK);
    assert_int_equal(mf_skel_data_load(fx->blob, size, &fx->data, &diag), MF_OK);
    assert_int_equal(mf_skin_cache_create(&fx->data, NULL, &fx->skins), MF_OK);
    fx->skin_count = 0;
    for (int32_t k = 0; k < fx->data.skin_count && k < 16; k++) fx->skin_list[fx->skin_count++] = k;
}

/* fixture_open, and a pose of it as created */
static mf_pose *fixture_pose(fixture *fx, const char *rel)
{
    fixture_open(fx, rel);
    mf_pose *p;
    mf_diag diag;
    assert_int_equal(mf_pose_create(&fx->data, NULL, &p, &diag), MF_OK);
    return p;
}

static void fixture_close(fixture *fx)
{
    mf_skin_cache_destroy(fx->skins);
    free(fx->blob);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* The world vertices of every slot's attachment, in slot order; when switch_to is a level, the
 * pose is capped there half way (the packed matrices of the first half's level are stale). */
static uint64_t vertices(mf_pose *p, uint64_t h, int switch_to)
{
    static float buf[2 * 4096];
    for (int32_t s = 0; s < p->slot_count; s++) {
        if (switch_to > 0 && s == p->slot_count / 2) assert_int_equal(mf_pose_set_simd(p, (mf_simd)switch_to), MF_OK);
        int32_t att = p->attachment[s];
        if (att < 0) continue;
        int32_t n = mf_pose_world_vertices(p, s, att, buf, 4096);
        h = fnv(h, &n, sizeof n);
        if (n > 0) h = fnv(h, buf, sizeof(float) * 2 * (size_t)n);
    }
    return h;
}

/* One digest a frame into out[FRAMES]. level: the pose's cap; 0: switched every frame (and
 * between the update and the skinning). Clips play through tracks; a rig without clips is
 * moved by hand from its setup pose. */
static void play(const fixture *fx, int level, int widest, uint64_t *out)
{
    mf_pose *p;
    mf_tracks *t = NULL;
    mf_diag diag;
    assert_int_equal(mf_pose_create(&fx->data, NULL, &p, &diag), MF_OK);
    if (fx->skin_count > 0)
        assert_int_equal(mf_pose_set_skins(p, fx->skins, fx->skin_list, fx->skin_count, &diag), MF_OK);
    if (fx->data.clip_count > 0) {
        mf_tracks_config tc = {.default_mix = 0.2};
        assert_int_equal(mf_tracks_create(&fx->data, &tc, NULL, &t), MF_OK);
        mf_tracks_set(t, 0, 0, true);
    }
    if (level > 0) assert_int_equal(mf_pose_set_simd(p, (mf_simd)level), MF_OK);
    for (int f = 0; f < FRAMES; f++) {
        int switch_to = 0;
        if (level == 0) {
            int l = MF_SIMD_BASE + f % widest; /* base, avx, … and round */
            assert_int_equal(mf_pose_set_simd(p, (mf_simd)l), MF_OK);
            switch_to = MF_SIMD_BASE + (f + 2) % widest;
        }
        if (t) {
            if (f == 12 && fx->data.clip_count > 1) mf_tracks_set(t, 0, 1, true);
            mf_tracks_update(t, 1.0 / 30);
            mf_tracks_apply(t, p);
        } else {
            mf_pose_reset(p);
            for (int32_t i = 0; i < p->bone_count; i++) {
                if ((f + i) % 3 == 0) continue; /* some bones keep their values: the dirty skip */
                p->rot[i] += 7.25f * (float)((f * (i + 1)) % 17);
                p->x[i] += 0.5f * (float)(f % 5);
                p->sx[i] *= 1.0f + 0.03125f * (float)(f % 4);
                p->shy[i] += (float)(f % 3);
            }
        }
        mf_pose_physics_step(p, 1.0 / 30);
        mf_pose_update_world(p);
        int32_t n = p->bone_count;
        uint64_t h = 1469598103934665603ull;
        const float *w[6] = {p->a, p->b, p->c, p->d, p->wx, p->wy};
        for (int k = 0; k < 6; k++) h = fnv(h, w[k], sizeof(float) * (size_t)n);
        out[f] = vertices(p, h, switch_to);
    }
    mf_tracks_destroy(t);
    mf_pose_destroy(p);
}

static void same_at_every_level(const char *rel)
{
    fixture fx;
    mf_pose *p = fixture_pose(&fx, rel);
    int widest = (int)mf_pose_simd(p);
    mf_pose_destroy(p);
    uint64_t base[FRAMES], other[FRAMES];
    play(&fx, MF_SIMD_BASE, widest, base);
    for (int level = MF_SIMD_BASE + 1; level <= widest + 1; level++) { /* widest + 1: switched */
        play(&fx, level <= widest ? level : 0, widest, other);
        for (int f = 0; f < FRAMES; f++)
            if (other[f] != base[f]) fail_msg("%s: level %d differs from base at frame %d", rel, level, f);
    }
    printf("%s: %d bones, %d clips, %d skins: levels base..%d and switching agree over %d frames\n", rel,
           (int)fx.data.bone_count, (int)fx.data.clip_count, (int)fx.data.skin_count, widest, FRAMES);
    fixture_close(&fx);
}

static void test_arguments(void **state)
{
    (void)state;
    assert_int_equal(mf_pose_set_simd(NULL, MF_SIMD_AUTO), MF_ERR_ARGUMENT);
    assert_int_equal(mf_pose_simd(NULL), MF_SIMD_BASE);
    fixture fx;
    mf_pose *p = fixture_pose(&fx, "tests/data/mskel/all.mskel");
    mf_simd widest = mf_pose_simd(p);
    assert_true(widest >= MF_SIMD_BASE && widest <= MF_SIMD_AVX512);
    assert_int_equal(mf_pose_set_simd(p, MF_SIMD_BASE), MF_OK);
    assert_int_equal(mf_pose_set_simd(p, (mf_simd)(MF_SIMD_AVX512 + 1)), MF_ERR_ARGUMENT);
    assert_int_equal(mf_pose_set_simd(p, (mf_simd)-1), MF_ERR_ARGUMENT);
    assert_int_equal(mf_pose_simd(p), MF_SIMD_BASE); /* unchanged by the bad calls */
    mf_pose_destroy(p);
    fixture_close(&fx);
}

static void test_caps(void **state)
{
    (void)state;
    fixture fx;
    mf_pose *p = fixture_pose(&fx, "examples/mannequin/mannequin.mskel");
    mf_simd widest = mf_pose_simd(p);
#if defined(MF_NO_SIMD) || !(defined(__x86_64__) || defined(__i386__))
    assert_int_equal(widest, MF_SIMD_BASE);
#endif
    printf("this CPU: widest level %d (1 base, 2 avx, 3 avx2, 4 avx512)\n", (int)widest);
    for (int l = MF_SIMD_BASE; l <= MF_SIMD_AVX512; l++) { /* capping: the cap or the widest, the lower */
        assert_int_equal(mf_pose_set_simd(p, (mf_simd)l), MF_OK);
        assert_int_equal(mf_pose_simd(p), l < (int)widest ? l : (int)widest);
    }
    assert_int_equal(mf_pose_set_simd(p, MF_SIMD_BASE), MF_OK);
    assert_int_equal(mf_pose_set_simd(p, MF_SIMD_AUTO), MF_OK);
    assert_int_equal(mf_pose_simd(p), widest); /* AUTO: as created */
    mf_pose_destroy(p);
    fixture_close(&fx);
}

static void test_same_bits_all(void **state)
{
    (void)state;
    same_at_every_level("tests/data/mskel/all.mskel");
}

static void test_same_bits_seed(void **state)
{
    (void)state;
    same_at_every_level("tests/data/mskel/seed.mskel");
}

static void test_same_bits_mannequin(void **state)
{
    (void)state;
    same_at_every_level("examples/mannequin/mannequin.mskel");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arguments),           cmocka_unit_test(test_caps),
        cmocka_unit_test(test_same_bits_all),       cmocka_unit_test(test_same_bits_seed),
        cmocka_unit_test(test_same_bits_mannequin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
