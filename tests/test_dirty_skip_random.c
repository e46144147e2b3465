/* The dirty sub-tree skip and the trigonometry cache against poses computed without
 * them, after random sequences of the public calls that change a bone's inputs or world
 * (local values, inherit modes, resets, overrides, skins, mf_pose_update_bone,
 * mf_pose_update_applied, host world writes with mf_pose_world_changed), on a rig with every
 * inherit mode, IK (one and two bones), transform constraints (local and world), bones under
 * constrained bones, skin-required bones and physics. Results must be bit-identical. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"
#include "mf/mf_physics.h"
#include "mf/mf_pose.h"
#include "../src/runtime/pose/pose_internal.h"

#define BONES(ph_bone, extra_tf) \
    "\"bones\":[{\"name\":\"root\"}," \
    "{\"name\":\"a\",\"parent\":\"root\",\"x\":5,\"rot\":10}," \
    "{\"name\":\"b\",\"parent\":\"a\",\"x\":7,\"rot\":20,\"sx\":1.5}," \
    "{\"name\":\"c\",\"parent\":\"b\",\"x\":3,\"shy\":4,\"inherit\":\"NoScale\"}," \
    "{\"name\":\"d\",\"parent\":\"a\",\"y\":2,\"rot\":-40,\"inherit\":\"NoRotationOrReflection\"}," \
    "{\"name\":\"e\",\"parent\":\"c\",\"x\":4,\"sy\":-1}," \
    "{\"name\":\"ik1\",\"parent\":\"root\",\"length\":10}," \
    "{\"name\":\"t\",\"parent\":\"root\",\"x\":3,\"y\":20}," \
    "{\"name\":\"up\",\"parent\":\"root\",\"length\":10}," \
    "{\"name\":\"low\",\"parent\":\"up\",\"x\":10,\"length\":10}," \
    "{\"name\":\"t2\",\"parent\":\"b\",\"x\":8,\"y\":9}," \
    "{\"name\":\"tf\",\"parent\":\"d\",\"x\":2,\"rot\":15}," \
    "{\"name\":\"tfw\",\"parent\":\"root\",\"x\":-3,\"rot\":5}," \
    "{\"name\":\"tch\",\"parent\":\"tf\",\"x\":6,\"rot\":33,\"inherit\":\"OnlyTranslation\"}," \
    "{\"name\":\"sk\",\"parent\":\"a\",\"x\":1,\"skinRequired\":true}," \
    "{\"name\":\"skc\",\"parent\":\"sk\",\"x\":2,\"skinRequired\":true}," \
    "{\"name\":\"ph\",\"parent\":\"c\",\"x\":2,\"rot\":80,\"length\":20}," \
    "{\"name\":\"phc\",\"parent\":\"ph\",\"x\":20,\"rot\":5}," \
    "{\"name\":\"pht\",\"parent\":\"phc\",\"x\":3,\"inherit\":\"NoScaleOrReflection\"}," \
    "{\"name\":\"lowc\",\"parent\":\"low\",\"x\":4,\"rot\":7}]," \
    "\"ik\":[{\"name\":\"k1\",\"bones\":[\"ik1\"],\"target\":\"t\",\"mix\":0.8}," \
    "{\"name\":\"k2\",\"bones\":[\"up\",\"low\"],\"target\":\"t2\"}]," \
    "\"transform\":[{\"name\":\"tl\",\"bones\":[\"tf\"],\"target\":\"b\",\"local\":true,\"mixRotate\":0.5,\"mixX\":0.3," \
    "\"mixY\":0,\"mixScaleX\":0.2,\"mixScaleY\":0,\"mixShearY\":0.4}," \
    "{\"name\":\"tw\",\"bones\":[\"tfw\"],\"target\":\"e\",\"mixRotate\":0.5,\"mixX\":0.5,\"mixY\":0.5," \
    "\"mixScaleX\":0.5,\"mixScaleY\":0.5,\"mixShearY\":0.5}," \
    "{\"name\":\"ts\",\"bones\":[\"skc\"],\"target\":\"e\",\"skinRequired\":true,\"mixRotate\":1,\"mixX\":0," \
    "\"mixY\":0,\"mixScaleX\":0,\"mixScaleY\":0,\"mixShearY\":0}" extra_tf "]" ph_bone "," \
    "\"skins\":[{\"name\":\"default\"},{\"name\":\"S\",\"bones\":[\"sk\",\"skc\"],\"constraints\":[\"ts\"]}]}"

static const char *RIG_PLAIN = RIG_HEAD BONES("", "");
static const char *RIG_PHYS = RIG_HEAD BONES(",\"physics\":[{\"name\":\"p\",\"bone\":\"ph\",\"x\":1,\"y\":1,"
                                             "\"rotate\":1,\"inertia\":0.5,\"strength\":100,\"damping\":0.9,\"mass\":1}]", "");
/* a constraint late in the order turns b: b's sub-tree (c, e, t2, ph...) is updated twice */
static const char *RIG_PHYS_TWICE = RIG_HEAD BONES(",\"physics\":[{\"name\":\"p\",\"bone\":\"ph\",\"x\":1,\"y\":1,"
    "\"rotate\":1,\"inertia\":0.5,\"strength\":100,\"damping\":0.9,\"mass\":1}]",
    ",{\"name\":\"late\",\"order\":50,\"bones\":[\"b\"],\"target\":\"tch\",\"mixRotate\":0.3,"
    "\"mixX\":0.2,\"mixY\":0,\"mixScaleX\":0,\"mixScaleY\":0,\"mixShearY\":0}");
