#version 450
// World transforms on the GPU (mf_gpu_batch_add_local, _add_physics): one invocation an instance
// runs the rig's update order from the local pose the CPU sampled, bones, IK, transform, path and
// physics constraints interleaved, and writes the palette skin.comp reads (6 floats a bone: a, b,
// wx, c, d, wy). The same steps as the CPU's world update (src/runtime/pose/pose_world.c,
// pose_ik.c, pose_transform.c, pose_path.c, pose_physics_solve.c), all five inherit modes;
// results agree within float rounding, not bit for bit (floats where the CPU's IK, world-space
// transform and path constraints use doubles; the GPU's own cos, sin, atan2 and sqrt).
layout(local_size_x = 64) in;

// the pose program (gpu_rig.c): update count, IK count, bone count; parents; lengths; the
// update order (PROG_IK | k for IK k, PROG_TF | k for transform constraint k, PROG_PATH or
// PROG_PHYS | its record's word for a path or a physics constraint, else a bone); 4 words an
// IK: bone, second bone or NONE, target, uniform; 10 words a transform constraint: target, the
// word its bones start at, their count, local | relative << 1, 6 offsets; their bones; 7 words a
// path constraint (gpu_internal.h: the slot's bone, bones' word, count, modes, rotation offset,
// its local words' place, scratch S); 10 words a physics constraint (gpu_internal.h)
layout(std430, set = 0, binding = 5) readonly buffer RigProgram { uint prog[]; };
// the rig's floats, influences, spans and attachment records (skin.comp): path attachments
layout(std430, set = 0, binding = 0) readonly buffer RigFloats { float rig_floats[]; };
layout(std430, set = 0, binding = 1) readonly buffer RigInfl { vec4 rig_infl[]; };
layout(std430, set = 0, binding = 2) readonly buffer RigSpans { uvec2 rig_spans[]; };
layout(std430, set = 0, binding = 3) readonly buffer RigAtts { uint rig_atts[]; };
// the frame (gpu_batch.c): instance records {palette, placement[6], locals}; the locals are
// x, y, rot, sx, sy, shx, shy as 7 arrays of bone_count floats (the applied pose: constraints
// rewrite them here), the inherit modes 4 a word, then 3 words an IK: mix, softness, flags; then
// 7 words a transform constraint: 6 mixes (rotate, x, y, scaleX, scaleY, shearY), active; then
// 8 words a path constraint: 3 mixes, position, spacing, active, attachment (NONE: none), its
// deform's word from the locals' start (NONE: none); with physics constraints 2 words and 14 a
// constraint (gpu_internal.h); those deforms. The palette is followed by
// the path constraints' scratch (written here, never uploaded).
layout(std430, set = 1, binding = 0) buffer Frame { uint fw[]; };

layout(push_constant) uniform Push {
    uint inst_first, inst_count, bone_count, inst_off, groups_x;
} pc;

const uint NONE = 0xffffffffu, PROG_IK = 0x80000000u, PROG_TF = 0x40000000u, PROG_PATH = 0x20000000u,
           PROG_PHYS = 0x10000000u, PROG_KIND = 0xf0000000u, TF_WORDS = 10u, TF_LOCAL_WORDS = 7u;
// path attachment records (gpu_rig.c)
const uint ATT_WORDS = 8u, WEIGHTED = 1u, CLOSED = 4u, CONSTANT = 8u;
const float DEG = 0.017453292519943295, RAD = 57.29577951308232, PI = 3.14159265358979;
// mf_sd inherit modes
const uint NORMAL = 0u, ONLY_TRANSLATION = 1u, NO_ROTATION_OR_REFLECTION = 2u, NO_SCALE = 3u,
           NO_SCALE_OR_REFLECTION = 4u;
// the applied arrays, in the order of the locals
const uint AX = 0u, AY = 1u, AROT = 2u, ASX = 3u, ASY = 4u, ASHX = 5u, ASHY = 6u;

uint g_loc, g_pal, g_n;

float ff(uint w) { return uintBitsToFloat(fw[w]); }
float ap(uint k, uint i) { return ff(g_loc + k * g_n + i); }
void set_ap(uint k, uint i, float v) { fw[g_loc + k * g_n + i] = floatBitsToUint(v); }
int parent_of(uint i) { return int(prog[3u + i]); }
float length_of(uint i) { return uintBitsToFloat(prog[3u + g_n + i]); }
uint inherit_of(uint i)
{
    uint m = (fw[g_loc + 7u * g_n + i / 4u] >> (8u * (i % 4u))) & 255u;
    return m > NO_SCALE_OR_REFLECTION ? NORMAL : m; // as the CPU takes a byte no mode has
}
// a bone's world: {a, b, c, d} and {wx, wy}
vec4 wm(uint i) { uint o = g_pal + 6u * i; return vec4(ff(o), ff(o + 1u), ff(o + 3u), ff(o + 4u)); }
vec2 wt(uint i) { uint o = g_pal + 6u * i; return vec2(ff(o + 2u), ff(o + 5u)); }

// cos and sin of degrees, reduced to [-180, 180] first: the GPU's sin and cos lose accuracy
// far from zero
vec2 cos_sin(float deg)
{
    float r = deg - 360.0 * round(deg / 360.0);
    return vec2(cos(r * DEG), sin(r * DEG));
}

float atan2d(float y, float x) { return (x == 0.0 && y == 0.0) ? 0.0 : degrees(atan(y, x)); }
float atan2r(float y, float x) { return (x == 0.0 && y == 0.0) ? (x < 0.0 || (x == 0.0 && 1.0 / x < 0.0) ? 3.14159265 : 0.0) : atan(y, x); }

// The parent's world of bone i, the identity for a root.
void parent_world(int par, out vec4 m, out vec2 t)
{
    m = vec4(1.0, 0.0, 0.0, 1.0), t = vec2(0.0);
    if (par >= 0) m = wm(uint(par)), t = wt(uint(par));
}

// The parent's matrix with its rotation taken out (NoRotationOrReflection): its scale in its
// own orientation; prot gets the parent's rotation in degrees (pose_world.c: strip_rotation).
vec4 strip_rotation(vec4 m, out float prot)
{
    float a = m.x, b = m.y, c = m.z, d = m.w, s2 = a * a + c * c;
    if (s2 > 0.0001) {
        float q = abs(a * d - b * c) / s2;
        prot = atan2d(c, a);
        return vec4(a, -c * q, c, a * q);
    }
    prot = 90.0 - atan2d(d, b);
    return vec4(0.0, b, 0.0, d);
}

// The unit frame of a NoScale bone turned by rot under the parent m (pose_world.c: unit_frame).
vec4 unit_frame(vec4 m, float rot, bool keep_reflection)
{
    float a = m.x, b = m.y, c = m.z, d = m.w;
    vec2 r = cos_sin(rot);
    float za = a * r.x + b * r.y, zc = c * r.x + d * r.y;
    float len = sqrt(za * za + zc * zc);
    if (len > 0.00001) za /= len, zc /= len;
    float s = sqrt(za * za + zc * zc);
    if (keep_reflection && a * d - b * c < 0.0) s = -s;
    vec2 z = cos_sin(90.0 + atan2d(zc, za));
    return vec4(za, z.x * s, zc, z.y * s);
}

