/* World transforms: a bone's 2×3 from its applied values and its parent's world transform,
 * honouring the five inherit modes, and the inverse (world back to applied values). */
#include <string.h>

#include "geom_skin.h"
#include "pose_applied.h"
#include "pose_atan.h"
#include "pose_internal.h"
#include "pose_trig.h"
#include "pose_world.h"

/* Cosine and sine of degrees, as Spine converts them: the rounding of the float radians decides
 * the sign of cos(±90°), and so the sign of a zero world axis (a bone scaled to 0), which
 * constraints read with atan2. */
static inline void sincosd(float deg, float *cs, float *sn) { mf_sincos_r(deg * (float)MF_DEG, cs, sn); }

/* The local 2×2 of rotation, scales and shears, computed as the mirror image of Spine's Y-up
 * computation (angles negated, y terms negated after rounding) so that rounding and the signs
 * of zeros match: a bone scaled to 0 keeps a signed zero axis that constraints read with atan2.
 * 0 - rot turns a rotation of -0 into the +0 Spine would have. The cos and sin come from the
 * bone's trigonometry cache (pose_trig.c), filled for every bone at the start of the world
 * update; a constraint that turns a bone misses it and computes them here. */
static inline __attribute__((always_inline)) void local_matrix_cached(mf_pose *p, int32_t i, float rot, float sx, float sy, float shx,
                                float shy, float l[4])
{
    p->trig_computed += mf_pose_trig_refresh(p->scratch, i, rot, shx, shy);
    mf_pose_local_fresh(p, i, sx, sy, l);
}

/* The parent's matrix with its rotation taken out (NoRotationOrReflection): its scale in its
 * own orientation, q = R(prot)·diag(n, n·k). *prot gets the parent's rotation in degrees. */
static inline __attribute__((always_inline)) void strip_rotation(float pa, float pb, float pc, float pd, float q[4],
                                                                   float *prot)
{
    float s2 = pa * pa + pc * pc;
    if (s2 > 0.0001f) {
        float k = fabsf(pa * pd - pb * pc) / s2;
        q[0] = pa, q[1] = -pc * k, q[2] = pc, q[3] = pa * k;
        *prot = mf_atan2d(pc, pa);
    } else {
        q[0] = 0, q[1] = pb, q[2] = 0, q[3] = pd;
        *prot = 90.0f - mf_atan2d(pd, pb);
    }
}

/* The unit frame of a NoScale bone: the parent's image of the bone's direction (rot),
 * normalised, with a perpendicular y axis (reflected when the parent is, for NoScale). */
static inline __attribute__((always_inline)) void unit_frame(float pa, float pb, float pc, float pd, float rot,
                                                               bool keep_reflection, float z[4])
{
    float cr, sr;
    sincosd(rot, &cr, &sr);
    float za = pa * cr + pb * sr, zc = pc * cr + pd * sr;
    float len = sqrtf(za * za + zc * zc);
    if (len > 0.00001f) za /= len, zc /= len;
    float s = sqrtf(za * za + zc * zc);
    if (keep_reflection && pa * pd - pb * pc < 0) s = -s;
    float r = 90.0f + mf_atan2d(zc, za);
    float cz, sz;
    sincosd(r, &cz, &sz);
    z[0] = za, z[1] = cz * s, z[2] = zc, z[3] = sz * s;
}

/* The world transform of bone i from the given applied values (not stored as applied). */
static inline __attribute__((always_inline)) void world_of(mf_pose *p, int32_t i, float x, float y, float rot,
                                                             float sx, float sy, float shx, float shy, bool fresh)
{
    int32_t par = p->data->bones[i].parent;
    float la, lb, lc, ld;
    if (par < 0 || p->inherit[i] == MF_SD_INHERIT_NORMAL) { /* most bones, and roots */
        if (!fresh) p->trig_computed += mf_pose_trig_refresh(p->scratch, i, rot, shx, shy);
        mf_pose_world_normal(p, i, par, x, y, sx, sy);
        return;
    }
    float pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par];
    p->wx[i] = pa * x + pb * y + p->wx[par];
    p->wy[i] = pc * x + pd * y + p->wy[par];
    float m[4]; /* the matrix the local transform is multiplied by */
    switch (p->inherit[i]) {
    case MF_SD_INHERIT_ONLY_TRANSLATION:
        m[0] = 1, m[1] = 0, m[2] = 0, m[3] = 1;
        break;
    case MF_SD_INHERIT_NO_ROTATION_OR_REFLECTION: {
        float prot;
        strip_rotation(pa, pb, pc, pd, m, &prot);
        rot -= prot; /* the local rotation is kept in world space */
        break;
    }
    case MF_SD_INHERIT_NO_SCALE:
    case MF_SD_INHERIT_NO_SCALE_OR_REFLECTION:
        unit_frame(pa, pb, pc, pd, rot, p->inherit[i] == MF_SD_INHERIT_NO_SCALE, m);
        rot = 0; /* the frame already holds the rotation */
        break;
    default:
        m[0] = pa, m[1] = pb, m[2] = pc, m[3] = pd;
        break;
    }
    float l[4];
    local_matrix_cached(p, i, rot, sx, sy, shx, shy, l);
    la = l[0], lb = l[1], lc = l[2], ld = l[3];
    p->a[i] = m[0] * la + m[1] * lc;
    p->b[i] = m[0] * lb + m[1] * ld;
    p->c[i] = m[2] * la + m[3] * lc;
    p->d[i] = m[2] * lb + m[3] * ld;
}

