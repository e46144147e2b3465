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
 * whole attachment then stores in order; a cost model in instructions picks the counts. */
#include "../skin_streams.h"

#define MAXC MF_SD_MAX_INFLUENCES

/* Estimated instructions (AVX kernels): a group's call and setup, a vertex's reduction and
 * loop share, an out-of-order store's extra, an influence's load, multiply and add. */
enum { COST_GROUP = 45, COST_VERTEX = 3, COST_SCATTERED = 2, COST_INFLUENCE = 4 };

static bool weighted(const mf_sd_attachment *at)
{
    return (at->flags & MF_SD_ATT_WEIGHTED) && at->type != MF_SD_ATT_POINT && at->vertex_count > 0;
}

/* The vertices of an attachment (spans, count of them) that level lv sends to level L: how many,
 * and whether they follow each other. */
static int32_t level_vertices(const mf_sd_span *sp, int32_t count, const int32_t lv[MAXC + 1], int32_t L,
                              bool *contig)
{
    int32_t n = 0, first = -1, last = -1;
    for (int32_t i = 0; i < count; i++)
        if (lv[sp[i].count] == L) {
            if (first < 0) first = i;
            last = i, n++;
        }
    *contig = last - first + 1 == n;
    return n;
}

/* lv of the levels in mask (bit k: present[k] is a level): each present count goes to the
 * smallest level >= it. */
static void levels_of(int32_t mask, const int32_t *present, int32_t np, int32_t lv[MAXC + 1])
{
    for (int32_t c = 0; c <= MAXC; c++) lv[c] = 0;
    for (int32_t k = np - 1, cur = 0; k >= 0; k--) {
        if (mask & (1 << k)) cur = present[k];
        lv[present[k]] = cur;
    }
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
        int32_t lv[MAXC + 1];
        levels_of(mask, present, np, lv);
        int64_t cost = 0;
        for (int32_t k = 0; k < np; k++) {
            if (!(mask & (1 << k))) continue;
            bool contig;
            int32_t L = present[k], n = level_vertices(sp, at->vertex_count, lv, L, &contig);
            cost += COST_GROUP + (int64_t)n * (COST_VERTEX + COST_INFLUENCE * L + (contig ? 0 : COST_SCATTERED));
        }
        if (cost < best) best = cost, best_mask = mask;
    }
    levels_of(best_mask, present, np, level);
}

bool mf_skin_streams_emit(const mf_skel_data *d, mf_skin_emit *e)
{
    const float zero_bone = (float)(8 * (int64_t)d->bone_count); /* exact: bones <= 2^21 (mf_pose_create) */
    for (int32_t a = 0; a < d->attachment_count; a++) {
        const mf_sd_attachment *at = &d->attachments[a];
        if (!mf_skin_emit_first(e, (int32_t)e->ng)) return false;
        if (!weighted(at)) continue;
        int32_t level[MAXC + 1];
        choose_levels(d, at, level);
        const mf_sd_span *spans = d->spans + at->vertex_first;
        for (int32_t L = 1; L <= MAXC; L++) {
            /* the level's vertices, stored in order when they follow each other */
            bool contig;
            int32_t n = level_vertices(spans, at->vertex_count, level, L, &contig);
            if (n == 0) continue;
            int32_t k = L < 5 ? L - 1 : 4;
            const mf_sd_skin_group g = {(int32_t)e->nr, (int32_t)e->nv, L, n, (contig ? 5 : 0) + k, 10 + k};
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