// Bone i's world from its applied values and its parent's world (pose_world.c: world_of).
void world_of(uint i)
{
    float x = ap(AX, i), y = ap(AY, i), rot = ap(AROT, i), sx = ap(ASX, i), sy = ap(ASY, i);
    float shx = ap(ASHX, i), shy = ap(ASHY, i);
    int par = parent_of(i);
    uint inherit = par < 0 ? NORMAL : inherit_of(i); // a root's mode has nothing to act on
    vec4 m; // the matrix the local one is multiplied by: first the parent's
    vec2 t;
    parent_world(par, m, t);
    float nx = m.x * x + m.y * y + t.x, ny = m.z * x + m.w * y + t.y;
    if (inherit == ONLY_TRANSLATION) {
        m = vec4(1.0, 0.0, 0.0, 1.0);
    } else if (inherit == NO_ROTATION_OR_REFLECTION) { // the parent's scale in its own orientation
        float prot;
        m = strip_rotation(m, prot);
        rot -= prot;
    } else if (inherit != NORMAL) { // NoScale, NoScaleOrReflection: a unit frame
        m = unit_frame(m, rot, inherit == NO_SCALE);
        rot = 0.0;
    }
    // the local 2×2 as the CPU's (pose_world.c: the mirror image of Spine's Y-up one)
    vec2 tx = cos_sin((0.0 - rot) - shx), ty = cos_sin(((0.0 - rot) + 90.0) + (0.0 - shy));
    float l0 = tx.x * sx, l1 = -(ty.x * sy), l2 = -(tx.y * sx), l3 = ty.y * sy;
    uint o = g_pal + 6u * i;
    fw[o] = floatBitsToUint(m.x * l0 + m.y * l2);
    fw[o + 1u] = floatBitsToUint(m.x * l1 + m.y * l3);
    fw[o + 2u] = floatBitsToUint(par < 0 ? x : nx);
    fw[o + 3u] = floatBitsToUint(m.z * l0 + m.w * l2);
    fw[o + 4u] = floatBitsToUint(m.z * l1 + m.w * l3);
    fw[o + 5u] = floatBitsToUint(par < 0 ? y : ny);
}

float wrap180(float r) { return r > 180.0 ? r - 360.0 : r < -180.0 ? r + 360.0 : r; }

// One bone turned towards the target (pose_ik.c: ik_one).
void ik_one(uint bone, vec2 target, bool compress, bool stretch, bool uniform_, float mix)
{
    int par = parent_of(bone);
    vec4 pm;
    vec2 pt;
    parent_world(par, pm, pt);
    float pa = pm.x, pb = pm.y, pc = pm.z, pd = pm.w;
    float rot_ik = -ap(ASHX, bone) - ap(AROT, bone);
    float tx, ty;
    uint inh = inherit_of(bone);
    vec2 bw = wt(bone);
    if (inh == ONLY_TRANSLATION) {
        tx = target.x - bw.x, ty = target.y - bw.y;
    } else {
        if (inh == NO_ROTATION_OR_REFLECTION) { // the parent without its rotation, added back
            float s2 = pa * pa + pc * pc;
            float k = abs(pa * pd - pb * pc) / max(s2, 0.0001);
            pb = -pc * k, pd = pa * k;
            rot_ik += atan2r(pc, pa) * RAD;
        }
        float x = target.x - pt.x, y = target.y - pt.y, det = pa * pd - pb * pc;
        if (abs(det) <= 0.0001) tx = 0.0, ty = 0.0;
        else tx = (x * pd - y * pb) / det - ap(AX, bone), ty = (y * pa - x * pc) / det - ap(AY, bone);
    }
    rot_ik += atan2r(ty, tx) * RAD;
    if (ap(ASX, bone) < 0.0) rot_ik += 180.0;
    rot_ik = wrap180(rot_ik);
    float sx = ap(ASX, bone), sy = ap(ASY, bone);
    if (compress || stretch) {
        if (inh == NO_SCALE || inh == NO_SCALE_OR_REFLECTION) tx = target.x - bw.x, ty = target.y - bw.y;
        float b = length_of(bone) * sx;
        if (b > 0.0001) {
            float dd = tx * tx + ty * ty;
            if ((compress && dd < b * b) || (stretch && dd > b * b)) {
                float s = (sqrt(dd) / b - 1.0) * mix + 1.0;
                sx *= s;
                if (uniform_) sy *= s;
            }
        }
    }
    set_ap(AROT, bone, ap(AROT, bone) + rot_ik * mix);
    set_ap(ASX, bone, sx), set_ap(ASY, bone, sy);
    world_of(bone);
}

// A point on the child's reach ellipse at distance sqrt(dd) from the parent (pose_ik.c).
bool ellipse_solve(float l1, float ea, float eb, float dd, float bend, out float xo, out float yo)
{
    xo = 0.0, yo = 0.0;
    float aa = ea * ea, bb = eb * eb;
    float c0 = bb * l1 * l1 + aa * dd - aa * bb, c1 = -2.0 * bb * l1, c2 = bb - aa;
    float disc = c1 * c1 - 4.0 * c2 * c0;
    if (disc < 0.0) return false;
    float q = sqrt(disc);
    if (c1 < 0.0) q = -q;
    q = -(c1 + q) * 0.5;
    float r0 = q / c2, r1 = c0 / q;
    float r = abs(r0) < abs(r1) ? r0 : r1;
    float y2 = dd - r * r;
    if (!(y2 >= 0.0)) return false;
    xo = r, yo = sqrt(y2) * bend;
    return true;
}