void mf_pose_update_bone_with(mf_pose *p, int32_t i, float x, float y, float rot, float sx,
                              float sy, float shx, float shy)
{
    p->ax[i] = x, p->ay[i] = y, p->arot[i] = rot, p->asx[i] = sx, p->asy[i] = sy;
    p->ashx[i] = shx, p->ashy[i] = shy;
    world_of(p, i, x, y, rot, sx, sy, shx, shy, false);
}

void mf_pose_update_bone(mf_pose *p, int32_t i)
{
    if (!p || i < 0 || i >= p->bone_count) return;
    p->scratch->skin_mats_valid = 0;
    p->scratch->world_valid[i] = 0; /* the next update computes it and its sub-tree */
    mf_pose_update_bone_with(p, i, p->ax[i], p->ay[i], p->arot[i], p->asx[i], p->asy[i],
                             p->ashx[i], p->ashy[i]);
}

void mf_pose_update_applied(mf_pose *p, int32_t i)
{
    if (!p || i < 0 || i >= p->bone_count) return;
    mf_pose_applied_update(p, i);
}

void mf_pose_applied_update(mf_pose *p, int32_t i)
{
    int32_t par = p->data->bones[i].parent;
    if (par >= 0 && p->inherit[i] != MF_SD_INHERIT_ONLY_TRANSLATION &&
        p->inherit[i] != MF_SD_INHERIT_NO_ROTATION_OR_REFLECTION && p->inherit[i] != MF_SD_INHERIT_NO_SCALE &&
        p->inherit[i] != MF_SD_INHERIT_NO_SCALE_OR_REFLECTION) {
        mf_pose_applied_normal(p, i, par); /* Normal: relative to the parent's matrix */
        return;
    }
    p->scratch->world_valid[i] = 0; /* applied values not from the local ones: compute it next */
    float a = p->a[i], b = p->b[i], c = p->c[i], d = p->d[i];
    float extra_rot = 0; /* rotation the inherit mode holds outside the relative matrix */
    float r[4];
    mf_pose_applied_origin(p, i, par);
    if (par < 0) {
        r[0] = a, r[1] = b, r[2] = c, r[3] = d;
    } else {
        float pa = p->a[par], pb = p->b[par], pc = p->c[par], pd = p->d[par];
        float m[4]; /* the matrix the relative one is taken from */
        switch (p->inherit[i]) {
        case MF_SD_INHERIT_ONLY_TRANSLATION:
            m[0] = 1, m[1] = 0, m[2] = 0, m[3] = 1;
            break;
        case MF_SD_INHERIT_NO_ROTATION_OR_REFLECTION:
            strip_rotation(pa, pb, pc, pd, m, &extra_rot);
            break;
        default: /* NoScale, NoScaleOrReflection */
            unit_frame(pa, pb, pc, pd, p->arot[i], p->inherit[i] == MF_SD_INHERIT_NO_SCALE, m);
            extra_rot = p->arot[i];
            break;
        }
        float md = m[0] * m[3] - m[1] * m[2];
        float mi = fabsf(md) > 1e-12f ? 1.0f / md : 0.0f;
        r[0] = (m[3] * a - m[1] * c) * mi;
        r[1] = (m[3] * b - m[1] * d) * mi;
        r[2] = (m[0] * c - m[2] * a) * mi;
        r[3] = (m[0] * d - m[2] * b) * mi;
    }
    mf_pose_applied_decompose(p, i, r, extra_rot);
}

/* The update of a bone with inherit other than Normal, a root, or one a constraint wrote
 * before (out of line: the update's loop keeps its arrays in registers). */
static __attribute__((noinline)) void update_other(mf_pose *p, int32_t i, bool fresh)
{
    world_of(p, i, p->ax[i], p->ay[i], p->arot[i], p->asx[i], p->asy[i], p->ashx[i], p->ashy[i], fresh);
}

#if MF_TRIG_AVX2
/* update_other for the AVX2 loop (a bone with inherit other than Normal, under a parent, its
 * cache fresh): the VEX forms, no fused multiply-adds, so the same bits. */
