/* The dirty sub-tree skip: a bone whose applied values and inherit mode are those of its last
 * in-order update, under a parent that was itself skipped, keeps last frame's world. Bones a
 * constraint writes (IK, transform, path, physics) are always computed, so whatever a
 * constraint did last frame never survives into this one; their children follow as dirty. */
#include <string.h>

#include "pose_internal.h"
#include "pose_trig.h"
#define DIRTY_SSE2 MF_TRIG_SSE2

/* Whether an IK constraint's last bone is bone i and not its target: its world is then only
 * written by the IK, never read (the update's MF_OP_IK_LAST tests when at run time). */
static bool ik_last(const mf_skel_data *d, int32_t k, int32_t i)
{
    const mf_sd_ik *ik = &d->ik[k];
    const int32_t *b = d->bone_lists + ik->bone_first;
    return ik->bone_count > 0 && b[ik->bone_count - 1] == i && ik->target != i && (ik->bone_count == 1 || b[0] != i);
}

/* Marks the bones constraint k of kind (MF_SD_REF_*) writes the applied values of. */
static void mark_written(const mf_skel_data *d, int32_t kind, int32_t k, uint8_t *written)
{
    int32_t first = 0, count = 0;
    if (kind == MF_SD_REF_IK) first = d->ik[k].bone_first, count = d->ik[k].bone_count;
    else if (kind == MF_SD_REF_TRANSFORM) first = d->transform[k].bone_first, count = d->transform[k].bone_count;
    else if (kind == MF_SD_REF_PATH) first = d->path[k].bone_first, count = d->path[k].bone_count;
    else if (kind == MF_SD_REF_PHYSICS) written[d->physics[k].bone] = 1;
    for (int32_t j = 0; j < count; j++) written[d->bone_lists[first + j]] = 1;
}

/* The update program from the update order. A bone update before any constraint in the order
 * writes the bone has the applied values the trigonometry cache was filled from (fresh: of a
 * bone with a parent, a fast bone update). The changed codes serve as scratch for which bones
 * were written so far (the dirty mark writes them all before an update reads them). */
static void build_program(mf_pose *p)
{
    const mf_skel_data *d = p->data;
    mf_pose_scratch *s = p->scratch;
    uint8_t *written = s->changed;
    memset(written, 0, (size_t)p->bone_count);
    static const int32_t op_of[MF_SD_REF_KIND_COUNT] = {MF_OP_BONE, MF_OP_IK, MF_OP_TRANSFORM, MF_OP_PATH,
                                                        MF_OP_PHYSICS};
    int32_t o = 0;
    s->fast_count = 0;
    for (int32_t u = 0; u < d->update_count; u++) {
        mf_sd_ref r = d->update[u];
        if (r.kind != MF_SD_REF_BONE) {
            mark_written(d, r.kind, r.index, written);
            s->ops[o++] = (mf_pose_op){op_of[r.kind], r.index, 0};
            continue;
        }
        int32_t i = r.index, par = d->bones[i].parent;
        if (u + 1 < d->update_count && d->update[u + 1].kind == MF_SD_REF_IK && ik_last(d, d->update[u + 1].index, i)) {
            const mf_sd_ik *ik = &d->ik[d->update[u + 1].index];
            int32_t first = ik->bone_count > 1 ? d->bone_lists[ik->bone_first] : -1;
            s->ops[o++] = (mf_pose_op){MF_OP_IK_LAST, d->update[++u].index, i};
            s->ops[o++] = (mf_pose_op){first, par >= 0 ? par : p->bone_count, 0}; /* two entries, two ops */
            mark_written(d, MF_SD_REF_IK, d->update[u].index, written);
            continue;
        }
        if (par < 0 || written[i]) { /* a root, or its trigonometry stale */
            s->ops[o++] = (mf_pose_op){MF_OP_BONE, i, par >= 0 ? par : p->bone_count};
            continue;
        }
        s->ops[o++] = (mf_pose_op){i, par, 0}; /* fast */
        s->fast_count++;
    }
    s->op_count = o;
    s->ops[o] = (mf_pose_op){MF_OP_END, 0, 0};
}

