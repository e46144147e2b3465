/* The weighted skinning streams (mf_sd_skin_group), generated from the immutable data by the
 * build, which writes them into the blob that every instance shares, and by the loader, which
 * checks the blob's against them: per attachment its vertices grouped by influence count
 * (kernels without per-vertex branches), per influence a record {w·x, w·y, w, 8·bone} that
 * one broadcast and one multiply by the bone's packed matrix turn into the influence's share
 * (geom_skin.h).
 *
 * A group may pad its vertices to a higher count with records {0, 0, 0, 8·bone_count} (the
 * all-zero matrix after the bones): they add +0, which leaves every result's bits as they
 * were (geom_skin.h). Fewer groups cost less than the padding where groups are small or a
 * whole attachment then stores in order; a cost model in instructions picks the counts. An
 * attachment's groups follow each other in the streams, so that each group's kernel hands
 * over to the next one's where its own records and vertices end (no loop over the groups). */
#include "../skin_streams.h"

#define MAXC MF_SD_MAX_INFLUENCES
#define CHAINED 15 /* the kernels of a group with another after it (mf_sd_skin_group) */

/* Estimated instructions (AVX kernels): a group's hand-over and setup (30: measured best on
 * the bench rigs once groups were chained; 20 and 45 cost more), a vertex's reduction and
 * loop share, an out-of-order store's extra, an influence's load, multiply and add. */
enum { COST_GROUP = 30, COST_VERTEX = 3, COST_SCATTERED = 2, COST_INFLUENCE = 4 };

static bool weighted(const mf_sd_attachment *at)
{
    return (at->flags & MF_SD_ATT_WEIGHTED) && at->type != MF_SD_ATT_POINT && at->vertex_count > 0;
}

/* An attachment's vertices by influence count: how many have each count, the first and last
 * of them, and the counts present, ascending. */
typedef struct count_stats {
    int32_t hist[MAXC + 1], first[MAXC + 1], last[MAXC + 1];
    int32_t present[MAXC], np;
} count_stats;

/* The levels: per count 1..MAXC its padded count (level), and per level its vertices and
 * whether they follow each other (stored in order). */
typedef struct level_plan {
    int32_t level[MAXC + 1], vertices[MAXC + 1];
    bool contig[MAXC + 1];
} level_plan;

static void count_stats_of(const mf_sd_span *sp, int32_t count, count_stats *st)
{
    for (int32_t c = 0; c <= MAXC; c++) st->hist[c] = 0;
    for (int32_t i = 0; i < count; i++) {
        int32_t c = sp[i].count; /* 1..MAXC, checked */
        if (st->hist[c]++ == 0) st->first[c] = i;
        st->last[c] = i;
    }
    st->np = 0;
    for (int32_t c = 1; c <= MAXC; c++)
        if (st->hist[c]) st->present[st->np++] = c;
}

/* The level present[k] takes the present counts present[j..k]: its vertices and whether they
 * follow each other (the first of them to the last is exactly them). */
static int32_t group_vertices(const count_stats *st, int32_t j, int32_t k, bool *contig)
{
    int32_t n = 0, first = INT32_MAX, last = -1;
    for (int32_t q = j; q <= k; q++) {
        int32_t c = st->present[q];
        n += st->hist[c];
        if (st->first[c] < first) first = st->first[c];
        if (st->last[c] > last) last = st->last[c];
    }
    *contig = last - first + 1 == n;
    return n;
}

/* A group of the present counts j..k at level present[k]: its cost. */
static int64_t group_cost(const count_stats *st, int32_t j, int32_t k)
{
    bool contig;
    int32_t L = st->present[k], n = group_vertices(st, j, k, &contig);
    return COST_GROUP + (int64_t)n * (COST_VERTEX + COST_INFLUENCE * L + (contig ? 0 : COST_SCATTERED));
}

/* Bit k of the result: present[k] is a level (the last always is). A cheapest set from the
 * best cost of each prefix, quadratic in the counts. On a tie a group starts at its smallest
 * count, which puts the level below it as low as it goes: the smallest mask of the lowest
 * cost, the one that trying every mask in ascending order kept (the streams of every build
 * made while 8 was the most influences a vertex stay as they were). */