__attribute__((noinline, target("avx2"))) static void update_other_avx2(mf_pose *p, int32_t i)
{
    world_of(p, i, p->ax[i], p->ay[i], p->arot[i], p->asx[i], p->asy[i], p->ashx[i], p->ashy[i], true);
}
#endif

/* The bones an update kept, and those it passed over as inactive (the dirty mark already
 * marked their world stale), and its bone ops other than the fast ones; the others of its
 * bone ops it computed. */
typedef struct bone_counts {
    int32_t ops, kept, inactive;
} bone_counts;

/* The computing part of update_one: with its trigonometry refreshed, here for Normal
 * inheritance and roots (world_of's first case). */
static __attribute__((noinline)) void compute_one(mf_pose *p, int32_t i, int32_t par, uint8_t c)
{
    if (!(c & MF_CHANGED_INHERIT) || par == p->bone_count) {
        p->trig_computed += mf_pose_trig_refresh(p->scratch, i, p->arot[i], p->ashx[i], p->ashy[i]);
        mf_pose_world_normal(p, i, par < p->bone_count ? par : -1, p->ax[i], p->ay[i], p->asx[i], p->asy[i]);
    } else {
        update_other(p, i, false);
    }
}

/* A bone op other than a fast one (par: bone_count for a root): kept as those are, else
 * computed (compute_one). */
static inline __attribute__((always_inline)) void update_one_inline(mf_pose *p, int32_t i, int32_t par, bone_counts *n)
{
    mf_pose_scratch *s = p->scratch;
    uint8_t c = s->changed[i];
    n->ops++;
    if (!(c & MF_CHANGED) && (s->changed[par] & MF_KEPT)) {
        s->changed[i] = (uint8_t)(c | MF_KEPT);
        n->kept++;
    } else if (c & MF_CHANGED_INACTIVE) {
        n->inactive++;
    } else {
        compute_one(p, i, par, c);
    }
}

/* update_one out of line (the IK's last bone: the inline one only for MF_OP_BONE). */
static __attribute__((noinline)) void update_one(mf_pose *p, int32_t i, int32_t par, bone_counts *n)
{
    update_one_inline(p, i, par, n);
}

/* The arrays the bone updates read and write, taken once per update. */
typedef struct bone_arrays {
    uint8_t *changed;
    const float *ax, *ay, *asx, *asy, *tcx, *tsx, *tcy, *tsy;
    float *a, *b, *c, *d, *wx, *wy;
} bone_arrays;


#define MF_RUN_NAME run_program_sse
#define MF_RUN_TARGET
#define MF_RUN_IK mf_pose_apply_ik
#define MF_RUN_OTHER(p, i) update_other(p, i, true)
#define MF_RUN_TF mf_pose_apply_transform_base /* the mixes tested in the loop */
#include "pose_world_run.h"
#if MF_TRIG_AVX2
/* The loop in the VEX encoding (three-operand arithmetic: fewer register copies; no fused
 * multiply-adds, so the same bits), where the dirty mark runs with AVX2 too. */
#define MF_RUN_NAME run_program_avx2
#define MF_RUN_TARGET __attribute__((target("avx2")))
#define MF_RUN_IK mf_pose_apply_ik_avx2 /* the IK solve's AVX2 build, without its CPU test */
#define MF_RUN_OTHER(p, i) update_other_avx2(p, i)
#define MF_RUN_TF mf_pose_apply_transform_avx2
#include "pose_world_run.h"
#endif

void mf_pose_update_world(mf_pose *p)
{
    if (!p) return;
    mf_pose_scratch *s = p->scratch;
    p->bones_computed = p->bones_kept = p->trig_computed = 0;
    mf_pose_physics_begin(p);
    p->trig_computed += mf_pose_dirty_mark(p); /* also applied = local, world_valid, the trigonometry */
#if MF_TRIG_AVX2
    if (s->trig_avx2) run_program_avx2(p);
    else
#endif
        run_program_sse(p);
    /* packed for CPU skinning by its first call (geom_vertices.c): a frame skinned on the GPU
     * (mf_gpu.h) never writes them */
    s->skin_mats_valid = 0;
}

void mf_pose_world_changed(mf_pose *p)
{
    if (!p) return;
    mf_pose_dirty_clear(p); /* nothing kept from before the host's change */
    p->scratch->skin_mats_valid = 0; /* skinning packs the world again */
}

mf_result mf_pose_bone_world(const mf_pose *p, int32_t i, float m[6])
{
    if (!p || !m || i < 0 || i >= p->bone_count) return MF_ERR_ARGUMENT;
    m[0] = p->a[i], m[1] = p->b[i], m[2] = p->c[i], m[3] = p->d[i], m[4] = p->wx[i], m[5] = p->wy[i];
    return MF_OK;
}

float mf_pose_bone_world_rotation(const mf_pose *p, int32_t i)
{
    if (!p || i < 0 || i >= p->bone_count) return 0;
    return mf_atan2d(p->c[i], p->a[i]);
}