/* Whether the data gives a bone an inherit mode whose local matrix is not from the bone's own
 * angles (world_of, pose_world.c), at setup or by a timeline. A host that sets one anyway only
 * has the dirty mark and the update refill each other's trigonometry entries for it. */
static bool inherit_other(const mf_skel_data *d)
{
    for (int32_t i = 0; i < d->bone_count; i++)
        if (d->bones[i].inherit > MF_SD_INHERIT_ONLY_TRANSLATION) return true;
    for (int32_t k = 0; k < d->timeline_count; k++)
        if (d->timelines[k].kind == MF_SD_TL_INHERIT) return true;
    return false;
}

void mf_pose_dirty_setup(mf_pose *p)
{
    const mf_skel_data *d = p->data;
    mf_pose_scratch *s = p->scratch;
    s->inherit_other = inherit_other(d);
    memset(s->constrained, 0, (size_t)p->bone_count);
    for (int32_t k = 0; k < d->ik_count; k++) mark_written(d, MF_SD_REF_IK, k, s->constrained);
    for (int32_t k = 0; k < d->transform_count; k++) mark_written(d, MF_SD_REF_TRANSFORM, k, s->constrained);
    for (int32_t k = 0; k < d->path_count; k++) mark_written(d, MF_SD_REF_PATH, k, s->constrained);
    for (int32_t k = 0; k < d->physics_count; k++) mark_written(d, MF_SD_REF_PHYSICS, k, s->constrained);
    mf_pose_dirty_clear(p);
    build_program(p);
}

void mf_pose_dirty_clear(mf_pose *p)
{
    memset(p->scratch->world_valid, 0, (size_t)p->bone_count);
}

/* mf_pose_dirty_mark without AVX2 (or under eight bones): four bones a step with SSE2, then one. */
static int32_t mark(mf_pose *p)
{
    mf_pose_scratch *s = p->scratch;
    int32_t n = p->bone_count, i = 0, computed = 0;
    const float *cur[7] = {p->x, p->y, p->rot, p->sx, p->sy, p->shx, p->shy};
    float *app[7] = {p->ax, p->ay, p->arot, p->asx, p->asy, p->ashx, p->ashy};
#if DIRTY_SSE2
    for (; i + 4 <= n; i += 4) {
        __m128i same = _mm_set1_epi32(-1), c[7];
        for (int32_t k = 0; k < 7; k++) {
            c[k] = _mm_loadu_si128((const __m128i *)(const void *)(cur[k] + i));
            __m128i *av = (__m128i *)(void *)(app[k] + i);
            same = _mm_and_si128(same, _mm_cmpeq_epi32(c[k], _mm_loadu_si128(av)));
            _mm_storeu_si128(av, c[k]);
        }
        /* the four bones' bytes at once: inherit modes compared, flags or-ed */
        uint32_t inh, pinh, cons, valid, act;
        memcpy(&inh, p->inherit + i, 4), memcpy(&pinh, s->prev_inherit + i, 4);
        memcpy(&cons, s->constrained + i, 4), memcpy(&valid, s->world_valid + i, 4);
        memcpy(&act, p->active + i, 4);
        memcpy(s->prev_inherit + i, &inh, 4);
        int same_inh = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_cvtsi32_si128((int)inh), _mm_cvtsi32_si128((int)pinh)));
        int keep = _mm_movemask_ps(_mm_castsi128_ps(same)) & same_inh & 15;
        /* keep bit j set: byte j 0, else 1 */
        static const uint32_t dirty_of[16] = {
            0x01010101u, 0x01010100u, 0x01010001u, 0x01010000u, 0x01000101u, 0x01000100u, 0x01000001u, 0x01000000u,
            0x00010101u, 0x00010100u, 0x00010001u, 0x00010000u, 0x00000101u, 0x00000100u, 0x00000001u, 0x00000000u};
        uint32_t inactive = (uint32_t)_mm_cvtsi128_si32(_mm_cmpeq_epi8(_mm_cvtsi32_si128((int)act), _mm_setzero_si128()));
        uint32_t normal = (uint32_t)_mm_cvtsi128_si32(_mm_cmpeq_epi8(_mm_cvtsi32_si128((int)inh), _mm_setzero_si128()));
        uint32_t dirty = dirty_of[keep] | cons | (valid ^ 0x01010101u) | (inactive & 0x03030303u) |
                         (~normal & 0x04040404u);
        uint32_t now_valid = ~inactive & 0x01010101u;
        memcpy(s->changed + i, &dirty, 4);
        memcpy(s->world_valid + i, &now_valid, 4);
        __m128i local = _mm_set1_epi32(-1); /* the bones whose matrix takes their own angles */
        if (s->inherit_other) {
            __m128i vi = _mm_cvtsi32_si128((int)inh);
            local = _mm_cmpeq_epi8(_mm_min_epu8(vi, _mm_set1_epi8(1)), vi); /* Normal or OnlyTranslation */
            local = _mm_unpacklo_epi8(local, local);
            local = _mm_unpacklo_epi16(local, local);
        }
        computed += mf_pose_trig_group(s, i, _mm_castsi128_ps(c[2]), _mm_castsi128_ps(c[5]), _mm_castsi128_ps(c[6]),
                                       local);
    }
