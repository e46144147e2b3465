/* HumanoidRig: the joint frames, built once from the rest pose.
 *
 * Walking the rig parents first, every bone gets its T-pose world rotation T: its rest world
 * rotation, carried along by the correction of the bones above it, and for a mapped bone turned
 * by the shortest rotation from its (carried) rest direction onto its canonical T-pose direction
 * (legs down, arms out along ±X, spine up …). That correction is what lets an A-pose rig take
 * the same angles as a T-pose rig. The joint frame is built in world space from the T-pose
 * direction and the character's axes, so nothing depends on the rig's local bone axes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "humanoid_internal.h"

/* ---- double-precision quaternions ---- */

mf_dquat mf_dq(mf_quat q) { return (mf_dquat){q.x, q.y, q.z, q.w}; }
mf_quat mf_dq_f(mf_dquat q) { return (mf_quat){(float)q.x, (float)q.y, (float)q.z, (float)q.w}; }
mf_dquat mf_dq_conj(mf_dquat q) { return (mf_dquat){-q.x, -q.y, -q.z, q.w}; }
mf_dquat mf_dq_mul(mf_dquat a, mf_dquat b)
{
    return (mf_dquat){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                      a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
mf_dquat mf_dq_axis_angle(double ax, double ay, double az, double radians)
{
    double s = sin(radians * 0.5);
    return (mf_dquat){ax * s, ay * s, az * s, cos(radians * 0.5)};
}

/* ---- canonical directions and axis hints (left and centre bones, character axes) ---- */

typedef enum mode {
    M_HIPS,       /* no correction; the frame is the character's axes */
    M_STRAIGHT,   /* turned onto the canonical direction */
    M_KEEP_PITCH, /* turned to point forward, keeping the rest pose's slope (feet, toes) */
    M_MEASURED,   /* carried along by the parent only (fingers, eyes, jaw) */
    M_CARRIED     /* carried along by the parent, frame on the canonical direction (hands) */
} mode;

typedef struct hint {
    mode mode;
    mf_vec3 dir, flex, abduct;
} hint;

static hint hint_of(mf_humanoid_bone left)
{
    const mf_vec3 X = {1, 0, 0}, Y = {0, 1, 0}, Z = {0, 0, 1}, NX = {-1, 0, 0}, NY = {0, -1, 0}, NZ = {0, 0, -1};
    switch (left) {
    case MF_HB_HIPS: return (hint){M_HIPS, Y, X, NZ};
    case MF_HB_SPINE: case MF_HB_CHEST: case MF_HB_UPPER_CHEST: case MF_HB_NECK: case MF_HB_HEAD:
        return (hint){M_STRAIGHT, Y, X, NZ}; /* flex: bend forward; abduct: lean left */
    case MF_HB_LEFT_EYE: return (hint){M_MEASURED, Z, X, Y}; /* flex: look down; abduct: look outward */
    case MF_HB_JAW: return (hint){M_MEASURED, {0, -0.4472136f, 0.8944272f}, X, Y}; /* flex: open */
    case MF_HB_LEFT_UPPER_LEG: return (hint){M_STRAIGHT, NY, NX, Z}; /* flex: swing forward */
    case MF_HB_LEFT_LOWER_LEG: return (hint){M_STRAIGHT, NY, X, Z};  /* flex: heel back */
    case MF_HB_LEFT_FOOT: return (hint){M_KEEP_PITCH, {0, -0.4472136f, 0.8944272f}, NX, Y}; /* flex: toes up */
    case MF_HB_LEFT_TOES: return (hint){M_KEEP_PITCH, Z, NX, Y};
    case MF_HB_LEFT_SHOULDER: case MF_HB_LEFT_UPPER_ARM: case MF_HB_LEFT_LOWER_ARM:
        return (hint){M_STRAIGHT, X, NY, Z}; /* flex: forward; abduct: up */
    /* hands keep their rest pose relative to the forearm: where a rig's hand "points" depends
     * on which fingers it has, so straightening it would tilt it by that */
    case MF_HB_LEFT_HAND: return (hint){M_CARRIED, X, NZ, NY}; /* flex: towards the palm; abduct: thumb side */
    case MF_HB_LEFT_THUMB_METACARPAL: case MF_HB_LEFT_THUMB_PROXIMAL: case MF_HB_LEFT_THUMB_DISTAL:
        return (hint){M_MEASURED, {0.7071068f, 0, 0.7071068f}, Y, {0.7071068f, 0, -0.7071068f}};
    default: /* fingers: flex curls towards the palm */
        return (hint){M_MEASURED, X, NZ, NY};
    }
}

static mf_vec3 mirror_x(mf_vec3 v) { return mf_v3(-v.x, v.y, v.z); }

/* The hint for any bone: right bones mirror the left one's (axes as -M·axis, so that the same
 * angles give the mirrored rotation). */
static hint hint_for(mf_humanoid_bone b, float *twist_sign)
{
    hint h = hint_of(mf_hb_left(b));
    *twist_sign = 1;
    if (mf_humanoid_bone_side(b) == MF_HSIDE_RIGHT) {
        h.dir = mirror_x(h.dir);
        h.flex = mf_v3_scale(mirror_x(h.flex), -1);
        h.abduct = mf_v3_scale(mirror_x(h.abduct), -1);
        *twist_sign = -1;
    }
    return h;
}

/* The canonical child whose pivot gives a bone its direction (first mapped wins). */
static void targets(mf_humanoid_bone b, int *out)
{
    for (int k = 0; k < 4; k++) out[k] = -1;
    mf_humanoid_bone l = mf_hb_left(b);
    bool right = l != b;
    int t[4] = {-1, -1, -1, -1};
    switch (l) {
    case MF_HB_SPINE: t[0] = MF_HB_CHEST, t[1] = MF_HB_UPPER_CHEST, t[2] = MF_HB_NECK; break;
    case MF_HB_CHEST: t[0] = MF_HB_UPPER_CHEST, t[1] = MF_HB_NECK; break;
    case MF_HB_UPPER_CHEST: t[0] = MF_HB_NECK; break;
    case MF_HB_NECK: t[0] = MF_HB_HEAD; break;
    case MF_HB_LEFT_UPPER_LEG: t[0] = MF_HB_LEFT_LOWER_LEG; break;
    case MF_HB_LEFT_LOWER_LEG: t[0] = MF_HB_LEFT_FOOT; break;
    case MF_HB_LEFT_FOOT: t[0] = MF_HB_LEFT_TOES; break;
    case MF_HB_LEFT_SHOULDER: t[0] = MF_HB_LEFT_UPPER_ARM; break;
    case MF_HB_LEFT_UPPER_ARM: t[0] = MF_HB_LEFT_LOWER_ARM; break;
    case MF_HB_LEFT_LOWER_ARM: t[0] = MF_HB_LEFT_HAND; break;
    case MF_HB_LEFT_HAND:
        t[0] = MF_HB_LEFT_MIDDLE_PROXIMAL, t[1] = MF_HB_LEFT_RING_PROXIMAL, t[2] = MF_HB_LEFT_INDEX_PROXIMAL;
        t[3] = MF_HB_LEFT_LITTLE_PROXIMAL;
        break;
    case MF_HB_LEFT_THUMB_METACARPAL: case MF_HB_LEFT_THUMB_PROXIMAL:
    case MF_HB_LEFT_INDEX_PROXIMAL: case MF_HB_LEFT_INDEX_INTERMEDIATE:
    case MF_HB_LEFT_MIDDLE_PROXIMAL: case MF_HB_LEFT_MIDDLE_INTERMEDIATE:
    case MF_HB_LEFT_RING_PROXIMAL: case MF_HB_LEFT_RING_INTERMEDIATE:
    case MF_HB_LEFT_LITTLE_PROXIMAL: case MF_HB_LEFT_LITTLE_INTERMEDIATE:
        t[0] = (int)l + 1;
        break;
    default: break;
    }
    for (int k = 0; k < 4; k++)
        out[k] = t[k] < 0 ? -1 : right ? (int)mf_humanoid_bone_mirror((mf_humanoid_bone)t[k]) : t[k];
}

/* First bone at or below `from` whose pivot is away from `origin` (depth first, children
 * best aligned with `want` first); -1 when everything below sits on it. */
static int32_t away(const mf_humanoid_skeleton *s, const mf_htree *t, int32_t from, mf_vec3 origin, mf_vec3 want,
                    int depth)
{
    if (depth > 256) return -1;
    float eps = mf_htree_eps(t);
    if (mf_v3_length(mf_v3_sub(t->pos[from], origin)) > eps) return from;
    int32_t best = -1;
    float best_dot = -2;
    for (int32_t k = 0; k < t->child_count[from]; k++) {
        int32_t c = away(s, t, t->children[from][k], origin, want, depth + 1);
        if (c < 0) continue;
        float d = mf_v3_dot(mf_v3_normalize(mf_v3_sub(t->pos[c], origin)), want);
        if (d > best_dot) best = c, best_dot = d;
    }
    return best;
}

/* The rest direction of a mapped bone in world space; false when nothing below it sits
 * anywhere else. want: the direction expected (for picking among children). */
static bool rest_direction(const mf_humanoid_rig *r, const mf_htree *t, mf_humanoid_bone b, mf_vec3 want,
                           mf_vec3 *dir)
{
    int32_t i = r->map.bone[b];
    int tg[4];
    targets(b, tg);
    int32_t hit = -1;
    for (int k = 0; k < 4 && hit < 0; k++) {
        int32_t tb = tg[k] >= 0 ? r->map.bone[tg[k]] : -1;
        if (tb >= 0 && tb != i && mf_htree_is_ancestor(t, i, tb)) hit = away(r->s, t, tb, t->pos[i], want, 0);
    }
    if (hit < 0) hit = away(r->s, t, i, t->pos[i], want, 0);
    if (hit < 0) return false;
    *dir = mf_v3_normalize(mf_v3_sub(t->pos[hit], t->pos[i]));
    return true;
}

static mf_quat rotation_of(const mf_mat4 *m)
{
    mf_quat q;
    mf_mat4_to_trs(m, NULL, &q, NULL);
    return q;
}

/* Character axes → world. */
static mf_vec3 to_world(const mf_humanoid_rig *r, mf_vec3 v)
{
    return mf_v3_add(mf_v3_add(mf_v3_scale(r->left, v.x), mf_v3_scale(r->up, v.y)), mf_v3_scale(r->forward, v.z));
}

static mf_vec3 orthogonal(mf_vec3 v, mf_vec3 axis) { return mf_v3_sub(v, mf_v3_scale(axis, mf_v3_dot(v, axis))); }

/* Frame axes from the T-pose direction c and the hints; B and sigma. */
static void build_frame(mf_hjoint *j, mf_vec3 c, const hint *h, float twist_sign, const mf_humanoid_rig *r)
{
    mf_vec3 hf = to_world(r, h->flex), ha = to_world(r, h->abduct);
    mf_vec3 u1 = mf_v3_scale(c, twist_sign);
    mf_vec3 ef = orthogonal(hf, c), ea;
    if (mf_v3_length(ef) > 0.2f) {
        ef = mf_v3_normalize(ef);
        ea = mf_v3_cross(c, ef);
        if (mf_v3_dot(ea, ha) < 0) ea = mf_v3_scale(ea, -1);
    } else { /* the bone lies along the flex hint: start from the abduct hint */
        ea = mf_v3_normalize(orthogonal(ha, c));
        ef = mf_v3_cross(c, ea);
        if (mf_v3_dot(ef, hf) < 0) ef = mf_v3_scale(ef, -1);
    }
    j->twist_axis = u1;
    j->abduct_axis = ea;
    j->flex_axis = ef;
    j->sigma = mf_v3_dot(mf_v3_cross(u1, ea), ef) >= 0 ? 1.0 : -1.0;
}

static mf_dquat frame_quat(const mf_hjoint *j)
{
    mf_vec3 f = mf_v3_scale(j->flex_axis, (float)j->sigma);
    return mf_dq(mf_quat_from_basis(j->twist_axis, j->abduct_axis, f));
}

static void measure(mf_humanoid_rig *r, const mf_htree *t)
{
    const mf_humanoid_skeleton *s = r->s;
    const int32_t *b = r->map.bone;
    /* proportions, in world units along the character's up */
    float floor = INFINITY, top = -INFINITY;
    int32_t top_bone = -1;
    for (int32_t i = 0; i < s->bone_count; i++) {
        float h = mf_v3_dot(t->pos[i], r->up);
        if (h < floor) floor = h;
        if (h > top) top = h, top_bone = i;
    }
    if (top_bone == b[MF_HB_HEAD] && b[MF_HB_NECK] >= 0) /* no bone above the head: estimate its top */
        top += 1.5f * mf_v3_length(mf_v3_sub(t->pos[b[MF_HB_HEAD]], t->pos[b[MF_HB_NECK]]));
    mf_humanoid_proportions *p = &r->proportions;
    p->height = top - floor;
    float hip = 0, leg = 0, arm = 0, angle = 0;
    for (int side = 0; side < 2; side++) {
        int o = side ? 4 : 0;
        mf_vec3 ul = t->pos[b[MF_HB_LEFT_UPPER_LEG + o]], ll = t->pos[b[MF_HB_LEFT_LOWER_LEG + o]];
        mf_vec3 ft = t->pos[b[MF_HB_LEFT_FOOT + o]];
        mf_vec3 ua = t->pos[b[MF_HB_LEFT_UPPER_ARM + o]], la = t->pos[b[MF_HB_LEFT_LOWER_ARM + o]];
        mf_vec3 hd = t->pos[b[MF_HB_LEFT_HAND + o]];
        hip += 0.5f * (mf_v3_dot(ul, r->up) - floor);
        leg += 0.5f * (mf_v3_length(mf_v3_sub(ll, ul)) + mf_v3_length(mf_v3_sub(ft, ll)));
        arm += 0.5f * (mf_v3_length(mf_v3_sub(la, ua)) + mf_v3_length(mf_v3_sub(hd, la)));
        mf_vec3 d = mf_v3_normalize(mf_v3_sub(la, ua));
        float dn = -mf_v3_dot(d, r->up);
        if (dn > 1) dn = 1;
        if (dn < -1) dn = -1;
        angle += 0.5f * asinf(dn) * 57.29577951f;
    }
    p->hip_height = hip;
    p->leg_length = leg;
    p->arm_length = arm;
    p->shoulder_width = mf_v3_length(mf_v3_sub(t->pos[b[MF_HB_LEFT_UPPER_ARM]], t->pos[b[MF_HB_RIGHT_UPPER_ARM]]));
    r->arm_angle = angle;
    r->rest_kind = fabsf(angle) <= 15 ? MF_REST_T : angle > 15 && angle <= 65 ? MF_REST_A : MF_REST_OTHER;
}

mf_result mf_humanoid_rig_create(const mf_humanoid_skeleton *s, const mf_humanoid_map *map, mf_humanoid_rig **out,
                                 mf_diag *diag)
{
    *out = NULL;
    if (!s || !map) return MF_ERR_ARGUMENT;
    for (int b = 0; b < MF_HB_COUNT; b++) {
        if (map->bone[b] >= s->bone_count || map->bone[b] < -1) {
            mf_diag_set(diag, s->file, "", "%s maps to bone %d, but the skeleton has %d bones",
                        mf_humanoid_bone_name((mf_humanoid_bone)b), map->bone[b], s->bone_count);
            return MF_ERR_ARGUMENT;
        }
        if (mf_humanoid_bone_required((mf_humanoid_bone)b) && map->bone[b] < 0) {
            mf_diag_set(diag, s->file, "", "the humanoid map lacks the required bone %s",
                        mf_humanoid_bone_name((mf_humanoid_bone)b));
            return MF_ERR_INVALID;
        }
    }
    mf_humanoid_rig *r = calloc(1, sizeof *r);
    mf_htree t = {0};
    int32_t n = s->bone_count;
    int *canon = r ? malloc(sizeof(int) * (size_t)n) : NULL;
    mf_quat *rest = canon ? malloc(sizeof(mf_quat) * (size_t)n) : NULL;
    if (rest) r->tpose = malloc(sizeof(mf_quat) * (size_t)n);
    if (!rest || !r->tpose || !mf_htree_init(&t, s)) {
        free(canon);
        free(rest);
        mf_humanoid_rig_free(r);
        mf_diag_set(diag, s->file, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    r->s = s;
    r->map = *map;
    mf_vec3 up = mf_hsnap_axis(map->up), fw = mf_hsnap_axis(map->forward);
    if (fabsf(mf_v3_dot(up, fw)) > 0.5f) up = mf_v3(0, 1, 0), fw = mf_v3(0, 0, 1);
    r->up = up;
    r->forward = fw;
    r->left = mf_v3_cross(up, fw);
    for (int32_t i = 0; i < n; i++) canon[i] = -1;
    for (int b = 0; b < MF_HB_COUNT; b++)
        if (map->bone[b] >= 0) canon[map->bone[b]] = b;

    for (int32_t i = 0; i < n; i++) {
        int32_t p = s->parents[i];
        mf_dquat parent_rest = mf_dq(p >= 0 ? rest[p] : rotation_of(&s->parent_world[i]));
        mf_dquat parent_t = p >= 0 ? mf_dq(r->tpose[p]) : parent_rest;
        mf_dquat w = mf_dq_mul(parent_rest, mf_dq(s->rest_rotation[i]));
        rest[i] = mf_dq_f(w);
        /* carried along by the corrections above */
        mf_dquat g = mf_dq_mul(parent_t, mf_dq_conj(parent_rest));
        mf_dquat tq = mf_dq_mul(g, w);
        int b = canon[i];
        if (b >= 0) {
            float twist_sign;
            hint h = hint_for((mf_humanoid_bone)b, &twist_sign);
            mf_vec3 want = mf_v3_normalize(to_world(r, h.dir)), c = want, dir;
            mf_quat gf = mf_dq_f(g);
            bool has_dir = h.mode != M_HIPS && h.mode != M_CARRIED && rest_direction(r, &t, (mf_humanoid_bone)b, want, &dir);
            mf_vec3 carried = has_dir ? mf_v3_normalize(mf_quat_rotate(gf, dir)) : want;
            if (h.mode == M_KEEP_PITCH && has_dir) { /* keep the slope, point forward */
                float e = mf_v3_dot(dir, r->up);
                if (e > 0.999f) e = 0.999f;
                if (e < -0.999f) e = -0.999f;
                c = mf_v3_add(mf_v3_scale(r->up, e), mf_v3_scale(r->forward, sqrtf(1 - e * e)));
            } else if (h.mode == M_MEASURED) {
                c = carried;
            } else if (h.mode == M_HIPS) {
                c = r->up;
            }
            if (has_dir && (h.mode == M_STRAIGHT || h.mode == M_KEEP_PITCH))
                tq = mf_dq_mul(mf_dq(mf_quat_from_to(carried, c)), tq);
            r->tpose[i] = mf_dq_f(tq);
            mf_hjoint *j = &r->joint[b];
            j->mapped = true;
            build_frame(j, c, &h, twist_sign, r);
            mf_dquat B = frame_quat(j);
            j->pre = mf_dq_mul(mf_dq_conj(parent_t), B);
            j->post = mf_dq_mul(mf_dq_conj(B), mf_dq(r->tpose[i]));
        } else {
            r->tpose[i] = mf_dq_f(tq);
        }
    }
    int32_t hips = map->bone[MF_HB_HIPS];
    mf_mat4 pw = s->parent_world[hips];
    pw.m[12] = pw.m[13] = pw.m[14] = 0;
    if (!mf_mat4_invert_affine(&pw, &r->hips_parent_inv)) r->hips_parent_inv = mf_mat4_identity();
    measure(r, &t);
    mf_htree_free(&t);
    free(canon);
    free(rest);
    *out = r;
    return MF_OK;
}

void mf_humanoid_rig_free(mf_humanoid_rig *r)
{
    if (!r) return;
    free(r->tpose);
    free(r);
}

const mf_humanoid_skeleton *mf_humanoid_rig_skeleton(const mf_humanoid_rig *r) { return r->s; }

int32_t mf_humanoid_rig_bone(const mf_humanoid_rig *r, mf_humanoid_bone b)
{
    return (int)b >= 0 && b < MF_HB_COUNT ? r->map.bone[b] : -1;
}

mf_humanoid_proportions mf_humanoid_rig_proportions(const mf_humanoid_rig *r) { return r->proportions; }

mf_humanoid_rest_kind mf_humanoid_rig_rest_kind(const mf_humanoid_rig *r, float *arm_angle)
{
    if (arm_angle) *arm_angle = r->arm_angle;
    return r->rest_kind;
}

bool mf_humanoid_rig_frame(const mf_humanoid_rig *r, mf_humanoid_bone b, mf_vec3 *twist_axis, mf_vec3 *abduct_axis,
                           mf_vec3 *flex_axis)
{
    if ((int)b < 0 || b >= MF_HB_COUNT || !r->joint[b].mapped) return false;
    if (twist_axis) *twist_axis = r->joint[b].twist_axis;
    if (abduct_axis) *abduct_axis = r->joint[b].abduct_axis;
    if (flex_axis) *flex_axis = r->joint[b].flex_axis;
    return true;
}

mf_quat mf_humanoid_rig_tpose_world(const mf_humanoid_rig *r, int32_t rig_bone)
{
    return rig_bone >= 0 && rig_bone < r->s->bone_count ? r->tpose[rig_bone] : mf_quat_identity();
}