// Two bones solving the triangle (pose_ik.c: ik_two).
void ik_two(uint parent, uint child, vec2 target, float bend, bool stretch, bool uniform_, float softness,
            float mix)
{
    if (inherit_of(parent) != NORMAL || inherit_of(child) != NORMAL) return;
    float px = ap(AX, parent), py = ap(AY, parent);
    float psx = ap(ASX, parent), psy = ap(ASY, parent), sx = psx, sy = psy;
    float csx = ap(ASX, child);
    float o1, o2, s2;
    if (psx < 0.0) psx = -psx, o1 = 180.0, s2 = -1.0;
    else o1 = 0.0, s2 = 1.0;
    if (psy < 0.0) psy = -psy, s2 = -s2;
    if (csx < 0.0) csx = -csx, o2 = 180.0;
    else o2 = 0.0;
    float cx = ap(AX, child), cy, cwx, cwy;
    vec4 pm = wm(parent);
    vec2 pt = wt(parent);
    float a = pm.x, b = pm.y, c = pm.z, d = pm.w;
    bool u = abs(psx - psy) <= 0.0001;
    if (!u || stretch) {
        cy = 0.0, cwx = a * cx + pt.x, cwy = c * cx + pt.y;
    } else {
        cy = ap(AY, child), cwx = a * cx + b * cy + pt.x, cwy = c * cx + d * cy + pt.y;
    }
    int pp = parent_of(parent);
    vec4 qm;
    vec2 qt;
    parent_world(pp, qm, qt);
    float qa = qm.x, qb = qm.y, qc = qm.z, qd = qm.w;
    float id = qa * qd - qb * qc;
    id = abs(id) <= 0.0001 ? 0.0 : 1.0 / id;
    float x = cwx - qt.x, y = cwy - qt.y;
    float dx = (x * qd - y * qb) * id - px, dy = (y * qa - x * qc) * id - py;
    float l1 = sqrt(dx * dx + dy * dy), l2 = length_of(child) * csx;
    if (l1 < 0.0001) {
        ik_one(parent, target, false, stretch, false, mix);
        set_ap(AX, child, cx), set_ap(AY, child, cy), set_ap(AROT, child, 0.0);
        world_of(child);
        return;
    }
    x = target.x - qt.x, y = target.y - qt.y;
    float tx = (x * qd - y * qb) * id - px, ty = (y * qa - x * qc) * id - py;
    float dd = tx * tx + ty * ty;
    if (softness != 0.0) { // ease the last `softness` pixels of reach
        float soft = softness * psx * (csx + 1.0) * 0.5;
        float td = sqrt(dd), sd = td - l1 - l2 * psx + soft;
        if (sd > 0.0) {
            float q = sd / (soft * 2.0);
            q = (q < 1.0 ? q : 1.0) - 1.0;
            q = (sd - soft * (1.0 - q * q)) / td;
            tx -= q * tx, ty -= q * ty;
            dd = tx * tx + ty * ty;
        }
    }
    float a1, a2;
    if (u) {
        l2 *= psx;
        float cs = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2), sn = 0.0;
        if (cs < -1.0) {
            cs = -1.0, a2 = 3.14159265358979 * bend;
        } else if (cs > 1.0) {
            cs = 1.0, a2 = 0.0;
            if (stretch) {
                float s = (sqrt(dd) / (l1 + l2) - 1.0) * mix + 1.0;
                sx *= s;
                if (uniform_) sy *= s;
            }
        } else {
            float sq = sqrt((1.0 - cs) * (1.0 + cs));
            a2 = atan2r(sq, cs) * bend;
            sn = sq * bend;
        }
        float ea = l1 + l2 * cs, eb = l2 * sn;
        a1 = atan2r(ty * ea - tx * eb, tx * ea + ty * eb);
    } else {
        float ea = psx * l2, eb = psy * l2, ta = atan2r(ty, tx);
        float ex, ey;
        if (ellipse_solve(l1, ea, eb, dd, bend, ex, ey)) {
            a1 = ta - atan2r(ey, ex);
            a2 = atan2r(ey / psy, (ex - l1) / psx);
        } else { // out of reach: the nearest or farthest point of the ellipse
            float min_ang = 3.14159265358979, min_x = l1 - ea, min_d = min_x * min_x, min_y = 0.0;
            float max_ang = 0.0, max_x = l1 + ea, max_d = max_x * max_x, max_y = 0.0;
            float k = -ea * l1 / (ea * ea - eb * eb);
            if (k >= -1.0 && k <= 1.0) {
                float ks = sqrt((1.0 - k) * (1.0 + k));
                float kx = ea * k + l1, ky = eb * ks, kd = kx * kx + ky * ky;
                k = atan2r(ks, k);
                if (kd < min_d) min_ang = k, min_d = kd, min_x = kx, min_y = ky;
                if (kd > max_d) max_ang = k, max_d = kd, max_x = kx, max_y = ky;
            }
            if (dd <= (min_d + max_d) * 0.5) a1 = ta - atan2r(min_y * bend, min_x), a2 = min_ang * bend;
            else a1 = ta - atan2r(max_y * bend, max_x), a2 = max_ang * bend;
        }
    }
    // the child's offset angle: 0 where it sits on the parent's axis (cx >= +0)
    float os = cy == 0.0 && !(cx < 0.0 || (cx == 0.0 && 1.0 / cx < 0.0)) ? 0.0 : atan2r(cy, cx) * s2;
    float rot = ap(AROT, parent);
    a1 = wrap180((a1 - os) * RAD + o1 - rot);
    float prot = rot + a1 * mix;
    rot = ap(AROT, child);
    float cshx = ap(ASHX, child), cshy = ap(ASHY, child); // read before the parent's are zeroed
    a2 = wrap180(((a2 + os) * RAD - cshx) * s2 + o2 - rot);
    float crot = rot + a2 * mix;
    set_ap(AX, parent, px), set_ap(AY, parent, py);
    set_ap(AROT, parent, prot), set_ap(ASX, parent, sx), set_ap(ASY, parent, sy);
    set_ap(ASHX, parent, 0.0), set_ap(ASHY, parent, 0.0);
    world_of(parent);
    // the child's shears as read: the same bone's when parent == child (the CPU updates it twice)
    set_ap(AX, child, cx), set_ap(AY, child, cy), set_ap(AROT, child, crot);
    set_ap(ASHX, child, cshx), set_ap(ASHY, child, cshy);
    world_of(child);
}

// IK constraint k (pose_ik.c: mf_pose_apply_ik), with the instance's mix, softness and flags.
void apply_ik(uint k, uint n_update)
{
    uint s = g_loc + 7u * g_n + (g_n + 3u) / 4u + 3u * k;
    float mix = ff(s), softness = ff(s + 1u);
    uint flags = fw[s + 2u];
    if ((flags & 0x400u) == 0u || mix == 0.0) return; // inactive (skin), or no mix
    uint r = 3u + 2u * g_n + n_update + 4u * k;
    uint b0 = prog[r], b1 = prog[r + 1u], t = prog[r + 2u];
    bool uniform_ = prog[r + 3u] != 0u;
    vec2 target = wt(t);
    if (b1 == NONE) {
        ik_one(b0, target, (flags & 0x100u) != 0u, (flags & 0x200u) != 0u, uniform_, mix);
    } else {
        int bend = int(flags << 24) >> 24; // the signed byte
        ik_two(b0, b1, target, float(bend), (flags & 0x200u) != 0u, uniform_, softness, mix);
    }
}

// Bone i's world 2x2 and origin written.
void set_world(uint i, vec4 m, vec2 t)
{
    uint o = g_pal + 6u * i;
    fw[o] = floatBitsToUint(m.x), fw[o + 1u] = floatBitsToUint(m.y), fw[o + 2u] = floatBitsToUint(t.x);
    fw[o + 3u] = floatBitsToUint(m.z), fw[o + 4u] = floatBitsToUint(m.w), fw[o + 5u] = floatBitsToUint(t.y);
}