#endif
    for (; i < n; i++) {
        bool changed = s->prev_inherit[i] != p->inherit[i];
        for (int32_t k = 0; k < 7; k++) {
            uint32_t a, b; /* bits, so -0 and NaN compare as they are */
            memcpy(&a, app[k] + i, 4), memcpy(&b, cur[k] + i, 4);
            changed |= a != b;
            app[k][i] = cur[k][i];
        }
        bool off = !p->active[i];
        s->changed[i] = (uint8_t)((changed || s->constrained[i] || !s->world_valid[i] || off ? MF_CHANGED : 0) |
                                  (off ? MF_CHANGED_INACTIVE : 0) |
                                  (p->inherit[i] != MF_SD_INHERIT_NORMAL ? MF_CHANGED_INHERIT : 0));
        s->world_valid[i] = p->active[i] != 0;
        s->prev_inherit[i] = p->inherit[i];
        if (!s->inherit_other || p->inherit[i] <= MF_SD_INHERIT_ONLY_TRANSLATION) /* the others': world_of's */
            computed += mf_pose_trig_refresh(s, i, p->rot[i], p->shx[i], p->shy[i]);
    }
    return computed;
}

/* Marks per bone whether its update must compute (changed, MF_CHANGED_*: bit 0): it is
 * inactive, its local values or inherit mode differ (bit for bit) from the applied values and
 * inherit mode of the previous call (the applied values of a bone no constraint writes are its
 * local values of that call; a host that writes applied values itself updates the bone, which
 * clears its world_valid), a constraint writes it, or its world is not one an update computed;
 * bit 1: inactive, bit 2: inherit other than Normal, so that 0 or 1 is the common update. Sets
 * world_valid to what the update leaves it (active: computed or kept; a constraint that writes
 * applied values later clears it). In the same pass it copies the local values to the applied
 * ones and fills the trigonometry cache from them, four bones at a time (with inherit_other,
 * only for the bones of Normal or OnlyTranslation: world_of keys the others). Returns the
 * bones whose trigonometry it computed. */
int32_t mf_pose_dirty_mark(mf_pose *p)
{
    mf_pose_scratch *s = p->scratch;
    s->changed[p->bone_count] = MF_KEPT; /* a root's "parent": the update order keeps a root on its own values */
#if MF_TRIG_AVX2
    if (s->trig_avx2 && p->bone_count >= 8) return mf_pose_dirty_mark_avx2(p); /* every bone, eight a step */
#endif
    return mark(p);
}