static const char *RIG_TWICE = RIG_HEAD BONES("", ",{\"name\":\"late\",\"order\":50,\"bones\":[\"b\"],\"target\":\"tch\",\"mixRotate\":0.3,"
                                                 "\"mixX\":0.2,\"mixY\":0,\"mixScaleX\":0,\"mixScaleY\":0,\"mixShearY\":0}");

/* xorshift: the same sequence on every machine */
static uint32_t rng_next(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return *s = x;
}
static float rng_f(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(rng_next(s) % 100000u) / 100000.0f; }
static int32_t rng_i(uint32_t *s, int32_t n) { return (int32_t)(rng_next(s) % (uint32_t)n); }

static void world_bits_equal(const mf_pose *x, const mf_pose *y, int step)
{
    for (int32_t i = 0; i < x->bone_count; i++) {
        if (!x->active[i]) continue; /* stale while inactive, either way */
        float mx[6] = {x->a[i], x->b[i], x->c[i], x->d[i], x->wx[i], x->wy[i]};
        float my[6] = {y->a[i], y->b[i], y->c[i], y->d[i], y->wx[i], y->wy[i]};
        if (memcmp(mx, my, sizeof mx) != 0)
            fail_msg("step %d bone %d (%s): cached {%g %g %g %g %g %g} vs full {%g %g %g %g %g %g}", step, i,
                     mf_skel_data_string(x->data, x->data->bones[i].name), (double)mx[0], (double)mx[1], (double)mx[2],
                     (double)mx[3], (double)mx[4], (double)mx[5], (double)my[0], (double)my[1], (double)my[2],
                     (double)my[3], (double)my[4], (double)my[5]);
    }
}

