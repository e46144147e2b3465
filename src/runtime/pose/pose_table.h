/* The full-weight Replace sample through a shared table (mf_seg_table), inline here so that
 * pose_table_avx2.c compiles the same loop for AVX2 (the VEX forms: fewer copies; curve_eval.h's
 * eight-lane search), which mf_pose_sample runs where the CPU has AVX2. Not public. */
#ifndef MF_POSE_TABLE_H
#define MF_POSE_TABLE_H

#include "pose_seg.h"
#include "pose_trig.h"

/* A clip's local time of a sample's time (mf_clip_local_time in double). */
MF_CURVE_INLINE double mf_pose_clip_time(const mf_skel_data *d, int32_t clip, double time, bool loop)
{
    double len = d->clips[clip].length;
    if (loop && len > 0) {
        double r = mf_fmod_lap(time, len);
        return r < 0 ? r + len : r;
    }
    return time;
}

/* mf_pose_sample's argument errors (the table, if any, must be of the pose's data). */
MF_CURVE_INLINE bool mf_pose_sample_bad(const mf_pose *p, const mf_clip_sample *cs)
{
    const mf_seg_table *tb = cs ? cs->segs : NULL;
    return !p || !cs || cs->clip < 0 || cs->clip >= p->data->clip_count || cs->time != cs->time ||
           (tb && (tb->timelines != p->data->timelines || tb->timeline_count != p->data->timeline_count ||
                   tb->bone_count != p->data->bone_count));
}

/* pose_sample.c: mf_pose_sample without the AVX2 path */
mf_result mf_pose_sample_base(mf_pose *p, const mf_clip_sample *cs);

/* pose_sample.c: an entry re-found when t left its range, and a timeline (or an entry) the
 * table does not compile, through the general path with the pose's own segment */
uint32_t mf_pose_table_find(const mf_skel_data *d, int32_t i, const mf_seg_span *sp, uint32_t off, float tf,
                            double t);
void mf_pose_table_general(mf_pose *p, const mf_clip_sample *cs, bool discrete, int32_t i, double t);

/* The sample at clip time t: per timeline the pose's entry (a byte offset: no scaling in the
 * loop), re-found when t left its range; the table's segment written as the pose's own would
 * be. Kinds it does not compile (end 0) and entries not compiled (values held before the
 * first or from the last key) take the general path with the pose's own segment, as without
 * it; events do nothing there at full weight. */
MF_CURVE_INLINE void mf_pose_table_loop(mf_pose *p, const mf_clip_sample *cs, double t, bool discrete)
{
    const mf_skel_data *d = p->data;
    const mf_sd_clip *clip = &d->clips[cs->clip];
    int32_t last = clip->timeline_first + clip->timeline_count; /* the index past the clip's */
    const mf_seg_span *end = cs->segs->span + last;
    uint32_t *at_end = (uint32_t *)p->scratch->seg_at + last;
    mf_pose_seg_out o = {p, p->x, p->y, discrete}; /* its address not taken: in registers */
    float tf = mf_pose_seg_floor(t);
    /* one index for both arrays, counting up to 0: the bytes of the pose's offsets left (a
     * span is four times an offset's size: the same index scaled by 4 addresses it) */
    _Static_assert(sizeof(mf_seg_span) == 4 * sizeof(uint32_t), "one index scales to both");
#if defined(__GNUC__)
    __asm__("" : "+r"(end), "+r"(at_end)); /* (bases in registers, not re-derived) */
#endif
    for (intptr_t b = -(intptr_t)clip->timeline_count * 4; b != 0; b += 4) {
#if defined(__GNUC__)
        __asm__("" : "+r"(b)); /* (GCC would derive a pointer of each array again) */
#endif
        const mf_seg_span *sp = (const mf_seg_span *)((const char *)end + 4 * b);
        /* the pose's offset, any value: masked, a whole entry's of the timeline */
        uint32_t off = *(const uint32_t *)((const char *)at_end + b) & sp->mask;
        const mf_pose_seg *e = (const mf_pose_seg *)((const char *)sp->seg + off);
        /* tf < t1 as !(tf >= t1): the same for key times, finite (checked at load) or the
         * infinities, and one compare with t1 in memory; padding (0, 0) never matches */
        if (__builtin_expect(!(tf >= e->t0 && !(tf >= e->t1)), 0)) {
            /* most often the next entry (past the padding: the first, whose range is another);
             * the span and offset from the index again (opaque to the compiler: the hot path
             * keeps its addresses in its loads, no pointer of each array live) */
            intptr_t bq = b;
#if defined(__GNUC__)
            __asm__("" : "+r"(bq));
#endif
            const mf_seg_span *sq = (const mf_seg_span *)((const char *)end + 4 * bq);
            uint32_t *aq = (uint32_t *)((char *)at_end + bq);
            off = (uint32_t)((const char *)e - (const char *)sq->seg); /* (off not kept live) */
            uint32_t next = (off + (uint32_t)sizeof *e) & sq->mask;
            e = (const mf_pose_seg *)((const char *)sq->seg + next);
            if (tf >= e->t0 && !(tf >= e->t1)) {
                *aq = next;
            } else {
                int32_t i = last + (int32_t)(bq / 4);
                if (!sq->end) {
                    if (d->timelines[i].kind != MF_SD_TL_EVENT) mf_pose_table_general(p, cs, discrete, i, t);
                    continue;
                }
                *aq = off = mf_pose_table_find(d, i, sq, off, tf, t);
                e = (const mf_pose_seg *)((const char *)sq->seg + off);
            }
        }
        if (!mf_pose_seg_write_as(&o, e, t, true)) mf_pose_table_general(p, cs, discrete, last + (int32_t)(b / 4), t);
    }
}

/* pose_table_avx2.c: mf_pose_sample of a sample with a table, its full-weight Replace loop
 * compiled for AVX2 (others: mf_pose_sample_base) (x86 with GCC or Clang, the runtime's CMake
 * defines MF_TABLE_AVX2 where it builds that file with -mavx2); run where the pose found AVX2
 * (mf_pose_scratch.trig_avx2: every such CPU has POPCNT too, which the search uses) */
#if defined(MF_TABLE_AVX2) && MF_TABLE_AVX2 && MF_TRIG_AVX2
mf_result mf_pose_sample_avx2(mf_pose *p, const mf_clip_sample *cs);
#else
#undef MF_TABLE_AVX2
#define MF_TABLE_AVX2 0
#endif

#endif
