/* Creating the tracks: the entry pool, the mix table, the property index; the callback queue.
 * Two line-aligned blocks: the struct and what a frame touches (alloc), what mixes, changes of
 * entries and callbacks touch (alloc_cold) (the pool's arrays move to allocations of their own,
 * through the cold hooks, when it grows). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../alloc_lines.h"
#include "../skel_data_same.h"
#include "tracks_internal.h"

/* Property ids: per bone 8 channels, per slot 5, per deformed attachment 1, per constraint 1
 * (3 per path), then draw order and events. */
int32_t mf_tracks_props(const mf_skel_data *d, const mf_sd_timeline *tl, int32_t ids[PROP_MAX])
{
    int32_t nb = d->bone_count, ns = d->slot_count;
    int32_t slot0 = 8 * nb, deform0 = slot0 + 5 * ns, ik0 = deform0 + d->attachment_count;
    int32_t tf0 = ik0 + d->ik_count, path0 = tf0 + d->transform_count, end0 = path0 + 3 * d->path_count;
    int32_t b = 8 * tl->target, s = slot0 + 5 * tl->target;
    switch (tl->kind) {
    case MF_SD_TL_ROTATE: ids[0] = b; return 1;
    case MF_SD_TL_TRANSLATE: ids[0] = b + 1, ids[1] = b + 2; return 2;
    case MF_SD_TL_TRANSLATE_X: ids[0] = b + 1; return 1;
    case MF_SD_TL_TRANSLATE_Y: ids[0] = b + 2; return 1;
    case MF_SD_TL_SCALE: ids[0] = b + 3, ids[1] = b + 4; return 2;
    case MF_SD_TL_SCALE_X: ids[0] = b + 3; return 1;
    case MF_SD_TL_SCALE_Y: ids[0] = b + 4; return 1;
    case MF_SD_TL_SHEAR: ids[0] = b + 5, ids[1] = b + 6; return 2;
    case MF_SD_TL_SHEAR_X: ids[0] = b + 5; return 1;
    case MF_SD_TL_SHEAR_Y: ids[0] = b + 6; return 1;
    case MF_SD_TL_INHERIT: ids[0] = b + 7; return 1;
    case MF_SD_TL_ATTACHMENT: ids[0] = s; return 1;
    case MF_SD_TL_RGBA: ids[0] = s + 1, ids[1] = s + 2; return 2;
    case MF_SD_TL_RGB: ids[0] = s + 1; return 1;
    case MF_SD_TL_ALPHA: ids[0] = s + 2; return 1;
    case MF_SD_TL_RGBA2: ids[0] = s + 1, ids[1] = s + 2, ids[2] = s + 3; return 3;
    case MF_SD_TL_SEQUENCE: ids[0] = s + 4; return 1;
    case MF_SD_TL_DEFORM: ids[0] = deform0 + tl->attachment; return 1;
    case MF_SD_TL_IK: ids[0] = ik0 + tl->target; return 1;
    case MF_SD_TL_TRANSFORM: ids[0] = tf0 + tl->target; return 1;
    case MF_SD_TL_PATH_POSITION: ids[0] = path0 + 3 * tl->target; return 1;
    case MF_SD_TL_PATH_SPACING: ids[0] = path0 + 3 * tl->target + 1; return 1;
    case MF_SD_TL_PATH_MIX: ids[0] = path0 + 3 * tl->target + 2; return 1;
    case MF_SD_TL_DRAW_ORDER: ids[0] = end0; return 1;
    case MF_SD_TL_EVENT: ids[0] = end0 + 1; return 1;
    default: return 0; /* physics: the physics module's */
    }
}

/* Entries [pool_cap, cap) onto the free list. */
static void add_free(mf_tracks *t, int32_t cap)
{
    for (int32_t i = cap - 1; i >= t->pool_cap; i--) {
        t->entries[i].next = t->free_head;
        t->entries[i].alive = false;
        t->free_head = i;
    }
    t->pool_cap = cap;
}

/* Grows the pool to cap entries (all per-entry arrays), through the cold hooks: a pool grows
 * while the tracks play, on whatever thread updates them, and an allocator's alloc may be an
 * arena that only one thread at a time may allocate from (mf_instance_arena.h). */
