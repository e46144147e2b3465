/* Which influence counts the skinning streams pad to which (geom_skin_build.c): for random
 * weighted meshes, the levels of the stored groups are the ones that trying every set of
 * levels in ascending mask order keeps (the first of the lowest cost), the choice every build
 * has made, so streams stay as they were. The cost model is restated here on purpose: a
 * change to it changes every build's streams and should fail here first. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "pose_rig.h"

enum { COST_GROUP = 30, COST_VERTEX = 3, COST_SCATTERED = 2, COST_INFLUENCE = 4, MAXV = 48, MAXC = 16 }; /* 30: format 6 */

/* One bone chain; slot s0 a weighted mesh whose vertex i has counts[i] influences. */
static char *rig_text(const int *counts, int nv)
{
    size_t len = 0, cap = 1 << 14;
    char *b = malloc(cap);
    assert_non_null(b);
    tu_cat(&b, &len, &cap,
           "%s\"bones\":[{\"name\":\"b0\"},{\"name\":\"b1\",\"parent\":\"b0\",\"x\":20},{\"name\":\"b2\",\"parent\":"
           "\"b1\",\"x\":15}],\"slots\":[{\"name\":\"s0\",\"bone\":\"b0\",\"attachment\":\"m\"}],\"skins\":[{\"name\":"
           "\"default\",\"attachments\":[{\"slot\":\"s0\",\"name\":\"m\",\"type\":\"Mesh\",\"hull\":3,\"uvs\":[",
           RIG_HEAD);
    for (int i = 0; i < nv; i++) tu_cat(&b, &len, &cap, "%s%.3f,%.3f", i ? "," : "", i / (double)nv, (i % 3) / 3.0);
    tu_cat(&b, &len, &cap, "],\"triangles\":[");
    for (int i = 1; i + 1 < nv; i++) tu_cat(&b, &len, &cap, "%s0,%d,%d", i > 1 ? "," : "", i, i + 1);
    tu_cat(&b, &len, &cap, "],\"weights\":{\"bones\":[\"b0\",\"b1\",\"b2\"],\"v\":[");
    for (int i = 0; i < nv; i++) {
        tu_cat(&b, &len, &cap, "%s[", i ? "," : "");
        for (int j = 0; j < counts[i]; j++)
            tu_cat(&b, &len, &cap, "%s%d,%.4f,%.1f,%.1f", j ? "," : "", (i + j) % 3, 1.0 / counts[i], 1.0 * i, 1.0 * j);
        tu_cat(&b, &len, &cap, "]");
    }
    tu_cat(&b, &len, &cap, "]}}]}]}");
    return b;
}

/* The cost of padding the present counts p[j..k] to p[k]. */
static long long group_cost(const int *counts, int nv, const int *p, int j, int k)
{
    int n = 0, first = -1, last = -1;
    for (int i = 0; i < nv; i++)
        for (int q = j; q <= k; q++)
            if (counts[i] == p[q]) {
                if (first < 0) first = i;
                last = i, n++;
            }
    bool contig = last - first + 1 == n;
    return COST_GROUP + (long long)n * (COST_VERTEX + COST_INFLUENCE * p[k] + (contig ? 0 : COST_SCATTERED));
}

/* Every mask with the last present count set, ascending; the first of the lowest cost. *ties:
 * whether another mask costs as little. */
static int reference_mask(const int *counts, int nv, const int *p, int np, bool *ties)
{
    long long best = -1;
    int best_mask = 0;
    *ties = false;
    for (int mask = 1 << (np - 1); mask < 1 << np; mask++) {
        long long cost = 0;
        for (int k = 0, j = 0; k < np; k++)
            if (mask & (1 << k)) cost += group_cost(counts, nv, p, j, k), j = k + 1;
        if (best < 0 || cost < best) best = cost, best_mask = mask, *ties = false;
        else if (cost == best) *ties = true;
    }
    return best_mask;
}

static uint32_t rng = 12345u;
static int rnd(int n)
{
    rng = rng * 1664525u + 1013904223u;
    return (int)((rng >> 8) % (uint32_t)n);
}

static void test_levels_match_every_set(void **state)
{
    (void)state;
    int tied = 0, wide = 0;
    for (int round = 0; round < 400; round++) {
        int nv = 3 + rnd(MAXV - 3), spread = 1 + rnd(round % 2 ? 8 : MAXC), counts[MAXV];
        int base = 1 + rnd(MAXC - spread + 1);
        for (int i = 0; i < nv; i++)
            counts[i] = base + (round % 3 == 0 ? rnd(spread) : round % 3 == 1 ? i * spread / nv : (i / 2) % spread);
        int p[MAXC], np = 0;
        for (int c = 1; c <= MAXC; c++)
            for (int i = 0; i < nv; i++)
                if (counts[i] == c) {
                    p[np++] = c;
                    break;
                }
        if (np > 12) continue; /* the reference tries 2^(np - 1) sets */
        bool ties;
        int want = reference_mask(counts, nv, p, np, &ties);
        tied += ties, wide += np > 8;

        char *text = rig_text(counts, nv);
        test_rig r;
        test_rig_build(&r, text, NULL, NULL, 0);
        free(text);
        const mf_skel_data *d = &r.data;
        int32_t a = 0;
        while (!(d->attachments[a].flags & MF_SD_ATT_WEIGHTED)) a++;
        int got = 0, k = 0;
        int32_t g0 = d->skin_group_first[a], g1 = d->skin_group_first[a + 1];
        g0 += d->skin_groups[g0].runs;
        for (int32_t g = g0; g < g1; g++) { /* the chain of every vertex (after any run chain) */
            const mf_sd_skin_group *grp = &d->skin_groups[g];
            while (k < np && p[k] != grp->count) k++;
            assert_true(k < np); /* a group's count is a present count, ascending */
            got |= 1 << k;
        }
        if (got != want) fail_msg("round %d: %d vertices, %d counts from %d: levels %#x, expected %#x", round, nv, np,
                                  p[0], got, want);
        test_rig_free(&r);
    }
    /* the rounds reach tied costs and more than 8 counts */
    assert_true(tied > 0);
    assert_true(wide > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_match_every_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