/* One random change, done the same way to every pose in ps. */
static void random_op(mf_pose **ps, int np, mf_skin_cache *cache, int32_t skin_s, uint32_t *rng)
{
    mf_pose *p0 = ps[0];
    int32_t n = p0->bone_count, op = rng_i(rng, 12), i = rng_i(rng, n);
    switch (op) {
    case 0: case 1: case 2: { /* a few bones' local values, sometimes written back unchanged */
        int32_t k = 1 + rng_i(rng, 3);
        for (int32_t j = 0; j < k; j++) {
            int32_t b = rng_i(rng, n), ch = rng_i(rng, 8);
            float v = rng_f(rng, -200, 200);
            if (rng_i(rng, 10) == 0) v = -0.0f;
            if (rng_i(rng, 20) == 0) v = 1e6f; /* past the vector trigonometry's range */
            for (int q = 0; q < np; q++) {
                mf_pose *p = ps[q];
                float *f[7] = {p->x, p->y, p->rot, p->sx, p->sy, p->shx, p->shy};
                if (ch < 7) f[ch][b] = (ch == 3 || ch == 4) ? v / 100.0f : v;
            }
        }
        break;
    }
    case 3: { /* an inherit mode, as an inherit timeline writes it */
        uint8_t m = (uint8_t)rng_i(rng, 5);
        for (int q = 0; q < np; q++) ps[q]->inherit[i] = m;
        break;
    }
    case 4:
        for (int q = 0; q < np; q++) mf_pose_reset(ps[q]);
        break;
    case 5: { /* an override, local or through the parent's current world */
        mf_bone_override ov = {MF_OVERRIDE_ALL, rng_i(rng, 2) == 1, rng_f(rng, 0, 1), rng_f(rng, -50, 50),
                               rng_f(rng, -50, 50), rng_f(rng, -180, 180), rng_f(rng, 0.5f, 2), rng_f(rng, 0.5f, 2),
                               rng_f(rng, -20, 20), rng_f(rng, -20, 20)};
        for (int q = 0; q < np; q++) mf_pose_override(ps[q], i, &ov);
        break;
    }
    case 6: { /* skins on or off */
        bool on = rng_i(rng, 2) == 1;
        for (int q = 0; q < np; q++) assert_int_equal(mf_pose_set_skins(ps[q], cache, &skin_s, on ? 1 : 0, NULL), MF_OK);
        break;
    }
    case 7: { /* a host moves one bone through the runtime after the update */
        float dr = rng_f(rng, -90, 90), dx = rng_f(rng, -9, 9);
        for (int q = 0; q < np; q++) {
            ps[q]->arot[i] += dr, ps[q]->ax[i] += dx;
            mf_pose_update_bone(ps[q], i);
        }
        break;
    }
    case 8:
        for (int q = 0; q < np; q++) mf_pose_update_applied(ps[q], i);
        break;
    case 9: { /* a host writes a world and says so */
        float dx = rng_f(rng, -9, 9);
        for (int q = 0; q < np; q++) {
            ps[q]->wx[i] += dx, ps[q]->a[i] *= 1.25f;
            mf_pose_world_changed(ps[q]);
        }
        break;
    }
    default:
        break; /* nothing: the next update keeps what it can */
    }
}

static void copy_inputs(mf_pose *dst, const mf_pose *src)
{
    size_t n = (size_t)src->bone_count * sizeof(float);
    memcpy(dst->x, src->x, n), memcpy(dst->y, src->y, n), memcpy(dst->rot, src->rot, n);
    memcpy(dst->sx, src->sx, n), memcpy(dst->sy, src->sy, n), memcpy(dst->shx, src->shx, n);
    memcpy(dst->shy, src->shy, n);
    memcpy(dst->inherit, src->inherit, (size_t)src->bone_count);
}

/* Against a pose created afresh for each frame (no dirty marks, empty trigonometry cache).
 * sse2: the pose marks with the SSE2 pass where the CPU would take the AVX2 one. */