static bool grow(mf_tracks *t, int32_t cap)
{
    size_t n = (size_t)cap, m = (size_t)cap * (size_t)t->max_tl, old = (size_t)t->pool_cap;
    size_t om = old * (size_t)t->max_tl;
    mf_track_entry *e = mf_alloc_cold(&t->alloc, n * sizeof *e);
    uint8_t *modes = mf_alloc_cold(&t->alloc, m ? m : 1);
    int32_t *hold = mf_alloc_cold(&t->alloc, (m ? m : 1) * sizeof *hold);
    mf_rotation_latch *latch = mf_alloc_cold(&t->alloc, (m ? m : 1) * sizeof *latch);
    if (!e || !modes || !hold || !latch) {
        mf_free_cold(&t->alloc, e), mf_free_cold(&t->alloc, modes);
        mf_free_cold(&t->alloc, hold), mf_free_cold(&t->alloc, latch);
        return false;
    }
    memset(e, 0, n * sizeof *e);
    if (old) {
        memcpy(e, t->entries, old * sizeof *e);
        memcpy(modes, t->modes, om);
        memcpy(hold, t->hold_mix, om * sizeof *hold);
        memcpy(latch, t->latch, om * sizeof *latch);
    }
    if (t->pool_apart) {
        mf_free_cold(&t->alloc, t->entries), mf_free_cold(&t->alloc, t->modes);
        mf_free_cold(&t->alloc, t->hold_mix), mf_free_cold(&t->alloc, t->latch);
    }
    t->entries = e, t->modes = modes, t->hold_mix = hold, t->latch = latch;
    t->pool_apart = true;
    add_free(t, cap);
    return true;
}

int32_t mf_tracks_new_entry(mf_tracks *t)
{
    if (t->free_head < 0) {
        if (!grow(t, t->pool_cap * 2)) return -1;
        t->grows++;
    }
    int32_t i = t->free_head;
    mf_track_entry *e = &t->entries[i];
    t->free_head = e->next;
    uint32_t gen = e->generation;
    memset(e, 0, sizeof *e);
    e->generation = gen;
    e->alive = true;
    return i;
}

/* The event timelines of d's clips (the clip tables' event list). */
static int32_t event_timelines(const mf_skel_data *d)
{
    int32_t n = 0;
    for (int32_t c = 0; c < d->clip_count; c++)
        for (int32_t j = 0; j < d->clips[c].timeline_count; j++)
            n += d->timelines[d->clips[c].timeline_first + j].kind == MF_SD_TL_EVENT;
    return n;
}

/* own: where the tracks' own clip tables are carved; NULL: they are shared. */
static void plan(mf_tracks *t, int32_t pool, mf_clip_tables *own, mf_lines_layout *l, mf_lines_layout *cold,
                 size_t *cold_zeroed)
{
    const mf_skel_data *d = t->d;
    size_t nc = (size_t)d->clip_count, m = (size_t)pool * (size_t)t->max_tl, tl = (size_t)t->max_tl + 1;
    /* every frame's */
    t->current = mf_lines_carve(l, (size_t)t->track_count, sizeof(int32_t));
    t->entries = mf_lines_carve(l, (size_t)pool, sizeof(mf_track_entry));
    t->slot_state = mf_lines_carve(l, (size_t)d->slot_count + 1, 1);
    t->ev_cursor = mf_lines_carve(l, (size_t)event_timelines(d) + 1, sizeof(mf_event_cursor));
    if (own) mf_clip_tables_carve(l, d, own); /* a frame reads the attachment and event lists */
    /* the cold block (mf_alloc_cold): a mix's (one entry playing alone touches none of them),
     * when entries change, and callbacks */
    t->weights = mf_lines_carve(cold, tl, sizeof(float));
    t->rot_weights = mf_lines_carve(cold, tl, sizeof(float));
    t->before = mf_lines_carve(cold, tl, 1);
    t->prop_seen = mf_lines_carve(cold, (size_t)t->prop_count, 1);
    t->mix_table = mf_lines_carve(cold, (nc + 1) * (nc + 1), sizeof(double));
    /* not cleared at create: an entry's modes, hold entries and rotation latches are written
     * when it starts mixing (as a grown pool's are), the queues before they are read */
    *cold_zeroed = cold->used;
    t->modes = mf_lines_carve(cold, m ? m : 1, 1);
    t->hold_mix = mf_lines_carve(cold, m ? m : 1, sizeof(int32_t));
    t->latch = mf_lines_carve(cold, m ? m : 1, sizeof(mf_rotation_latch));
    t->queue = mf_lines_carve(cold, MF_TRACKS_QUEUE_CAP, sizeof(queued));
    t->fired = mf_lines_carve(cold, MF_TRACKS_FIRED_CAP, sizeof(mf_fired_event));
}

