#version 450
// World transforms on the GPU (mf_gpu_batch_add_local): one invocation an instance walks its
// bones in order (parents first) from the local pose the CPU sampled and writes the palette
// skin.comp reads (6 floats a bone: a, b, wx, c, d, wy). The same steps as the CPU's world update
// (src/runtime/pose/pose_world.c) for a rig without constraints, all five inherit modes; results
// agree within float rounding, not bit for bit (the GPU's own cos, sin, atan2 and sqrt).
layout(local_size_x = 64) in;

// the rig's parents (gpu_rig.c: set 0, binding 5; -1 for a root)
layout(std430, set = 0, binding = 5) readonly buffer RigParents { int rig_parent[]; };
// the frame (gpu_batch.c): instance records {palette, placement[6], locals}; the locals are
// x, y, rot, sx, sy, shx, shy as 7 arrays of bone_count floats, then the inherit modes 4 a word
layout(std430, set = 1, binding = 0) buffer Frame { uint fw[]; };

layout(push_constant) uniform Push {
    uint inst_first, inst_count, bone_count, inst_off, groups_x;
} pc;

const uint NONE = 0xffffffffu;
const float DEG = 0.017453292519943295;
// mf_sd inherit modes
const uint NORMAL = 0u, ONLY_TRANSLATION = 1u, NO_ROTATION_OR_REFLECTION = 2u, NO_SCALE = 3u,
           NO_SCALE_OR_REFLECTION = 4u;

float ff(uint w) { return uintBitsToFloat(fw[w]); }

// cos and sin of degrees, reduced to [-180, 180] first: the GPU's sin and cos lose accuracy
// far from zero
vec2 cos_sin(float deg)
{
    float r = deg - 360.0 * round(deg / 360.0);
    return vec2(cos(r * DEG), sin(r * DEG));
}

float atan2d(float y, float x) { return (x == 0.0 && y == 0.0) ? 0.0 : degrees(atan(y, x)); }

void main()
{
    uint k = (gl_WorkGroupID.y * pc.groups_x + gl_WorkGroupID.x) * 64u + gl_LocalInvocationID.x;
    if (k >= pc.inst_count) return;
    uint ib = pc.inst_off + 8u * (pc.inst_first + k);
    uint loc = fw[ib + 7u];
    if (loc == NONE) return; // its palette came from the CPU
    uint pal = fw[ib], n = pc.bone_count;
    for (uint i = 0u; i < n; i++) {
        float x = ff(loc + i), y = ff(loc + n + i), rot = ff(loc + 2u * n + i);
        float sx = ff(loc + 3u * n + i), sy = ff(loc + 4u * n + i);
        float shx = ff(loc + 5u * n + i), shy = ff(loc + 6u * n + i);
        uint inherit = (fw[loc + 7u * n + i / 4u] >> (8u * (i % 4u))) & 255u;
        if (inherit > NO_SCALE_OR_REFLECTION) inherit = NORMAL; // as the CPU takes a byte no mode has
        int par = rig_parent[i];
        uint o = pal + 6u * i;
        float a, b, c, d, wx, wy;
        if (par < 0) {
            inherit = NORMAL;
            a = 1.0, b = 0.0, c = 0.0, d = 1.0, wx = 0.0, wy = 0.0; // the parent is the identity
        } else {
            uint po = pal + 6u * uint(par);
            a = ff(po), b = ff(po + 1u), wx = ff(po + 2u), c = ff(po + 3u), d = ff(po + 4u), wy = ff(po + 5u);
        }
        float nx = a * x + b * y + wx, ny = c * x + d * y + wy;
        vec4 m = vec4(a, b, c, d); // the matrix the local one is multiplied by
        if (inherit == ONLY_TRANSLATION) {
            m = vec4(1.0, 0.0, 0.0, 1.0);
        } else if (inherit == NO_ROTATION_OR_REFLECTION) { // the parent's scale in its own orientation
            float s2 = a * a + c * c;
            float prot;
            if (s2 > 0.0001) {
                float q = abs(a * d - b * c) / s2;
                m = vec4(a, -c * q, c, a * q);
                prot = atan2d(c, a);
            } else {
                m = vec4(0.0, b, 0.0, d);
                prot = 90.0 - atan2d(d, b);
            }
            rot -= prot;
        } else if (inherit != NORMAL) { // NoScale, NoScaleOrReflection: a unit frame
            vec2 r = cos_sin(rot);
            float za = a * r.x + b * r.y, zc = c * r.x + d * r.y;
            float len = sqrt(za * za + zc * zc);
            if (len > 0.00001) za /= len, zc /= len;
            float s = sqrt(za * za + zc * zc);
            if (inherit == NO_SCALE && a * d - b * c < 0.0) s = -s;
            vec2 z = cos_sin(90.0 + atan2d(zc, za));
            m = vec4(za, z.x * s, zc, z.y * s);
            rot = 0.0;
        }
        // the local 2×2 as the CPU's (pose_world.c: the mirror image of Spine's Y-up one)
        vec2 tx = cos_sin((0.0 - rot) - shx), ty = cos_sin(((0.0 - rot) + 90.0) + (0.0 - shy));
        float l0 = tx.x * sx, l1 = -(ty.x * sy), l2 = -(tx.y * sx), l3 = ty.y * sy;
        fw[o] = floatBitsToUint(m.x * l0 + m.y * l2);
        fw[o + 1u] = floatBitsToUint(m.x * l1 + m.y * l3);
        fw[o + 2u] = floatBitsToUint(par < 0 ? x : nx);
        fw[o + 3u] = floatBitsToUint(m.z * l0 + m.w * l2);
        fw[o + 4u] = floatBitsToUint(m.z * l1 + m.w * l3);
        fw[o + 5u] = floatBitsToUint(par < 0 ? y : ny);
    }
}