static void random_against_fresh(const char *rig, uint32_t seed, bool sse2)
{
    test_rig r;
    test_rig_build(&r, rig, NULL, NULL, 0);
    mf_skin_cache *cache = NULL;
    assert_int_equal(mf_skin_cache_create(&r.data, NULL, &cache), MF_OK);
    int32_t S = mf_skel_data_find_skin(&r.data, "S");
    mf_pose *p = NULL;
    assert_int_equal(mf_pose_create(&r.data, NULL, &p, NULL), MF_OK);
    if (sse2) p->scratch->trig_avx2 = 0;
    int32_t refs = 0;
    for (int32_t u = 0; u < r.data.update_count; u++) refs += r.data.update[u].kind == MF_SD_REF_BONE;
    printf("bone updates in the order: %d of %d bones\n", (int)refs, (int)r.data.bone_count);
    uint32_t rng = seed;
    int32_t kept = 0;
    for (int step = 0; step < 3000; step++) {
        int ops = rng_i(&rng, 3);
        for (int k = 0; k < ops; k++) random_op(&p, 1, cache, S, &rng);
        mf_pose_update_world(p);
        kept += p->bones_kept;
        mf_pose *fresh = NULL;
        assert_int_equal(mf_pose_create(&r.data, NULL, &fresh, NULL), MF_OK);
        bool skin_on = p->active[mf_skel_data_find_bone(&r.data, "sk")];
        assert_int_equal(mf_pose_set_skins(fresh, cache, &S, skin_on ? 1 : 0, NULL), MF_OK);
        copy_inputs(fresh, p);
        mf_pose_update_world(fresh);
        world_bits_equal(p, fresh, step);
        mf_pose_destroy(fresh);
    }
    printf("fresh: %d kept bone updates over 3000 frames\n", (int)kept);
    assert_true(kept > 1000); /* the skip really ran */
    mf_pose_destroy(p);
    mf_skin_cache_destroy(cache);
    test_rig_free(&r);
}

/* With physics (state carried between frames): against a twin that drops every kept world
 * before each update. */
static void random_physics_against_full(const char *rig, uint32_t seed)
{
    test_rig r;
    test_rig_build(&r, rig, NULL, NULL, 0);
    mf_skin_cache *cache = NULL;
    assert_int_equal(mf_skin_cache_create(&r.data, NULL, &cache), MF_OK);
    int32_t S = mf_skel_data_find_skin(&r.data, "S");
    mf_pose *ps[2] = {NULL, NULL};
    for (int q = 0; q < 2; q++) assert_int_equal(mf_pose_create(&r.data, NULL, &ps[q], NULL), MF_OK);
    uint32_t rng = seed;
    int32_t kept = 0;
    for (int step = 0; step < 3000; step++) {
        int ops = rng_i(&rng, 3);
        for (int k = 0; k < ops; k++) random_op(ps, 2, cache, S, &rng);
        if (rng_i(&rng, 50) == 0)
            for (int q = 0; q < 2; q++) mf_pose_physics_reset(ps[q]);
        float mx = rng_i(&rng, 4) == 0 ? rng_f(&rng, -5, 5) : 0;
        for (int q = 0; q < 2; q++) {
            mf_pose_physics_step(ps[q], 1.0 / 60.0);
            mf_pose_physics_move(ps[q], mx, 0);
        }
        mf_pose_update_world(ps[0]);
        mf_pose_world_changed(ps[1]); /* nothing kept */
        mf_pose_update_world(ps[1]);
        assert_int_equal(ps[1]->bones_kept, 0);
        kept += ps[0]->bones_kept;
        world_bits_equal(ps[0], ps[1], step);
    }
    printf("physics: %d kept bone updates over 3000 frames\n", (int)kept);
    assert_true(kept > 1000);
    for (int q = 0; q < 2; q++) mf_pose_destroy(ps[q]);
    mf_skin_cache_destroy(cache);
    test_rig_free(&r);
}

static void test_random_against_fresh(void **state)
{
    (void)state;
    random_against_fresh(RIG_PLAIN, 12345u, false);
    random_against_fresh(RIG_TWICE, 999u, false);
    random_against_fresh(RIG_PLAIN, 2468u, true);
}

static void test_random_physics_against_full(void **state)
{
    (void)state;
    random_physics_against_full(RIG_PHYS, 777u);
    random_physics_against_full(RIG_PHYS_TWICE, 4242u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_fresh),
        cmocka_unit_test(test_random_physics_against_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
