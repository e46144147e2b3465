#version 450
// GPU skinning (mf_gpu.h): one workgroup an item. An item skins its attachment's vertices from
// the rig's tables with its instance's bone palette (and deform offsets), or copies the CPU's
// clipped geometry, writes mf_batch_vertex records and its indices rebased on the stream.
layout(local_size_x = 64) in;

// the rig (gpu_rig.c): FLOATS, influences {bone bits, weight, x, y}, spans, attachments
// (8 words: flags, vertex count, index count, vertex first, influence first, triangle first,
// uv first, bone) and triangles (item-relative, uint32)
layout(std430, set = 0, binding = 0) readonly buffer RigFloats { float rig_floats[]; };
layout(std430, set = 0, binding = 1) readonly buffer RigInfl { vec4 rig_infl[]; };
layout(std430, set = 0, binding = 2) readonly buffer RigSpans { uvec2 rig_spans[]; };
layout(std430, set = 0, binding = 3) readonly buffer RigAtts { uint rig_atts[]; };
layout(std430, set = 0, binding = 4) readonly buffer RigTris { uint rig_tris[]; };
// the frame (gpu_batch.c): items (8 words), instances (8 words), clipped items (4 words) and
// the words (palettes, deform, clipped geometry); the streams
layout(std430, set = 1, binding = 0) readonly buffer Frame { uint fw[]; };
layout(std430, set = 1, binding = 1) writeonly buffer OutVertices { uint out_v[]; };
layout(std430, set = 1, binding = 2) writeonly buffer OutIndices { uint out_i[]; };

layout(push_constant) uniform Push {
    uint item_first, item_count, groups_x, inst_off, direct_off;
} pc;

const uint NONE = 0xffffffffu;
const uint DIRECT = 0x80000000u;
const uint WEIGHTED = 1u, NO_UVS = 2u;

float ff(uint w) { return uintBitsToFloat(fw[w]); }

void put(uint v, float x, float y, float u, float t, uint light, uint dark, uint inst)
{
    uint ib = pc.inst_off + 8u * inst;
    float a = ff(ib + 1u), b = ff(ib + 2u), c = ff(ib + 3u), d = ff(ib + 4u), e = ff(ib + 5u), f = ff(ib + 6u);
    uint o = 6u * v;
    out_v[o] = floatBitsToUint(a * x + c * y + e);
    out_v[o + 1u] = floatBitsToUint(b * x + d * y + f);
    out_v[o + 2u] = floatBitsToUint(u);
    out_v[o + 3u] = floatBitsToUint(t);
    out_v[o + 4u] = light;
    out_v[o + 5u] = dark;
}

void main()
{
    uint k = gl_WorkGroupID.y * pc.groups_x + gl_WorkGroupID.x;
    if (k >= pc.item_count) return;
    uint base = 8u * (pc.item_first + k);
    uint att = fw[base], inst = fw[base + 1u], vout = fw[base + 2u], iout = fw[base + 3u];
    uint light = fw[base + 4u], dark = fw[base + 5u], uv_set = fw[base + 6u], def = fw[base + 7u];
    uint lid = gl_LocalInvocationID.x;
    if ((att & DIRECT) != 0u) { // clipped on the CPU: x, y, u, v a vertex, then the indices
        uint db = pc.direct_off + 4u * (att & ~DIRECT);
        uint nv = fw[db], ni = fw[db + 1u], vo = fw[db + 2u], io = fw[db + 3u];
        for (uint v = lid; v < nv; v += 64u)
            put(vout + v, ff(vo + 4u * v), ff(vo + 4u * v + 1u), ff(vo + 4u * v + 2u), ff(vo + 4u * v + 3u), light,
                dark, inst);
        for (uint j = lid; j < ni; j += 64u) out_i[iout + j] = vout + fw[io + j];
        return;
    }
    uint ab = 8u * att;
    uint flags = rig_atts[ab], nv = rig_atts[ab + 1u], ni = rig_atts[ab + 2u], vfirst = rig_atts[ab + 3u];
    uint ifirst = rig_atts[ab + 4u], tfirst = rig_atts[ab + 5u], uvb = rig_atts[ab + 6u] + 2u * nv * uv_set;
    uint pal = fw[pc.inst_off + 8u * inst];
    for (uint v = lid; v < nv; v += 64u) {
        float x, y;
        if ((flags & WEIGHTED) != 0u) {
            uvec2 sp = rig_spans[vfirst + v];
            float sx = 0.0, sy = 0.0;
            for (uint j = 0u; j < sp.y; j++) {
                vec4 r = rig_infl[sp.x + j];
                float w = r.y, lx = r.z, ly = r.w;
                if (def != NONE) {
                    uint dw = def + 2u * (sp.x + j - ifirst);
                    lx += ff(dw), ly += ff(dw + 1u);
                }
                uint m = pal + 6u * floatBitsToUint(r.x);
                sx += (ff(m) * lx + ff(m + 1u) * ly + ff(m + 2u)) * w;
                sy += (ff(m + 3u) * lx + ff(m + 4u) * ly + ff(m + 5u)) * w;
            }
            x = sx, y = sy;
        } else {
            float lx = rig_floats[vfirst + 2u * v], ly = rig_floats[vfirst + 2u * v + 1u];
            if (def != NONE) lx += ff(def + 2u * v), ly += ff(def + 2u * v + 1u);
            uint m = pal + 6u * rig_atts[ab + 7u];
            x = ff(m) * lx + ff(m + 1u) * ly + ff(m + 2u);
            y = ff(m + 3u) * lx + ff(m + 4u) * ly + ff(m + 5u);
        }
        float u = 0.0, t = 0.0;
        if ((flags & NO_UVS) == 0u) u = rig_floats[uvb + 2u * v], t = rig_floats[uvb + 2u * v + 1u];
        put(vout + v, x, y, u, t, light, dark, inst);
    }
    for (uint j = lid; j < ni; j += 64u) out_i[iout + j] = vout + rig_tris[tfirst + j];
}
