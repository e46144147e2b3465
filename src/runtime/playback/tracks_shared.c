/* The clip tables of the tracks (tracks_internal.h): built into each tracks' block, or once per
 * data into an mf_tracks_shared that many tracks point at. */
#include <stdlib.h>

#include "../alloc_lines.h"
#include "../curve_eval.h"
#include "tracks_internal.h"

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

void mf_clip_tables_fill(const mf_skel_data *d, const mf_clip_tables *tb)
{
    int32_t nc = d->clip_count, n = 0, na = 0, ne = 0;
    for (int32_t c = 0; c < nc; c++) {
        const mf_sd_clip *cl = &d->clips[c];
        tb->prop_first[c] = n, tb->attach_first[c] = na, tb->event_first[c] = ne;
        for (int32_t j = 0; j < cl->timeline_count; j++) {
            int32_t ti = cl->timeline_first + j;
            n += mf_tracks_props(d, &d->timelines[ti], tb->props + n);
            if (d->timelines[ti].kind == MF_SD_TL_ATTACHMENT) tb->attach[na++] = ti;
            else if (d->timelines[ti].kind == MF_SD_TL_EVENT) tb->events[ne++] = ti;
        }
        /* sorted, for "does that clip key this" */
        qsort(tb->props + tb->prop_first[c], (size_t)(n - tb->prop_first[c]), sizeof(int32_t), cmp_i32);
    }
    tb->prop_first[nc] = n, tb->attach_first[nc] = na, tb->event_first[nc] = ne;
}

void mf_clip_tables_carve(mf_lines_layout *l, const mf_skel_data *d, mf_clip_tables *tb)
{
    size_t nc = (size_t)d->clip_count, tl = 0;
    for (int32_t c = 0; c < d->clip_count; c++) tl += (size_t)d->clips[c].timeline_count;
    tb->prop_first = mf_lines_carve(l, nc + 1, sizeof(int32_t));
    tb->attach_first = mf_lines_carve(l, nc + 1, sizeof(int32_t));
    tb->event_first = mf_lines_carve(l, nc + 1, sizeof(int32_t));
    tb->attach = mf_lines_carve(l, tl + 1, sizeof(int32_t));
    tb->events = mf_lines_carve(l, tl + 1, sizeof(int32_t));
    tb->props = mf_lines_carve(l, tl * PROP_MAX + 1, sizeof(int32_t));
}

/* The segment table's arrays (a first pass with base NULL sizes them): the entries a line each
 * (a sample reads one a timeline). */
static void segs_carve(mf_lines_layout *l, const mf_skel_data *d, size_t entries, mf_seg_span **span,
                       mf_pose_seg **seg, mf_bz_prep **prep)
{
    *span = mf_lines_carve(l, (size_t)d->timeline_count, sizeof(mf_seg_span));
    *seg = mf_lines_carve_line(l, entries, sizeof(mf_pose_seg));
    *prep = mf_lines_carve_line(l, (size_t)d->bezier_count, sizeof(mf_bz_prep));
}

mf_result mf_tracks_shared_create(const mf_skel_data *d, const mf_allocator *alloc, mf_tracks_shared **out)
{
    if (out) *out = NULL;
    if (!d || !out) return MF_ERR_ARGUMENT;
    mf_allocator al = alloc ? *alloc : (mf_allocator){0};
    mf_lines_layout l = {NULL, sizeof(mf_tracks_shared)};
    mf_clip_tables sized;
    mf_clip_tables_carve(&l, d, &sized);
    size_t entries = mf_seg_table_entries(d);
    mf_seg_span *span;
    mf_pose_seg *seg;
    mf_bz_prep *prep;
    segs_carve(&l, d, entries, &span, &seg, &prep);
    mf_tracks_shared *s = mf_alloc_lines(&al, l.used);
    if (!s) return MF_ERR_NOMEM;
    s->view = *d, s->alloc = al;
    s->d = d->bytes ? &s->view : d;
    l = (mf_lines_layout){(unsigned char *)s, sizeof(mf_tracks_shared)};
    mf_clip_tables_carve(&l, d, &s->tables);
    mf_clip_tables_fill(d, &s->tables);
    segs_carve(&l, d, entries, &span, &seg, &prep);
    mf_seg_table_fill(d, span, seg, prep);
    s->segs = (mf_seg_table){d->timelines, d->timeline_count, d->bone_count, span};
    *out = s;
    return MF_OK;
}

const mf_seg_table *mf_tracks_shared_segs(const mf_tracks_shared *s) { return s ? &s->segs : NULL; }

void mf_tracks_shared_destroy(mf_tracks_shared *s)
{
    if (!s) return;
    mf_allocator al = s->alloc;
    mf_free_lines(&al, s);
}
