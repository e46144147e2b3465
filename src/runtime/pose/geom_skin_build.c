/* The weighted skinning streams, built once at pose create from the immutable data: per
 * attachment its vertices grouped by influence count (kernels without per-vertex branches),
 * per influence a record {w·x, w·y, w, 8·bone} that one broadcast and one multiply by the
 * bone's packed matrix turn into the influence's share (geom_skin.h). */
#include "geom_skin.h"

static bool weighted(const mf_sd_attachment *at)
{
    return (at->flags & MF_SD_ATT_WEIGHTED) && at->type != MF_SD_ATT_POINT && at->vertex_count > 0;
}

void mf_skin_streams_size(const mf_skel_data *d, int32_t *recs, int32_t *verts, int32_t *groups)
{
    int64_t r = 0, v = 0, g = 0;
    for (int32_t a = 0; a < d->attachment_count; a++) {
        const mf_sd_attachment *at = &d->attachments[a];
        if (!weighted(at)) continue;
        bool seen[MF_SD_MAX_INFLUENCES + 1] = {false};
        for (int32_t i = 0; i < at->vertex_count; i++) {
            int32_t c = d->spans[at->vertex_first + i].count; /* 1..MF_SD_MAX_INFLUENCES, checked */
            if (!seen[c]) seen[c] = true, g++;
        }
        r += at->infl_count, v += at->vertex_count;
    }
    /* the data's own counts are int32: these sums never exceed them */
    *recs = (int32_t)r, *verts = (int32_t)v, *groups = (int32_t)g;
}

void mf_skin_streams_fill(const mf_skel_data *d, int32_t *group_first, mf_skin_group *groups, float *rec,
                          int32_t *vo)
{
    int32_t ng = 0, nr = 0, nv = 0;
    for (int32_t a = 0; a < d->attachment_count; a++) {
        const mf_sd_attachment *at = &d->attachments[a];
        group_first[a] = ng;
        if (!weighted(at)) continue;
        const mf_sd_span *spans = d->spans + at->vertex_first;
        for (int32_t c = 1; c <= MF_SD_MAX_INFLUENCES; c++) {
            mf_skin_group *g = NULL;
            for (int32_t i = 0; i < at->vertex_count; i++) {
                if (spans[i].count != c) continue;
                if (!g) {
                    g = &groups[ng++];
                    int32_t k = c < 5 ? c - 1 : 4;
                    *g = (mf_skin_group){rec + 4 * (size_t)nr, vo + 2 * (size_t)nv, c, 0, 5 + k, 10 + k};
                }
                if (g->vertices > 0 && vo[2 * (size_t)nv - 2] != 2 * i - 2) g->plain = g->deformed - 10; /* scattered */
                g->vertices++;
                vo[2 * (size_t)nv] = 2 * i;                                    /* output floats */
                vo[2 * (size_t)nv + 1] = 2 * (spans[i].first - at->infl_first); /* deform floats */
                nv++;
                for (int32_t j = 0; j < c; j++, nr++) {
                    const mf_sd_influence *in = &d->influences[spans[i].first + j];
                    rec[4 * (size_t)nr] = in->weight * in->x;
                    rec[4 * (size_t)nr + 1] = in->weight * in->y;
                    rec[4 * (size_t)nr + 2] = in->weight;
                    rec[4 * (size_t)nr + 3] = (float)(8 * in->bone); /* exact: bones < 2^21 */
                }
            }
        }
    }
    group_first[d->attachment_count] = ng;
}
