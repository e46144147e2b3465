/* The weighted skinning streams of a build: the emitter that counts, writes or compares them
 * (skin_streams.h), the build's entry points and the loader's check. */
#include <stdio.h>
#include <string.h>

#include "skel_data_internal.h"
#include "skin_streams.h"

/* COMPARE: element i of a section of n, or the located error ("skinRecords[12]: word 3 …"). */
static bool compare(mf_skin_emit *e, const char *sec, int64_t i, int32_t n, const void *have, const void *want,
                    size_t size)
{
    if (i >= n) {
        char where[64];
        snprintf(where, sizeof where, "section %s", sec);
        mf_sd_bad(e->diag, where, -1, NULL, "%d records, but the attachments' weighted vertices give more", n);
        return false;
    }
    const unsigned char *h = (const unsigned char *)have + (size_t)i * size;
    if (memcmp(h, want, size) == 0) return true;
    size_t k = 0;
    while (memcmp(h + 4 * k, (const unsigned char *)want + 4 * k, 4) == 0) k++; /* every record is 4-byte words */
    uint32_t hw, ww;
    memcpy(&hw, h + 4 * k, 4), memcpy(&ww, (const unsigned char *)want + 4 * k, 4);
    mf_sd_bad(e->diag, sec, i, NULL,
              "word %zu is 0x%08x, the attachments' weighted vertices give 0x%08x (streams are not the build's)", k, hw,
              ww);
    return false;
}

bool mf_skin_emit_first(mf_skin_emit *e, int32_t group)
{
    int64_t i = e->nf++;
    if (e->mode == MF_SKIN_EMIT_WRITE) e->first[i] = group;
    if (e->mode != MF_SKIN_EMIT_COMPARE) return true;
    return compare(e, "skinGroupFirst", i, e->d->skin_group_first_count, e->d->skin_group_first, &group, sizeof group);
}

bool mf_skin_emit_group(mf_skin_emit *e, const mf_sd_skin_group *g)
{
    int64_t i = e->ng++;
    if (e->mode == MF_SKIN_EMIT_WRITE) e->groups[i] = *g;
    if (e->mode != MF_SKIN_EMIT_COMPARE) return true;
    return compare(e, "skinGroups", i, e->d->skin_group_count, e->d->skin_groups, g, sizeof *g);
}

bool mf_skin_emit_record(mf_skin_emit *e, const mf_sd_skin_record *r)
{
    int64_t i = e->nr++;
    if (e->mode == MF_SKIN_EMIT_WRITE) e->records[i] = *r;
    if (e->mode != MF_SKIN_EMIT_COMPARE) return true;
    /* bits, not values: the runtime reads these exact floats */
    return compare(e, "skinRecords", i, e->d->skin_record_count, e->d->skin_records, r, sizeof *r);
}

bool mf_skin_emit_vertex(mf_skin_emit *e, const mf_sd_skin_vertex *v)
{
    int64_t i = e->nv++;
    if (e->mode == MF_SKIN_EMIT_WRITE) e->vertices[i] = *v;
    if (e->mode != MF_SKIN_EMIT_COMPARE) return true;
    return compare(e, "skinVertices", i, e->d->skin_vertex_count, e->d->skin_vertices, v, sizeof *v);
}

void mf_skel_data_skin_streams_size(const mf_skel_data *d, int64_t *groups, int64_t *records, int64_t *vertices)
{
    mf_skin_emit e = {.mode = MF_SKIN_EMIT_COUNT};
    mf_skin_streams_emit(d, &e);
    *groups = e.ng, *records = e.nr, *vertices = e.nv;
}

void mf_skel_data_skin_streams_fill(const mf_skel_data *d, int32_t *group_first, mf_sd_skin_group *groups,
                                    mf_sd_skin_record *records, mf_sd_skin_vertex *vertices)
{
    mf_skin_emit e = {.mode = MF_SKIN_EMIT_WRITE, .first = group_first, .groups = groups, .records = records,
                      .vertices = vertices};
    mf_skin_streams_emit(d, &e);
}

mf_result mf_sd_check_skin_streams(const mf_skel_data *d, mf_diag *diag)
{
    mf_skin_emit e = {.mode = MF_SKIN_EMIT_COMPARE, .d = d, .diag = diag};
    if (!mf_skin_streams_emit(d, &e)) return MF_ERR_CORRUPT;
    /* every element matched; none may be left over */
    const struct {
        const char *sec;
        int64_t want;
        int32_t have;
    } n[4] = {{"section skinGroupFirst", e.nf, d->skin_group_first_count},
              {"section skinGroups", e.ng, d->skin_group_count},
              {"section skinRecords", e.nr, d->skin_record_count},
              {"section skinVertices", e.nv, d->skin_vertex_count}};
    for (int k = 0; k < 4; k++)
        if (n[k].have != n[k].want)
            return mf_sd_bad(diag, n[k].sec, -1, NULL, "%d records, expected %lld (from the attachments' weighted vertices)",
                             n[k].have, (long long)n[k].want);
    return MF_OK;
}