// Bone i's applied values from its world (pose_world.c: mf_pose_update_applied, pose_applied.h):
// its origin in its parent's frame and its 2x2 relative to the parent's, with no x shear. Later
// constraints and its children read them.
void update_applied(uint i)
{
    int par = parent_of(i);
    vec4 w = wm(i);
    vec2 t = wt(i);
    vec4 r = w;
    float extra = 0.0; // rotation the inherit mode holds outside the relative matrix
    if (par < 0) {
        set_ap(AX, i, t.x), set_ap(AY, i, t.y);
    } else {
        vec4 pm;
        vec2 pt;
        parent_world(par, pm, pt);
        float det = pm.x * pm.w - pm.y * pm.z, inv = abs(det) > 1e-12 ? 1.0 / det : 0.0;
        float dx = t.x - pt.x, dy = t.y - pt.y;
        set_ap(AX, i, (dx * pm.w - dy * pm.y) * inv), set_ap(AY, i, (dy * pm.x - dx * pm.z) * inv);
        uint inh = inherit_of(i);
        vec4 m = pm; // the matrix the relative one is taken from
        if (inh == ONLY_TRANSLATION) {
            m = vec4(1.0, 0.0, 0.0, 1.0);
        } else if (inh == NO_ROTATION_OR_REFLECTION) {
            m = strip_rotation(pm, extra);
        } else if (inh != NORMAL) {
            extra = ap(AROT, i);
            m = unit_frame(pm, extra, inh == NO_SCALE);
        }
        float md = m.x * m.w - m.y * m.z, mi = abs(md) > 1e-12 ? 1.0 / md : 0.0;
        r = vec4((m.w * w.x - m.y * w.z) * mi, (m.w * w.y - m.y * w.w) * mi, (m.x * w.z - m.z * w.x) * mi,
                 (m.x * w.w - m.z * w.y) * mi);
    }
    // r = R(rot)·shear(shy)·scale(sx, sy)
    set_ap(ASHX, i, 0.0);
    float sx = sqrt(r.x * r.x + r.z * r.z);
    if (sx > 0.0001) {
        float det = r.x * r.w - r.y * r.z, sy = sqrt(r.y * r.y + r.w * r.w);
        if (det < 0.0) sy = -sy;
        float dot = r.x * r.y + r.z * r.w;
        set_ap(ASX, i, sx), set_ap(ASY, i, sy), set_ap(AROT, i, atan2d(r.z, r.x) + extra);
        set_ap(ASHY, i, sy != 0.0 ? atan2d(abs(det), det < 0.0 ? -dot : dot) - 90.0 : 0.0);
    } else {
        set_ap(ASX, i, 0.0), set_ap(ASY, i, sqrt(r.y * r.y + r.w * r.w)), set_ap(ASHY, i, 0.0);
        set_ap(AROT, i, 90.0 - atan2d(r.w, r.y) + extra);
    }
}

// Bone i's applied x, y alone from its world origin (pose_applied.h: mf_pose_applied_origin).
void update_origin(uint i)
{
    int par = parent_of(i);
    vec2 t = wt(i);
    if (par < 0) {
        set_ap(AX, i, t.x), set_ap(AY, i, t.y);
        return;
    }
    vec4 pm;
    vec2 pt;
    parent_world(par, pm, pt);
    float det = pm.x * pm.w - pm.y * pm.z, inv = abs(det) > 1e-12 ? 1.0 / det : 0.0;
    float dx = t.x - pt.x, dy = t.y - pt.y;
    set_ap(AX, i, (dx * pm.w - dy * pm.y) * inv), set_ap(AY, i, (dy * pm.x - dx * pm.z) * inv);
}

// cos and sin of radians, reduced to [-pi, pi] first (as cos_sin)
vec2 cos_sin_r(float r)
{
    r -= 2.0 * PI * round(r / (2.0 * PI));
    return vec2(cos(r), sin(r));
}
float wrap_pi(float r) { return r > PI ? r - 2.0 * PI : r < -PI ? r + 2.0 * PI : r; }
float wrap_deg(float r) { return r - ceil(r / 360.0 - 0.5) * 360.0; }

// A transform constraint in world space (pose_transform.c: world_mode), in floats where the
// CPU uses doubles.
void tf_world(uint r, float mix[6], float off[6], bool relative)
{
    uint tg = prog[r], first = prog[r + 1u], count = prog[r + 2u];
    float off_rot = off[0], off_x = off[1], off_y = off[2], off_sx = off[3], off_sy = off[4], off_shy = off[5];
    vec4 tm = wm(tg);
    vec2 tt = wt(tg);
    float ta = tm.x, tb = tm.y, tc = tm.z, td = tm.w;
    float reflect = ta * td - tb * tc > 0.0 ? DEG : -DEG; // a reflected target turns the other way
    off_rot *= reflect, off_shy *= reflect;
    // the offset point in the target's space, in world coordinates
    float ox = ta * off_x + tb * off_y + tt.x, oy = tc * off_x + td * off_y + tt.y;
    float tx_ang = mix[0] != 0.0 || mix[5] > 0.0 ? atan2r(tc, ta) : 0.0;
    float ty_ang = mix[5] > 0.0 ? atan2r(td, tb) : 0.0;
    float ts_x = sqrt(ta * ta + tc * tc), ts_y = sqrt(tb * tb + td * td);
    for (uint k = 0u; k < count; k++) {
        uint i = prog[first + k];
        vec4 m = wm(i);
        vec2 t = wt(i);
        if (mix[0] != 0.0) {
            float a = relative ? tx_ang + off_rot : tx_ang - atan2r(m.z, m.x) + off_rot;
            vec2 cs = cos_sin_r(wrap_pi(a) * mix[0]);
            m = vec4(cs.x * m.x - cs.y * m.z, cs.x * m.y - cs.y * m.w, cs.y * m.x + cs.x * m.z,
                     cs.y * m.y + cs.x * m.w);
        }
        if (relative) t += vec2(ox * mix[1], oy * mix[2]);
        else t += vec2((ox - t.x) * mix[1], (oy - t.y) * mix[2]);
        if (mix[3] != 0.0) {
            float s = sqrt(m.x * m.x + m.z * m.z);
            float f = relative ? (ts_x - 1.0 + off_sx) * mix[3] + 1.0
                               : (s != 0.0 ? (s + (ts_x - s + off_sx) * mix[3]) / s : 1.0);
            m.x *= f, m.z *= f;
        }
        if (mix[4] != 0.0) {
            float s = sqrt(m.y * m.y + m.w * m.w);
            float f = relative ? (ts_y - 1.0 + off_sy) * mix[4] + 1.0
                               : (s != 0.0 ? (s + (ts_y - s + off_sy) * mix[4]) / s : 1.0);
            m.y *= f, m.w *= f;
        }
        if (mix[5] > 0.0) {
            float by = atan2r(m.w, m.y), a;
            if (relative) a = by + (wrap_pi(ty_ang - tx_ang) - PI / 2.0 + off_shy) * mix[5];
            else a = by + (wrap_pi(ty_ang - tx_ang - (by - atan2r(m.z, m.x))) + off_shy) * mix[5];
            float s = sqrt(m.y * m.y + m.w * m.w);
            vec2 cs = cos_sin_r(a);
            m.y = cs.x * s, m.w = cs.y * s;
        }
        set_world(i, m, t);
        update_applied(i);
    }
}