mf_result mf_tracks_create(const mf_skel_data *d, const mf_tracks_config *cfg, const mf_allocator *alloc,
                           mf_tracks **out)
{
    if (!d || !out) return MF_ERR_ARGUMENT;
    *out = NULL;
    mf_tracks head = {0};
    head.d = d, head.alloc = alloc ? *alloc : (mf_allocator){0}, head.free_head = -1;
    head.track_count = cfg && cfg->track_count > 0 ? cfg->track_count : 4;
    head.default_mix = cfg ? cfg->default_mix : 0;
    head.time_scale = cfg && cfg->time_scale != 0 ? cfg->time_scale : 1;
    int32_t pool = cfg && cfg->pool_initial > 0 ? cfg->pool_initial : MF_TRACKS_POOL_INITIAL;
    const mf_tracks_shared *sh = cfg ? cfg->shared : NULL;
    if (sh && !mf_sd_same(sh->d, d)) return MF_ERR_ARGUMENT; /* tables of that build only */
    int32_t nc = d->clip_count;
    for (int32_t c = 0; c < nc; c++)
        if (d->clips[c].timeline_count > head.max_tl) head.max_tl = d->clips[c].timeline_count;
    head.prop_count = 8 * d->bone_count + 5 * d->slot_count + d->attachment_count + d->ik_count +
                      d->transform_count + 3 * d->path_count + 2;
    mf_lines_layout l = {NULL, sizeof(mf_tracks)}, lc = {NULL, 0};
    mf_clip_tables own;
    size_t cold_zeroed = 0;
    plan(&head, pool, sh ? NULL : &own, &l, &lc, &cold_zeroed);
    void *cold; /* the mixing arrays and callback queues not cleared: committed when used */
    mf_tracks *t = mf_alloc_lines_two(&head.alloc, l.used, lc.used, SIZE_MAX, cold_zeroed, &cold);
    if (!t) return MF_ERR_NOMEM;
    *t = head;
    t->cold = cold;
    mf_lines_layout real = {(unsigned char *)t, sizeof(mf_tracks)}, real_cold = {cold, 0};
    plan(t, pool, sh ? NULL : &own, &real, &real_cold, &cold_zeroed);
    add_free(t, pool);
    for (int32_t i = 0; i < t->track_count; i++) t->current[i] = -1;
    for (int32_t i = 0, n = event_timelines(d); i < n; i++) t->ev_cursor[i].lo = NAN; /* none yet */
    size_t mt = (size_t)(nc + 1) * (size_t)(nc + 1);
    for (size_t i = 0; i < mt; i++) t->mix_table[i] = -1;
    t->segs = sh ? &sh->segs : NULL;
    if (sh) own = sh->tables;
    else mf_clip_tables_fill(d, &own);
    t->clip_prop_first = own.prop_first, t->clip_props = own.props;
    t->clip_attach_first = own.attach_first, t->clip_attach = own.attach;
    t->clip_event_first = own.event_first, t->clip_events = own.events;
    t->slots_marked = true; /* slot_state is cleared by the first apply */
    t->modes_dirty = true;
    *out = t;
    return MF_OK;
}

void mf_tracks_destroy(mf_tracks *t)
{
    if (!t) return;
    mf_allocator al = t->alloc;
    if (t->pool_apart) {
        mf_free_cold(&al, t->entries), mf_free_cold(&al, t->modes);
        mf_free_cold(&al, t->hold_mix), mf_free_cold(&al, t->latch);
    }
    mf_free_lines_two(&al, t, t->cold);
}

