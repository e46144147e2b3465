/* The clip tables of the tracks (tracks_internal.h): built into each tracks' block, or once per
 * data into an mf_tracks_shared that many tracks point at. */
#include <stdlib.h>

#include "../alloc_lines.h"
#include "tracks_internal.h"

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

int32_t mf_clip_tables_timelines(const mf_skel_data *d)
{
    int32_t total = 0;
    for (int32_t c = 0; c < d->clip_count; c++) total += d->clips[c].timeline_count;
    return total;
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

mf_result mf_tracks_shared_create(const mf_skel_data *d, const mf_allocator *alloc, mf_tracks_shared **out)
{
    if (out) *out = NULL;
    if (!d || !out) return MF_ERR_ARGUMENT;
    mf_allocator al = alloc ? *alloc : (mf_allocator){0};
    size_t nc = (size_t)d->clip_count, tl = (size_t)mf_clip_tables_timelines(d);
    size_t head = mf_lines_round(sizeof(mf_tracks_shared));
    size_t ints = 3 * (nc + 1) + (tl * PROP_MAX + 1) + 2 * (tl + 1);
    mf_tracks_shared *s = mf_alloc_lines(&al, head + ints * sizeof(int32_t));
    if (!s) return MF_ERR_NOMEM;
    s->d = d, s->alloc = al;
    int32_t *at = (int32_t *)(void *)((unsigned char *)s + head);
    mf_clip_tables *tb = &s->tables;
    tb->prop_first = at, at += nc + 1;
    tb->attach_first = at, at += nc + 1;
    tb->event_first = at, at += nc + 1;
    tb->attach = at, at += tl + 1;
    tb->events = at, at += tl + 1;
    tb->props = at;
    mf_clip_tables_fill(d, tb);
    *out = s;
    return MF_OK;
}

void mf_tracks_shared_destroy(mf_tracks_shared *s)
{
    if (!s) return;
    mf_allocator al = s->alloc;
    mf_free_lines(&al, s);
}
