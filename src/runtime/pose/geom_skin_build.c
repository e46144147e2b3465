/* The weighted skinning streams, built once at pose create from the immutable data: per
 * attachment its vertices grouped by influence count (kernels without per-vertex branches),
 * per influence a record {w·x, w·y, w, 8·bone} that one broadcast and one multiply by the
 * bone's packed matrix turn into the influence's share (geom_skin.h).
 *
 * A group may pad its vertices to a higher count with records {0, 0, 0, 8·bone_count} (the
 * all-zero matrix after the bones): they add +0, which leaves every result's bits as they
 * were (geom_skin.h). Fewer groups cost less than the padding where groups are small or a
 * whole attachment then stores in order; a cost model in instructions picks the counts. */
#include "geom_skin.h"

#define MAXC MF_SD_MAX_INFLUENCES

/* Estimated instructions (AVX kernels): a group's call and setup, a vertex's reduction and
 * loop share, an out-of-order store's extra, an influence's load, multiply and add. */
enum { COST_GROUP = 45, COST_VERTEX = 3, COST_SCATTERED = 2, COST_INFLUENCE = 4 };

static bool weighted(const mf_sd_attachment *at)
{
    return (at->flags & MF_SD_ATT_WEIGHTED) && at->type != MF_SD_ATT_POINT && at->vertex_count > 0;
}

/* The padded count (level) of each influence count 1..MAXC of an attachment: the cheapest set
 * of levels, each count going to the smallest level >= it (the largest count is a level). */
static void choose_levels(const mf_skel_data *d, const mf_sd_attachment *at, int32_t level[MAXC + 1])
{
    const mf_sd_span *sp = d->spans + at->vertex_first;
    int32_t hist[MAXC + 1] = {0}, present[MAXC], np = 0;
    for (int32_t i = 0; i < at->vertex_count; i++) hist[sp[i].count]++; /* 1..MAXC, checked */
    for (int32_t c = 1; c <= MAXC; c++)
        if (hist[c]) present[np++] = c;
    int64_t best = INT64_MAX;
    int32_t best_mask = 0;
    /* bit k of mask: present[k] is a level (the last always is) */
    for (int32_t mask = 1 << (np - 1); mask < 1 << np; mask++) {
        int32_t lv[MAXC + 1] = {0};
        for (int32_t k = np - 1, cur = 0; k >= 0; k--) {
            if (mask & (1 << k)) cur = present[k];
            lv[present[k]] = cur;
        }
        int64_t cost = 0;
        for (int32_t k = 0; k < np; k++) {
            int32_t L = present[k];
            if (!(mask & (1 << k))) continue;
            /* the level's vertices, and whether they follow each other */
            int32_t n = 0, first = -1, last = -1;
            for (int32_t i = 0; i < at->vertex_count; i++)
                if (lv[sp[i].count] == L) {
                    if (first < 0) first = i;
                    last = i, n++;
                }
            bool contig = last - first + 1 == n;
            cost += COST_GROUP + (int64_t)n * (COST_VERTEX + COST_INFLUENCE * L + (contig ? 0 : COST_SCATTERED));
        }
        if (cost < best) best = cost, best_mask = mask;
    }
    for (int32_t c = 0; c <= MAXC; c++) level[c] = 0;
    for (int32_t k = np - 1, cur = 0; k >= 0; k--) {
        if (best_mask & (1 << k)) cur = present[k];
        level[present[k]] = cur;
    }
}

void mf_skin_streams_size(const mf_skel_data *d, int32_t *recs, int32_t *verts, int32_t *groups)
{
    int64_t r = 0, v = 0, g = 0;
    for (int32_t a = 0; a < d->attachment_count; a++) {
        const mf_sd_attachment *at = &d->attachments[a];
        if (!weighted(at)) continue;
        int32_t level[MAXC + 1];
        choose_levels(d, at, level);
        bool seen[MAXC + 1] = {false};
        for (int32_t i = 0; i < at->vertex_count; i++) {
            int32_t L = level[d->spans[at->vertex_first + i].count];
            if (!seen[L]) seen[L] = true, g++;
            r += L;
        }
        v += at->vertex_count;
    }
    /* at most MAXC records a vertex: the sums stay far below what a build can hold */
    *recs = (int32_t)r, *verts = (int32_t)v, *groups = (int32_t)g;
}

void mf_skin_streams_fill(const mf_skel_data *d, int32_t *group_first, mf_skin_group *groups, float *rec,
                          int32_t *vo)
{
    size_t ng = 0, nr = 0, nv = 0;
    const float zero_bone = (float)(8 * d->bone_count); /* exact: bones <= 2^21 (mf_pose_create) */
    for (int32_t a = 0; a < d->attachment_count; a++) {
        const mf_sd_attachment *at = &d->attachments[a];
        group_first[a] = (int32_t)ng;
        if (!weighted(at)) continue;
        int32_t level[MAXC + 1];
        choose_levels(d, at, level);
        const mf_sd_span *spans = d->spans + at->vertex_first;
        for (int32_t L = 1; L <= MAXC; L++) {
            mf_skin_group *g = NULL;
            for (int32_t i = 0; i < at->vertex_count; i++) {
                int32_t c = spans[i].count;
                if (level[c] != L) continue;
                if (!g) {
                    g = &groups[ng++];
                    int32_t k = L < 5 ? L - 1 : 4;
                    *g = (mf_skin_group){rec + 4 * nr, vo + 4 * nv, L, 0, 5 + k, 10 + k};
                }
                if (g->vertices > 0 && vo[4 * nv - 4] != 2 * i - 2) g->plain = g->deformed - 10; /* scattered */
                g->vertices++;
                vo[4 * nv] = 2 * i;                                    /* output floats */
                vo[4 * nv + 1] = 2 * (spans[i].first - at->infl_first); /* deform floats */
                vo[4 * nv + 2] = c;                                    /* records with a deform */
                vo[4 * nv + 3] = 0;
                nv++;
                for (int32_t j = 0; j < L; j++, nr++) {
                    float *o = rec + 4 * nr;
                    if (j >= c) {
                        o[0] = o[1] = o[2] = 0, o[3] = zero_bone;
                        continue;
                    }
                    const mf_sd_influence *in = &d->influences[spans[i].first + j];
                    o[0] = in->weight * in->x, o[1] = in->weight * in->y, o[2] = in->weight;
                    o[3] = (float)(8 * in->bone); /* exact: bones <= 2^21 */
                }
            }
        }
    }
    group_first[d->attachment_count] = (int32_t)ng;
}
