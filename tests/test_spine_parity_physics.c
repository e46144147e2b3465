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
 * reason. None now: every probe-physics scenario (each setting, steps, sways, turns, gusts and
 * reset keys) and every celestial-circus scenario match the reference to 0.01 px; so do sack's
 * but cape-follow-example, whose bones drift up to 0.5 px after its fastest swing (0.83 px in
 * its vertices; its cape-back vertex has 11 influences, within MF_MAX_INFLUENCES). Sack's loop wrap (the root jumping ~2900 px) is not a teleport in the
 * reference: the bones lag by the capped amount, so the teleport reset is off by default. */
static const tu_parity_known KNOWN[] = {
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