// A transform constraint in local space (pose_transform.c: local_mode): on the applied values,
// then the bone's world from them.
void tf_local(uint r, float mix[6], float off[6], bool relative)
{
    uint tg = prog[r], first = prog[r + 1u], count = prog[r + 2u];
    float off_rot = off[0], off_x = off[1], off_y = off[2], off_sx = off[3], off_sy = off[4], off_shy = off[5];
    for (uint k = 0u; k < count; k++) {
        uint i = prog[first + k];
        float rot = ap(AROT, i), x = ap(AX, i), y = ap(AY, i), sx = ap(ASX, i), sy = ap(ASY, i), shy = ap(ASHY, i);
        if (relative) {
            rot += (ap(AROT, tg) + off_rot) * mix[0];
            x += (ap(AX, tg) + off_x) * mix[1];
            y += (ap(AY, tg) + off_y) * mix[2];
            sx *= (ap(ASX, tg) - 1.0 + off_sx) * mix[3] + 1.0;
            sy *= (ap(ASY, tg) - 1.0 + off_sy) * mix[4] + 1.0;
            shy += (ap(ASHY, tg) + off_shy) * mix[5];
        } else {
            if (mix[0] != 0.0) rot += wrap_deg(ap(AROT, tg) - rot + off_rot) * mix[0];
            x += (ap(AX, tg) - x + off_x) * mix[1];
            y += (ap(AY, tg) - y + off_y) * mix[2];
            if (mix[3] != 0.0) sx += (ap(ASX, tg) - sx + off_sx) * mix[3];
            if (mix[4] != 0.0) sy += (ap(ASY, tg) - sy + off_sy) * mix[4];
            if (mix[5] != 0.0) shy += wrap_deg(ap(ASHY, tg) - shy + off_shy) * mix[5];
        }
        set_ap(AROT, i, rot), set_ap(AX, i, x), set_ap(AY, i, y);
        set_ap(ASX, i, sx), set_ap(ASY, i, sy), set_ap(ASHY, i, shy);
        world_of(i);
    }
}

// Transform constraint k (pose_transform.c: mf_pose_apply_transform), with the instance's mixes.
void apply_tf(uint k, uint n_update)
{
    uint n_ik = prog[1];
    uint s = g_loc + 7u * g_n + (g_n + 3u) / 4u + 3u * n_ik + TF_LOCAL_WORDS * k;
    if (fw[s + 6u] == 0u) return; // inactive (skin)
    float mix[6];
    bool any = false;
    for (uint c = 0u; c < 6u; c++) mix[c] = ff(s + c), any = any || mix[c] != 0.0;
    if (!any) return;
    uint r = 3u + 2u * g_n + n_update + 4u * n_ik + TF_WORDS * k;
    uint flags = prog[r + 3u];
    float off[6]; // rot, x, y, scaleX, scaleY, shearY
    for (uint c = 0u; c < 6u; c++) off[c] = uintBitsToFloat(prog[r + 4u + c]);
    if ((flags & 1u) != 0u) tf_local(r, mix, off, (flags & 2u) != 0u);
    else tf_world(r, mix, off, (flags & 2u) != 0u);
}

// Path constraints (pose_path.c), in floats where the CPU uses doubles. The path attachment's
// vertices are made again from its record (gpu_rig.c) and the bones' worlds each time one is
// read; spaces, lengths, positions and curve lengths live in the instance's scratch words after
// its palette (p_scr).
uint p_att, p_def, p_bone, p_scr, p_s;
const float PATH_EPS = 0.00001;

float sc(uint i) { return ff(p_scr + i); }
void set_sc(uint i, float v) { fw[p_scr + i] = floatBitsToUint(v); }

// World vertex i of the path attachment (geom_vertices.c: world_vertex), with its deform.
vec2 path_vertex(uint i)
{
    uint ab = ATT_WORDS * p_att;
    if ((rig_atts[ab] & WEIGHTED) == 0u) {
        uint vf = rig_atts[ab + 3u];
        float x = rig_floats[vf + 2u * i], y = rig_floats[vf + 2u * i + 1u];
        if (p_def != NONE) x += ff(g_loc + p_def + 2u * i), y += ff(g_loc + p_def + 2u * i + 1u);
        vec4 m = wm(p_bone);
        vec2 t = wt(p_bone);
        return vec2(m.x * x + m.y * y + t.x, m.z * x + m.w * y + t.y);
    }
    uvec2 sp = rig_spans[rig_atts[ab + 3u] + i];
    uint ifirst = rig_atts[ab + 4u];
    float sx = 0.0, sy = 0.0;
    for (uint j = 0u; j < sp.y; j++) {
        vec4 r = rig_infl[sp.x + j];
        float w = r.y, x = w * r.z, y = w * r.w;
        if (p_def != NONE) {
            uint dw = g_loc + p_def + 2u * (sp.x + j - ifirst);
            x += ff(dw) * w, y += ff(dw + 1u) * w;
        }
        uint b = floatBitsToUint(r.x);
        vec4 m = wm(b);
        vec2 t = wt(b);
        sx += m.x * x + m.y * y + t.x * w, sy += m.z * x + m.w * y + t.y * w;
    }
    return vec2(sx, sy);
}

void put_position(uint o, float x, float y, float r)
{
    set_sc(2u * p_s + o, x), set_sc(2u * p_s + o + 1u, y), set_sc(2u * p_s + o + 2u, r);
}

// before the path's start along its first segment; after its end along its last (p0 to p1)
void add_line(float pos, vec2 p0, vec2 p1, bool after, uint o)
{
    float r = atan2r(p1.y - p0.y, p1.x - p0.x);
    vec2 cs = cos_sin_r(r), at = after ? p1 : p0;
    put_position(o, at.x + pos * cs.x, at.y + pos * cs.y, r);
}

// The point at t of the bezier c, with its tangent angle when asked (pose_path.c: add_curve).
void add_curve(float t, float c[8], uint o, bool tangents)
{
    if (t < PATH_EPS || isnan(t)) {
        put_position(o, c[0], c[1], atan2r(c[3] - c[1], c[2] - c[0]));
        return;
    }
    float tt = t * t, ttt = tt * t, u = 1.0 - t, uu = u * u, uuu = uu * u, ut = u * t;
    float ut3 = ut * 3.0, uut3 = u * ut3, utt3 = ut3 * t;
    float x = c[0] * uuu + c[2] * uut3 + c[4] * utt3 + c[6] * ttt;
    float y = c[1] * uuu + c[3] * uut3 + c[5] * utt3 + c[7] * ttt;
    float r = sc(2u * p_s + o + 2u);
    if (tangents) {
        if (t < 0.001) r = atan2r(c[3] - c[1], c[2] - c[0]);
        else r = atan2r(y - (c[1] * uu + c[3] * ut * 2.0 + c[5] * tt), x - (c[0] * uu + c[2] * ut * 2.0 + c[4] * tt));
    }
    put_position(o, x, y, r);
}

// Arc length of c in `steps` steps by forward differencing; seg gets the running lengths.
float bezier_length(float c[8], uint steps, inout float seg[10], bool keep)
{
    float h = 1.0 / float(steps);
    float tmpx = (c[0] - c[2] * 2.0 + c[4]) * 3.0 * h * h, tmpy = (c[1] - c[3] * 2.0 + c[5]) * 3.0 * h * h;
    float dddx = ((c[2] - c[4]) * 3.0 - c[0] + c[6]) * 6.0 * h * h * h;
    float dddy = ((c[3] - c[5]) * 3.0 - c[1] + c[7]) * 6.0 * h * h * h;
    float ddx = tmpx * 2.0 + dddx, ddy = tmpy * 2.0 + dddy;
    float dx = (c[2] - c[0]) * 3.0 * h + tmpx + dddx / 6.0, dy = (c[3] - c[1]) * 3.0 * h + tmpy + dddy / 6.0;
    float len = 0.0;
    for (uint s = 0u; s < steps; s++) {
        len += sqrt(dx * dx + dy * dy);
        if (keep) seg[s] = len;
        dx += ddx, dy += ddy;
        ddx += dddx, ddy += dddy;
    }
    return len;
}

