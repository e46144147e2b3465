/* Physics parity with the Spine runtime: every anim-* scenario of the corpus rigs with physics
 * constraints (celestial-circus, sack, probe-physics) is imported and played with `mfe skel
 * simulate` (tracks, physics stepped by each frame's dt) and compared
 * with the reference dump within the README's loose tolerance: the same draw list, vertices
 * p99 <= 1 px and max <= 4 px. Prints the worst error per scenario.
 * KNOWN lists scenarios that do not match yet, with their measured error and why: the test
 * fails when one of them starts passing (so the list is kept honest) or when any other misses.
 * Skipped without ../shared. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parity.h"
#include "testutil.h"

static const char *const RIGS[] = {"celestial-circus", "sack", "probe-physics", NULL};

/* rig/scenario pairs known to miss, with the error measured when listed (p99 / max px) and the
 * reason. Translation (x, y) with inertia, strength, damping, mass, gravity, wind, the speed
 * limit, the fixed step and reset keys matches the reference to 0.01 px (probe-physics h-xy,
 * h-wind); the misses come from the rotation, scale and shear channels, whose response in the
 * Spine runtime is not the tip-spring model here:
 *   R1 a sudden large lag turns a bone less (40 px across a 50 px bone: 29° against our 38.7°;
 *      small lags agree), and with a translation channel or mass 2.5 the turn springs back
 *      slower than strength / mass predicts (fits k ≈ 10 instead of 40);
 *   R2 wind and gravity turn a bone about 4× less than a force on its tip (gusts: h-rot);
 *   R3 scaleX grows under wind across the bone, where the model only stretches along it;
 *   R4 chains of rotate constraints (sack: damping 0.15, fast falls past the speed limit;
 *      celestial-circus: swing, wings, hair) compound R1-R3 from link to link. */
static const tu_parity_known KNOWN[] = {
    {"celestial-circus", "anim-swing", "measured p99 / max 74.6 / 192.6 px; R1, R4: a 1040 px swing chain"},
    {"celestial-circus", "anim-wind-idle", "measured p99 / max 268.3 / 486.6 px; R2, R3: keyed wind on hair and wings"},
    {"celestial-circus", "anim-wing-flap", "measured p99 / max 2.3 / 17.3 px; R1, R4: wing rotate + shear chain"},
    {"celestial-circus", "anim-wings-and-feet", "measured p99 / max 4.7 / 17.3 px; R1, R4"},
    {"sack", "anim-cape-follow-example", "measured p99 / max 245.6 / 435.9 px; R4: cape and tail chains"},
    {"sack", "anim-fall-in", "measured p99 / max 277.8 / 543.6 px; R1, R4: a fall beyond the speed limit"},
    {"sack", "anim-hello", "measured p99 / max 741.0 / 988.4 px; R1, R4"},
    {"sack", "anim-walk", "measured p99 / max 26.4 / 45.5 px; R4"},
    {"probe-physics", "anim-gusts", "measured p99 / max 174.9 / 496.1 px; R2, R3"},
    {"probe-physics", "anim-reset", "measured p99 / max 75.4 / 183.3 px through the tracks (14.9 / 23.9 with a plain one-clip loop: the reset key is not seen through the tracks yet); R1 (heavy, scale-shear bones)"},
    {"probe-physics", "anim-step", "measured p99 / max 28.2 / 55.2 px; R1, R3"},
    {"probe-physics", "anim-sway", "measured p99 / max 23.6 / 36.3 px; R1, R3"},
    {"probe-physics", "anim-turn", "measured p99 / max 8.0 / 24.9 px; R1, R3"},
    {NULL, NULL, NULL},
};

static bool select_scenario(const char *rig, const char *name, double *p99, double *max)
{
    (void)rig;
    *p99 = 1.0;
    *max = 4.0;
    return strncmp(name, "anim-", 5) == 0;
}

static void test_physics_parity(void **state)
{
    (void)state;
    tu_parity_totals t;
    tu_parity_run(RIGS, NULL, select_scenario, KNOWN, &t);
    assert_true(t.total > 0 || getenv("MF_PARITY_RIGS"));
    assert_int_equal(t.missed, 0);
    assert_int_equal(t.fixed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_physics_parity)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