float mf_tracks_clip_length(const mf_tracks *t, int32_t clip)
{
    return clip >= 0 && clip < t->d->clip_count ? t->d->clips[clip].length : 0.0f;
}

mf_result mf_tracks_set_mix(mf_tracks *t, int32_t from, int32_t to, double seconds)
{
    int32_t nc = t ? t->d->clip_count : 0;
    if (!t || from < -1 || from >= nc || to < -1 || to >= nc || !(seconds >= 0)) return MF_ERR_ARGUMENT;
    t->mix_table[(size_t)(from + 1) * (size_t)(nc + 1) + (size_t)(to + 1)] = seconds;
    return MF_OK;
}

double mf_tracks_mix(const mf_tracks *t, int32_t from, int32_t to)
{
    int32_t nc = t->d->clip_count;
    if (from < -1 || from >= nc || to < -1 || to >= nc) return t->default_mix;
    double m = t->mix_table[(size_t)(from + 1) * (size_t)(nc + 1) + (size_t)(to + 1)];
    return m >= 0 ? m : t->default_mix;
}

void mf_tracks_set_default_mix(mf_tracks *t, double seconds) { if (t && seconds >= 0) t->default_mix = seconds; }
void mf_tracks_set_time_scale(mf_tracks *t, float scale) { if (t && scale == scale) t->time_scale = scale; }
void mf_tracks_set_listener(mf_tracks *t, mf_track_listener fn, void *user)
{
    if (t) t->listener = fn, t->user = user;
}
int32_t mf_tracks_pool_size(const mf_tracks *t) { return t ? t->pool_cap : 0; }
int32_t mf_tracks_dropped(const mf_tracks *t) { return t ? t->dropped : 0; }

/* ---------------------------------------------------------------- callbacks */

void mf_tracks_queue(mf_tracks *t, mf_track_event_type type, int32_t entry, const mf_fired_event *ev)
{
    if (type == MF_TRACK_STARTED || type == MF_TRACK_ENDED) t->modes_dirty = true;
    if (t->queued_count >= MF_TRACKS_QUEUE_CAP) {
        /* never lose a disposal: the entry would leak from the pool */
        if (type != MF_TRACK_DISPOSED && type != MF_TRACK_ENDED) {
            t->dropped++;
            return;
        }
        for (int32_t i = 0; i < t->queued_count; i++) /* overwrite a droppable one */
            if (t->queue[i].type == MF_TRACK_EVENT || t->queue[i].type == MF_TRACK_COMPLETED) {
                memmove(t->queue + i, t->queue + i + 1, (size_t)(t->queued_count - i - 1) * sizeof(queued));
                t->queued_count--;
                t->dropped++;
                break;
            }
        if (t->queued_count >= MF_TRACKS_QUEUE_CAP) return;
    }
    queued *q = &t->queue[t->queued_count++];
    q->type = (uint8_t)type, q->entry = entry;
    if (ev) q->ev = *ev;
}

void mf_tracks_drain(mf_tracks *t)
{
    if (t->draining) return; /* a listener's own calls: the outer drain delivers them */
    t->draining = true;
    for (int32_t i = 0; i < t->queued_count; i++) {
        queued q = t->queue[i];
        mf_track_entry *e = &t->entries[q.entry];
        mf_entry_handle h = {q.entry, e->generation};
        if (t->listener)
            t->listener(t, (mf_track_event_type)q.type, h, e, q.type == MF_TRACK_EVENT ? &q.ev : NULL, t->user);
        e = &t->entries[q.entry]; /* the listener may have grown the pool */
        if (q.type == MF_TRACK_ENDED && t->listener) /* ended is followed by disposed */
            t->listener(t, MF_TRACK_DISPOSED, h, e, NULL, t->user);
        if (q.type == MF_TRACK_ENDED || q.type == MF_TRACK_DISPOSED) {
            e = &t->entries[q.entry];
            e->alive = false;
            e->generation++;
            e->next = t->free_head;
            t->free_head = q.entry;
        }
    }
    t->queued_count = 0;
    t->draining = false;
}