// The curve of 4 points from vertex v (v + k wrapping round a closed path of vc vertices).
void load_curve(uint v, uint vc, bool wrap, out float c[8])
{
    for (uint k = 0u; k < 4u; k++) {
        vec2 q = path_vertex(wrap ? (v + k) % vc : v + k);
        c[2u * k] = q.x, c[2u * k + 1u] = q.y;
    }
}

float path_mod(float pos, float len)
{
    pos -= len * trunc(pos / len);
    return pos < 0.0 ? pos + len : pos;
}

// The positions (pose_path.c: world_positions) into the scratch; false when the path has too
// few curves or lengths.
bool world_positions(float position, uint n_spaces, bool tangents, uint pos_mode, uint spacing_mode)
{
    uint ab = ATT_WORDS * p_att, flags = rig_atts[ab], vc = rig_atts[ab + 1u];
    bool closed = (flags & CLOSED) != 0u;
    int curve_count = int(vc) / 3, prev_curve = -1; // -2 before, -3 after
    float c[8];
    float seg[10];
    if ((flags & CONSTANT) == 0u) {
        uint lf = rig_atts[ab + 5u];
        curve_count -= closed ? 1 : 2;
        if (curve_count < 0 || curve_count >= int(rig_atts[ab + 6u])) return false;
        float path_len = rig_floats[lf + uint(curve_count)];
        if (pos_mode == 1u) position *= path_len;
        float mul = spacing_mode == 2u ? path_len : spacing_mode == 3u ? path_len / float(n_spaces) : 1.0;
        int curve = 0;
        for (uint i = 0u, o = 0u; i < n_spaces; i++, o += 3u) {
            float space = sc(i) * mul;
            position += space;
            float pos = position;
            if (closed) {
                pos = path_mod(pos, path_len);
                curve = 0;
            } else if (pos < 0.0) {
                add_line(pos, path_vertex(1u), path_vertex(2u), false, o);
                continue;
            } else if (pos > path_len) {
                add_line(pos - path_len, path_vertex(vc - 3u), path_vertex(vc - 2u), true, o);
                continue;
            }
            for (;; curve++) {
                float len = rig_floats[lf + uint(curve)];
                if (pos > len && curve < curve_count) continue;
                if (curve == 0) pos = len > 0.0 ? pos / len : 0.0;
                else {
                    float prev = rig_floats[lf + uint(curve - 1)];
                    pos = len > prev ? (pos - prev) / (len - prev) : 0.0;
                }
                break;
            }
            if (closed && curve == curve_count) load_curve(vc - 2u, vc, true, c);
            else load_curve(uint(curve) * 3u + 1u, vc, false, c);
            add_curve(pos, c, o, tangents || (i > 0u && space == 0.0));
        }
        return true;
    }
    // constant speed: measure the curves; world vertex j of the CPU's list is path vertex
    // j + 1 (wrapping round a closed path)
    if (!closed) curve_count--;
    if (curve_count <= 0) return false;
    uint cv = 5u * p_s; // curve lengths
    float path_len = 0.0;
    for (int i = 0; i < curve_count; i++) {
        load_curve(3u * uint(i) + 1u, vc, closed, c);
        path_len += bezier_length(c, 4u, seg, false);
        set_sc(cv + uint(i), path_len);
    }
    if (pos_mode == 1u) position *= path_len;
    float mul = spacing_mode == 2u ? path_len : spacing_mode == 3u ? path_len / float(n_spaces) : 1.0;
    float curve_len = 0.0;
    int curve = 0, segment = 0;
    for (uint i = 0u, o = 0u; i < n_spaces; i++, o += 3u) {
        float space = sc(i) * mul;
        position += space;
        float pos = position;
        if (closed) {
            pos = path_mod(pos, path_len);
            curve = 0, segment = 0;
        } else if (pos < 0.0) {
            add_line(pos, path_vertex(1u), path_vertex(2u), false, o);
            continue;
        } else if (pos > path_len) {
            add_line(pos - path_len, path_vertex(vc - 3u), path_vertex(vc - 2u), true, o);
            continue;
        }
        for (;; curve++) {
            float len = sc(cv + uint(curve));
            if (pos > len && curve < curve_count - 1) continue;
            if (curve == 0) pos = len > 0.0 ? pos / len : 0.0;
            else {
                float prev = sc(cv + uint(curve - 1));
                pos = len > prev ? (pos - prev) / (len - prev) : 0.0;
            }
            break;
        }
        load_curve(3u * uint(curve) + 1u, vc, closed, c);
        if (curve != prev_curve) {
            prev_curve = curve;
            curve_len = bezier_length(c, 10u, seg, true);
            segment = 0;
        }
        pos *= curve_len;
        for (;; segment++) {
            float len = seg[segment];
            if (pos > len && segment < 9) continue;
            if (segment == 0) pos = len > 0.0 ? pos / len : 0.0;
            else {
                float prev = seg[segment - 1];
                pos = float(segment) + (len > prev ? (pos - prev) / (len - prev) : 0.0);
            }
            break;
        }
        add_curve(pos * 0.1, c, o, tangents || (i > 0u && space == 0.0));
    }
    return true;
}

