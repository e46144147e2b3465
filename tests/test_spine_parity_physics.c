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
 * reason. Every probe-physics setting (rotation, translation, stiff, heavy, wind and gravity,
 * scale and shear; steps, sways, turns, gusts) matches the reference to 0.01 px, as do the
 * celestial-circus wing, wind and blink scenarios and sack's walk. What is left:
 *   T1 reset keys fire one frame apart from the reference: its track time is a float sum of the
 *      frame times (0.6 s is reached on frame 36, 1.6 s only on frame 97), ours a double one
 *      (frame 37, then 96); the springs restart a frame apart;
 *   L1 the speed limit: bones moving faster than `limit` (celestial-circus skirt, limit 100;
 *      sack's fall) drift by about 1 px a frame from the reference, whose cap differs from the
 *      per-axis cap over the frame's time here, and chains of such bones compound it;
 *   S1 a rotate constraint on a skewed bone (sack cape-front4 under a non-uniformly scaled
 *      parent): its x axis matches, its y axis turns differently (b, d off by ~0.01), and the
 *      cape chain below compounds it. */
static const tu_parity_known KNOWN[] = {
    {"celestial-circus", "anim-swing", "measured p99 / max 23.4 / 39.1 px; L1: skirt bones past limit 100"},
    {"probe-physics", "anim-reset", "measured p99 / max 11.1 / 15.1 px; T1"},
    {"sack", "anim-cape-follow-example", "measured p99 / max 19.2 / 64.6 px; L1: cape and tail chains"},
    {"sack", "anim-fall-in", "measured p99 / max 186.0 / 705.4 px; L1: a fall far beyond the speed limit"},
    {"sack", "anim-hello", "measured p99 / max 529.1 / 988.4 px; S1 from 1.5 s, then L1"},
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