static int32_t cheapest_levels(const count_stats *st)
{
    /* best[k]: the cheapest cover of present[0..k] with a level at k; from[k]: its group's first */
    int32_t np = st->np;
    int64_t best[MAXC];
    int32_t from[MAXC];
    for (int32_t k = 0; k < np; k++) {
        best[k] = INT64_MAX;
        for (int32_t j = 0; j <= k; j++) {
            int64_t c = (j > 0 ? best[j - 1] : 0) + group_cost(st, j, k);
            if (c < best[k]) best[k] = c, from[k] = j;
        }
    }
    int32_t mask = 0;
    for (int32_t k = np - 1; k >= 0; k = from[k] - 1) mask |= 1 << k;
    return mask;
}

/* The cheapest set of levels, each count going to the smallest level >= it (the largest count
 * is a level). */
static void choose_levels(const mf_skel_data *d, const mf_sd_attachment *at, level_plan *plan)
{
    count_stats st;
    count_stats_of(d->spans + at->vertex_first, at->vertex_count, &st);
    int32_t np = st.np;
    int32_t best_mask = cheapest_levels(&st);
    for (int32_t c = 0; c <= MAXC; c++) plan->level[c] = 0, plan->vertices[c] = 0, plan->contig[c] = false;
    for (int32_t k = 0, j = 0; k < np; k++) {
        if (!(best_mask & (1 << k))) continue;
        int32_t L = st.present[k];
        plan->vertices[L] = group_vertices(&st, j, k, &plan->contig[L]);
        for (int32_t q = j; q <= k; q++) plan->level[st.present[q]] = L;
        j = k + 1;
    }
}

bool mf_skin_streams_emit(const mf_skel_data *d, mf_skin_emit *e)
{
    const float zero_bone = (float)(8 * (int64_t)d->bone_count); /* exact: bones <= 2^21 (mf_pose_create) */
    for (int32_t a = 0; a < d->attachment_count; a++) {
        const mf_sd_attachment *at = &d->attachments[a];
        if (!mf_skin_emit_first(e, (int32_t)e->ng)) return false;
        if (!weighted(at)) continue;
        level_plan plan;
        choose_levels(d, at, &plan);
        const int32_t *level = plan.level;
        const mf_sd_span *spans = d->spans + at->vertex_first;
        int32_t top = 0; /* the last group's level */
        for (int32_t L = 1; L <= MAXC; L++)
            if (plan.vertices[L]) top = L;
        for (int32_t L = 1; L <= MAXC; L++) {
            /* the level's vertices, stored in order when they follow each other */
            int32_t n = plan.vertices[L];
            bool contig = plan.contig[L];
            if (n == 0) continue;
            /* the kernel by count, +15 (CHAINED) where a group follows: it hands over to it */
            int32_t k = (L < 5 ? L - 1 : 4) + (L < top ? CHAINED : 0);
            const mf_sd_skin_group g = {(int32_t)e->nr, (int32_t)e->nv, L, n, (contig ? 5 : 0) + k, 10 + k,
                                        at->vertex_count, 0};
            if (!mf_skin_emit_group(e, &g)) return false;
            for (int32_t i = 0; i < at->vertex_count; i++) {
                int32_t c = spans[i].count;
                if (level[c] != L) continue;
                /* output floats, deform floats, records with a deform */
                const mf_sd_skin_vertex v = {2 * i, 2 * (spans[i].first - at->infl_first), c, 0};
                if (!mf_skin_emit_vertex(e, &v)) return false;
                for (int32_t j = 0; j < L; j++) {
                    mf_sd_skin_record r = {0, 0, 0, zero_bone};
                    if (j < c) {
                        const mf_sd_influence *in = &d->influences[spans[i].first + j];
                        r = (mf_sd_skin_record){in->weight * in->x, in->weight * in->y, in->weight,
                                                (float)(8 * (int64_t)in->bone)}; /* exact: bones <= 2^21 */
                    }
                    if (!mf_skin_emit_record(e, &r)) return false;
                }
            }
        }
    }
    return mf_skin_emit_first(e, (int32_t)e->ng);
}