// Path constraint of record r (pose_path.c: mf_pose_apply_path), with the instance's words.
void apply_path(uint r)
{
    uint lw = g_loc + prog[r + 5u];
    if (fw[lw + 5u] == 0u) return; // inactive (skin)
    float mix_rot = ff(lw), mix_x = ff(lw + 1u), mix_y = ff(lw + 2u);
    if (mix_rot == 0.0 && mix_x == 0.0 && mix_y == 0.0) return;
    p_att = fw[lw + 6u];
    if (p_att == NONE) return; // the slot shows no path
    p_def = fw[lw + 7u], p_bone = prog[r], p_s = prog[r + 6u], p_scr = g_pal + 6u * g_n;
    uint first = prog[r + 1u], count = prog[r + 2u], modes = prog[r + 3u];
    uint pos_mode = modes & 255u, spacing_mode = (modes >> 8) & 255u, rotate_mode = modes >> 16;
    bool tangents = rotate_mode == 0u, scale = rotate_mode == 2u;
    uint n_spaces = tangents ? count : count + 1u;
    float spacing = ff(lw + 4u), sum = 0.0;
    set_sc(0u, 0.0);
    for (uint i = 0u; i + 1u < n_spaces; i++) {
        uint b = prog[first + i];
        float setup = length_of(b);
        vec4 m = wm(b);
        float x = setup * m.x, y = setup * m.z, len = sqrt(x * x + y * y), space;
        // the CPU's setup < 0.00001 in doubles: the float 0.00001 is below the double one
        bool zero = setup <= PATH_EPS;
        if (scale) set_sc(p_s + i, zero ? 0.0 : len);
        if (spacing_mode == 2u) space = spacing; // percent
        else if (spacing_mode == 3u) { // proportional
            if (zero) space = spacing;
            else space = len, sum += len;
        } else // length, fixed
            space = zero ? spacing : (spacing_mode == 0u ? setup + spacing : spacing) * len / setup;
        set_sc(i + 1u, space);
    }
    if (spacing_mode == 3u && sum > 0.0) {
        float f = float(n_spaces) / sum * spacing;
        for (uint i = 1u; i < n_spaces; i++) set_sc(i, sc(i) * f);
    }
    if (!world_positions(ff(lw + 3u), n_spaces, tangents, pos_mode, spacing_mode)) return;
    uint q0 = 2u * p_s;
    float bx = sc(q0), by = sc(q0 + 1u), off = uintBitsToFloat(prog[r + 4u]);
    bool tip;
    if (off == 0.0) tip = rotate_mode == 1u;
    else {
        tip = false;
        vec4 tm = wm(p_bone);
        off *= tm.x * tm.w - tm.y * tm.z > 0.0 ? DEG : -DEG;
    }
    for (uint i = 0u, q = q0 + 3u; i < count; i++, q += 3u) {
        uint b = prog[first + i];
        vec4 m = wm(b);
        vec2 t = wt(b);
        t.x += (bx - t.x) * mix_x;
        t.y += (by - t.y) * mix_y;
        float x = sc(q), y = sc(q + 1u), dx = x - bx, dy = y - by;
        if (scale) {
            float len = sc(p_s + i);
            if (len != 0.0) {
                float s = (sqrt(dx * dx + dy * dy) / len - 1.0) * mix_rot + 1.0;
                m.x *= s, m.z *= s;
            }
        }
        bx = x, by = y;
        if (mix_rot > 0.0) {
            float a = m.x, bb = m.y, c = m.z, d = m.w, rr;
            if (tangents) rr = sc(q - 1u);
            else if (sc(i + 1u) == 0.0) rr = sc(q + 2u);
            else rr = atan2r(dy, dx);
            rr -= atan2r(c, a);
            if (tip) {
                vec2 cs = cos_sin_r(rr);
                float len = length_of(b);
                bx += (len * (cs.x * a - cs.y * c) - dx) * mix_rot;
                by += (len * (cs.y * a + cs.x * c) - dy) * mix_rot;
            } else
                rr += off;
            vec2 cs = cos_sin_r(wrap_pi(rr) * mix_rot);
            m = vec4(cs.x * a - cs.y * c, cs.x * bb - cs.y * d, cs.y * a + cs.x * c, cs.y * bb + cs.x * d);
        }
        set_world(b, m, t);
        update_applied(b);
    }
}

// Physics constraints (pose_physics_solve.c: mf_pose_apply_physics and update), the springs'
// state in the batch's state buffer (MF_GPU_PHYS_STATE floats a constraint), written here
// only. The host accounts the time in doubles as the CPU does (gpu_batch.c: put_physics) and
// hands each frame the steps to run, whether to rest first, the mode and the springs' settings.
layout(std430, set = 1, binding = 3) buffer PhysState { float ps[]; };
const uint PH_XY = 1u, PH_ROTATE = 2u, PH_SHEAR = 4u, PH_SCALE = 8u, PH_SPIN = 16u;
const uint PF_RUN = 1u, PF_REST = 2u, PF_UPDATE = 4u, PF_CAPPED = 8u, PHYS_STATE = 12u, PHYS_HEAD_WORDS = 2u,
           PHYS_LOCAL_WORDS = 14u;
const uint MODE_UPDATE = 0u, MODE_NONE = 2u;
// state floats: shown origin, shown tip, offsets and velocities
const uint S_UX = 0u, S_UY = 1u, S_TX = 2u, S_TY = 3u, S_XO = 4u, S_YO = 5u, S_XV = 6u, S_YV = 7u, S_RO = 8u,
           S_RV = 9u, S_SO = 10u, S_SV = 11u;
uint s_at;            // the constraint's first state float
float S[PHYS_STATE];  // its state while it runs: loaded once, stored once

float st(uint j) { return S[j]; }
void set_st(uint j, float v) { S[j] = v; }
void phys_load() { for (uint j = 0u; j < PHYS_STATE; j++) S[j] = ps[s_at + j]; }
void phys_store() { for (uint j = 0u; j < PHYS_STATE; j++) ps[s_at + j] = S[j]; }

// the shown origin and tip (origin plus the x axis times the length)
void keep_tip(uint i, float len)
{
    vec4 m = wm(i);
    vec2 t = wt(i);
    set_st(S_UX, t.x), set_st(S_UY, t.y), set_st(S_TX, t.x + m.x * len), set_st(S_TY, t.y + m.z * len);
}

void rest(uint i, float len)
{
    for (uint j = 0u; j < PHYS_STATE; j++) set_st(j, 0.0);
    keep_tip(i, len);
}

float clampm(float x, float m) { return x > m ? m : x < -m ? -m : x; }

float wrap_angle(float r)
{
    const float pi = 3.14159265;
    if (r >= -pi && r < pi) return r;
    return r - 2.0 * pi * floor((r + pi) / (2.0 * pi));
}

// the spring: strength / mass, damping kept per step, mass, wind, gravity, the step
float sp_k, sp_damp, sp_mass, sp_fx, sp_fy, sp_h;

// one step of offset o and its velocity ov (state floats) under acceleration a
void spring_step(uint o, uint ov, float a)
{
    float v = st(ov) + (a - sp_k * st(o)) * sp_h;
    set_st(o, st(o) + v * sp_h);
    set_st(ov, v * sp_damp);
}

// cos of degrees, 1 where cosf rounds to 1 anyway (pose_physics_solve.c: cos_deg)
float cos_deg(float deg)
{
    float r = deg * DEG;
    return abs(r) < 1.7e-4 ? 1.0 : cos_sin_r(r).x;
}

vec2 rotate_axis(vec2 v, float cs, float sn) { return vec2(v.x * cs - v.y * sn, v.x * sn + v.y * cs); }

// Physics constraint of record r, with the instance's words (gpu_internal.h).
void apply_phys(uint r)
{
    uint head = g_loc + prog[r + 8u], k = prog[r + 9u], lw = head + PHYS_HEAD_WORDS + PHYS_LOCAL_WORDS * k;
    uint flags = fw[lw];
    if ((flags & PF_RUN) == 0u) return; // inactive (skin or bone)
    uint i = prog[r], chan = prog[r + 1u], steps = (flags >> 8) & 255u, mode = flags >> 16;
    s_at = fw[head] + PHYS_STATE * k;
    float len = length_of(i);
    if (mode == MODE_NONE) { // bones as posed; the tip kept so that switching back shows no jump
        keep_tip(i, len);
        for (uint j = S_UX; j <= S_TY; j++) ps[s_at + j] = S[j];
        return;
    }
    if ((flags & PF_REST) == 0u) phys_load(); // else all of it written first
    float cx = uintBitsToFloat(prog[r + 2u]), cy = uintBitsToFloat(prog[r + 3u]);
    float crot = uintBitsToFloat(prog[r + 4u]), cshx = uintBitsToFloat(prog[r + 5u]);
    float cscx = uintBitsToFloat(prog[r + 6u]), turn = uintBitsToFloat(prog[r + 7u]);
    float mix = ff(lw + 1u);
    vec2 a0 = wt(i); // the animated origin
    if ((flags & PF_REST) != 0u) rest(i, len);
    if ((flags & PF_UPDATE) != 0u) {
        float inertia = ff(lw + 2u);
        sp_k = ff(lw + 3u), sp_damp = ff(lw + 4u), sp_mass = ff(lw + 5u), sp_fx = ff(lw + 6u), sp_fy = ff(lw + 7u);
        float tx = ff(lw + 8u), ty = ff(lw + 9u), h = ff(lw + 12u), limit = ff(lw + 13u);
        sp_h = h;
        float teleport = ff(head + 1u);
        float mr = turn * mix;
        float dx = a0.x - st(S_UX) + ff(lw + 10u), dy = a0.y - st(S_UY) + ff(lw + 11u);
        if (teleport > 0.0 && dx * dx + dy * dy > teleport * teleport) {
            rest(i, len); // a teleport: start over here
            dx = 0.0, dy = 0.0;
        }
        bool capped = (flags & PF_CAPPED) != 0u;
        float xo = st(S_XO), yo = st(S_YO);
        float ux = dx * inertia, uy = dy * inertia;
        if (capped) ux = clampm(ux, limit), uy = clampm(uy, limit);
        set_st(S_XO, xo - ux), set_st(S_YO, yo - uy);
        if ((chan & PH_XY) != 0u)
            for (uint j = 0u; j < steps; j++) {
                spring_step(S_XO, S_XV, tx);
                spring_step(S_YO, S_YV, ty);
            }
        if ((chan & PH_SPIN) != 0u) {
            vec4 m = wm(i);
            float ca = atan2r(m.z, m.x);
            float mx = dx + (st(S_XO) - xo) * cx * mix, my = dy + (st(S_YO) - yo) * cy * mix;
            if (capped) mx = clampm(mx, limit), my = clampm(my, limit);
            float rx = st(S_TX) - st(S_UX) - mx - xo * cx * mix;
            float ry = st(S_TY) - st(S_UY) - my - yo * cy * mix;
            set_st(S_RO, st(S_RO) + wrap_angle(atan2r(ry, rx) - ca - st(S_RO) * mr) * inertia);
            float sa = ca + st(S_RO) * mr, cs = 0.0, sn = 0.0;
            bool have = false;
            if ((chan & PH_SCALE) != 0u) {
                float xl = sqrt(m.x * m.x + m.z * m.z);
                if (len * xl > 1e-6) {
                    vec2 c = cos_sin_r(sa);
                    cs = c.x, sn = c.y, have = true;
                    set_st(S_SO, st(S_SO) - (mx * cs + my * sn) / (len * xl) * inertia);
                }
            }
            // the turning and stretching steps: the torque and pull of wind and gravity along
            // the direction shown at each step (none when calm)
            bool turns = (chan & (PH_ROTATE | PH_SHEAR)) != 0u, stretch = (chan & PH_SCALE) != 0u;
            bool calm = sp_fx == 0.0 && sp_fy == 0.0 && !isinf(len);
            for (uint j = 0u; j < steps; j++) {
                float a = ca + st(S_RO) * mr, torque = 0.0, pull = 0.0;
                if (!calm || isnan(a) || isinf(a)) {
                    vec2 c = j == 0u && have ? vec2(cs, sn) : cos_sin_r(a);
                    torque = (c.x * sp_fy - c.y * sp_fx) * len * 0.01;
                    pull = c.x * sp_fx + c.y * sp_fy;
                }
                if (turns) spring_step(S_RO, S_RV, torque / sp_mass);
                if (stretch) spring_step(S_SO, S_SV, pull / sp_mass);
            }
        }
    }
    if (mix != 0.0) {
        vec4 m = wm(i);
        vec2 t = wt(i);
        t.x += st(S_XO) * cx * mix;
        t.y += st(S_YO) * cy * mix;
        float rr = st(S_RO) * mix;
        if ((chan & PH_ROTATE) != 0u) {
            vec2 c = cos_sin_r(rr * crot);
            vec2 xa = rotate_axis(m.xz, c.x, c.y), ya = rotate_axis(m.yw, c.x, c.y);
            m = vec4(xa.x, ya.x, xa.y, ya.y);
        }
        if ((chan & PH_SHEAR) != 0u) { // shear turns the x axis only
            vec2 c = cos_sin_r(rr * cshx);
            vec2 xa = rotate_axis(m.xz, c.x, c.y);
            m.x = xa.x, m.z = xa.y;
        }
        if ((chan & PH_SCALE) != 0u) {
            float g = 1.0 + st(S_SO) * cscx * mix;
            m.x *= g, m.z *= g;
        }
        set_world(i, m, t);
        // a bone only moved with plain applied values keeps them: its origin alone recomputed
        bool plain = inherit_of(i) == NORMAL && ap(ASHX, i) == 0.0 && ap(ASHY, i) == 0.0 && ap(ASX, i) > 0.0001 &&
                     ap(AROT, i) > -180.0 && ap(AROT, i) < 180.0;
        if ((chan & (PH_ROTATE | PH_SHEAR | PH_SCALE)) == 0u && plain) {
            update_origin(i);
        } else {
            update_applied(i);
            // the y scale kept is the y axis' part across the x axis, as the reference's
            set_ap(ASY, i, ap(ASY, i) * cos_deg(ap(ASHY, i)));
        }
    }
    if (mode == MODE_UPDATE) { // the tip as shown: next frame's lag
        vec4 m = wm(i);
        vec2 t = wt(i);
        set_st(S_UX, a0.x), set_st(S_UY, a0.y), set_st(S_TX, t.x + m.x * len), set_st(S_TY, t.y + m.z * len);
    }
    phys_store();
}

void main()
{
    uint k = (gl_WorkGroupID.y * pc.groups_x + gl_WorkGroupID.x) * 64u + gl_LocalInvocationID.x;
    if (k >= pc.inst_count) return;
    uint ib = pc.inst_off + 8u * (pc.inst_first + k);
    g_loc = fw[ib + 7u];
    if (g_loc == NONE) return; // its palette came from the CPU
    g_pal = fw[ib], g_n = pc.bone_count;
    uint n_update = prog[0];
    for (uint e = 0u; e < n_update; e++) {
        uint op = prog[3u + 2u * g_n + e];
        uint kind = op & PROG_KIND;
        if (kind == 0u) world_of(op);
        else if (kind == PROG_IK) apply_ik(op & ~PROG_IK, n_update);
        else if (kind == PROG_TF) apply_tf(op & ~PROG_TF, n_update);
        else if (kind == PROG_PATH) apply_path(op & ~PROG_PATH);
        else if (kind == PROG_PHYS) apply_phys(op & ~PROG_PHYS);
    }
}
