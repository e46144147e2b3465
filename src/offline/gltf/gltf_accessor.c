/* Accessors: typed views into buffer views. Checked once up front (types, alignment, bounds,
 * sparse indices), decoded on first use and shared by every user of the same accessor. */
#include <math.h>
#include <string.h>

#include "gltf_read.h"
#include "util/suggest.h"

static size_t comp_size(int32_t t)
{
    switch (t) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return 1;
    case GL_SHORT: case GL_UNSIGNED_SHORT: return 2;
    case GL_UNSIGNED_INT: case GL_FLOAT: return 4;
    default: return 0;
    }
}

static const char *comp_name(int32_t t)
{
    switch (t) {
    case GL_BYTE: return "BYTE";
    case GL_UNSIGNED_BYTE: return "UNSIGNED_BYTE";
    case GL_SHORT: return "SHORT";
    case GL_UNSIGNED_SHORT: return "UNSIGNED_SHORT";
    case GL_UNSIGNED_INT: return "UNSIGNED_INT";
    case GL_FLOAT: return "FLOAT";
    default: return "?";
    }
}

/* one component, raw (integers as integers) or normalised */
static double read_comp(const uint8_t *p, int32_t type, bool normalized)
{
    switch (type) {
    case GL_BYTE: {
        double v = (double)(int8_t)p[0];
        return normalized ? fmax(v / 127.0, -1.0) : v;
    }
    case GL_UNSIGNED_BYTE: return normalized ? p[0] / 255.0 : (double)p[0];
    case GL_SHORT: {
        double v = (double)(int16_t)(uint16_t)(p[0] | p[1] << 8);
        return normalized ? fmax(v / 32767.0, -1.0) : v;
    }
    case GL_UNSIGNED_SHORT: {
        double v = (double)(uint16_t)(p[0] | p[1] << 8);
        return normalized ? v / 65535.0 : v;
    }
    case GL_UNSIGNED_INT: return (double)mf_le32(p);
    default: {
        uint32_t bits = mf_le32(p);
        float f;
        memcpy(&f, &bits, sizeof f);
        return (double)f;
    }
    }
}

static uint32_t read_uint(const uint8_t *p, int32_t type)
{
    switch (type) {
    case GL_UNSIGNED_BYTE: return p[0];
    case GL_UNSIGNED_SHORT: return (uint32_t)(p[0] | p[1] << 8);
    default: return mf_le32(p);
    }
}

/* byte offset of component c inside an element: matrix columns start 4-byte aligned */
static size_t comp_offset(const rd_accessor *a, int c)
{
    size_t cs = comp_size(a->comp_type);
    if (!a->rows) return (size_t)c * cs;
    size_t col_stride = ((size_t)a->rows * cs + 3) & ~(size_t)3;
    return (size_t)(c / a->rows) * col_stride + (size_t)(c % a->rows) * cs;
}

static bool parse_type(const char *s, int *ncomp, int *rows)
{
    static const struct { const char *name; int n, rows; } k[] = {
        {"SCALAR", 1, 0}, {"VEC2", 2, 0}, {"VEC3", 3, 0}, {"VEC4", 4, 0},
        {"MAT2", 4, 2}, {"MAT3", 9, 3}, {"MAT4", 16, 4}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (strcmp(s, k[i].name) == 0) {
            *ncomp = k[i].n;
            *rows = k[i].rows;
            return true;
        }
    return false;
}

/* Checks that [offset, offset + span) of view v fits, at the current path. */
static bool view_span(gltf_reader *r, int32_t v, uint64_t offset, uint64_t span, const char *what)
{
    if (offset + span > r->views[v].length)
        return mf_jr_fail(&r->jr, "%s ends at byte %llu of bufferView %d, which has %zu bytes", what,
                          (unsigned long long)(offset + span), (int)v, r->views[v].length);
    return true;
}

static const uint8_t *view_data(const gltf_reader *r, int32_t v, size_t offset)
{
    const rd_view *vw = &r->views[v];
    return r->buffers[vw->buffer].data + vw->offset + offset;
}

static bool rd_sparse(gltf_reader *r, rd_accessor *a, const cJSON *sp)
{
    size_t m = mf_jr_key(&r->jr, "sparse");
    if (!mf_jr_expect_object(&r->jr, sp)) return false;
    int32_t count;
    if (!rd_req_int(r, sp, "count", 1, &count)) return false;
    if (count > a->count)
        return mf_jr_fail_at(&r->jr, "count", "%d sparse values for an accessor of %d elements", (int)count,
                             (int)a->count);
    const char *parts[2] = {"indices", "values"};
    for (int k = 0; k < 2; k++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(sp, parts[k]);
        if (!o) return mf_jr_fail(&r->jr, "missing \"%s\"", parts[k]);
        size_t mk = mf_jr_key(&r->jr, parts[k]);
        if (!mf_jr_expect_object(&r->jr, o)) return false;
        int32_t view, off, ct = a->comp_type;
        if (!cJSON_GetObjectItemCaseSensitive(o, "bufferView")) return mf_jr_fail(&r->jr, "missing \"bufferView\"");
        if (!rd_index(r, o, "bufferView", r->view_count, "bufferView", &view) ||
            !mf_jr_int(&r->jr, o, "byteOffset", 0, &off))
            return false;
        if (off < 0) return mf_jr_fail_at(&r->jr, "byteOffset", "must not be negative");
        size_t elem = a->elem_size;
        if (k == 0) {
            if (!cJSON_GetObjectItemCaseSensitive(o, "componentType"))
                return mf_jr_fail(&r->jr, "missing \"componentType\"");
            if (!mf_jr_int(&r->jr, o, "componentType", 0, &ct)) return false;
            if (ct != GL_UNSIGNED_BYTE && ct != GL_UNSIGNED_SHORT && ct != GL_UNSIGNED_INT)
                return mf_jr_fail_at(&r->jr, "componentType",
                                     "sparse indices must be 5121, 5123 or 5125 (unsigned), got %d", (int)ct);
            elem = comp_size(ct);
        }
        if ((r->views[view].offset + (size_t)off) % comp_size(ct))
            return mf_jr_fail_at(&r->jr, "byteOffset", "data is not aligned to its %zu-byte components", comp_size(ct));
        size_t mo = mf_jr_key(&r->jr, "byteOffset");
        if (!view_span(r, view, (uint64_t)off, (uint64_t)count * elem, k ? "sparse values" : "sparse indices"))
            return false;
        mf_jr_pop(&r->jr, mo);
        if (k == 0) {
            a->sparse_idx = view_data(r, view, (size_t)off);
            a->sparse_idx_type = ct;
        } else {
            a->sparse_val = view_data(r, view, (size_t)off);
        }
        mf_jr_pop(&r->jr, mk);
    }
    /* indices strictly increasing and inside the accessor */
    size_t is = comp_size(a->sparse_idx_type);
    uint32_t prev = 0;
    for (int32_t i = 0; i < count; i++) {
        uint32_t idx = read_uint(a->sparse_idx + (size_t)i * is, a->sparse_idx_type);
        if (idx >= (uint32_t)a->count || (i > 0 && idx <= prev)) {
            mf_jr_key(&r->jr, "indices");
            if (idx >= (uint32_t)a->count)
                return mf_jr_fail(&r->jr, "index %d is %u, past the accessor's %d elements", (int)i, idx, (int)a->count);
            return mf_jr_fail(&r->jr, "index %d is %u, not greater than the one before (%u)", (int)i, idx, prev);
        }
        prev = idx;
    }
    a->sparse_count = count;
    mf_jr_pop(&r->jr, m);
    return true;
}

static bool rd_accessor_one(gltf_reader *r, rd_accessor *a, const cJSON *o)
{
    if (!mf_jr_expect_object(&r->jr, o)) return false;
    int32_t off;
    bool norm;
    if (!rd_index(r, o, "bufferView", r->view_count, "bufferView", &a->view) ||
        !mf_jr_int(&r->jr, o, "byteOffset", 0, &off) || !mf_jr_bool(&r->jr, o, "normalized", false, &norm))
        return false;
    if (!cJSON_GetObjectItemCaseSensitive(o, "componentType")) return mf_jr_fail(&r->jr, "missing \"componentType\"");
    if (!mf_jr_int(&r->jr, o, "componentType", 0, &a->comp_type)) return false;
    if (!comp_size(a->comp_type))
        return mf_jr_fail_at(&r->jr, "componentType", "unknown component type %d (expected 5120, 5121, 5122, 5123, 5125 or 5126)",
                             (int)a->comp_type);
    if (!rd_req_int(r, o, "count", 1, &a->count)) return false;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "type");
    if (!t) return mf_jr_fail(&r->jr, "missing \"type\"");
    if (!cJSON_IsString(t)) return mf_jr_fail_at(&r->jr, "type", "expected a string, got %s", mf_jr_type_name(t));
    if (!parse_type(t->valuestring, &a->ncomp, &a->rows)) {
        static const char *const types[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4", NULL};
        char sfx[128];
        mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(t->valuestring, types));
        return mf_jr_fail_at(&r->jr, "type", "unknown accessor type \"%.40s\"%s", t->valuestring, sfx);
    }
    a->type = rd_type_name(a->ncomp, a->rows);
    if (off < 0) return mf_jr_fail_at(&r->jr, "byteOffset", "must not be negative");
    if (norm && (a->comp_type == GL_FLOAT || a->comp_type == GL_UNSIGNED_INT))
        return mf_jr_fail_at(&r->jr, "normalized", "%s components cannot be normalized", comp_name(a->comp_type));
    a->normalized = norm;
    a->offset = (size_t)off;
    size_t cs = comp_size(a->comp_type);
    a->elem_size = a->rows ? (size_t)a->rows * (((size_t)a->rows * cs + 3) & ~(size_t)3) : (size_t)a->ncomp * cs;
    if (a->view >= 0) {
        const rd_view *v = &r->views[a->view];
        a->stride = v->stride ? v->stride : a->elem_size;
        if (v->stride && v->stride < a->elem_size)
            return mf_jr_fail_at(&r->jr, "bufferView", "bufferView %d has byteStride %zu, less than the %zu-byte %s elements",
                                 (int)a->view, v->stride, a->elem_size, a->type);
        if (a->offset % cs || (v->offset + a->offset) % cs)
            return mf_jr_fail_at(&r->jr, "byteOffset", "data is not aligned to its %zu-byte components", cs);
        size_t mc = mf_jr_key(&r->jr, "count");
        if (!view_span(r, a->view, a->offset, (uint64_t)a->stride * (uint64_t)(a->count - 1) + a->elem_size,
                       "the accessor"))
            return false;
        mf_jr_pop(&r->jr, mc);
    } else {
        if (off) return mf_jr_fail_at(&r->jr, "byteOffset", "given without a bufferView");
        /* zeros (plus sparse values): no data backs the count, so bound what it may cost */
        uint64_t floats = (uint64_t)a->count * (uint64_t)a->ncomp;
        if (floats > r->budget)
            return rd_fail_kind(r, MF_ERR_UNSUPPORTED, "%d elements without a bufferView are more than this reader takes",
                                (int)a->count);
        r->budget -= (size_t)floats;
        a->stride = a->elem_size;
    }
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(o, "sparse");
    if (sp && !rd_sparse(r, a, sp)) return false;
    return true;
}

bool rd_accessors(gltf_reader *r, const cJSON *arr)
{
    int n = arr ? cJSON_GetArraySize(arr) : 0;
    r->acc = mf_arena_alloc(r->a, (size_t)n * sizeof *r->acc);
    if (!r->acc) return rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
    r->accessor_count = n;
    size_t m = mf_jr_key(&r->jr, "accessors");
    int i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        if (!rd_accessor_one(r, &r->acc[i], o)) return false;
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    return true;
}

bool rd_accessor_is(gltf_reader *r, int32_t index, const char *const *types, const int32_t *comps,
                    int norm_for_ints)
{
    if (r->jr.failed) return false;
    const rd_accessor *a = &r->acc[index];
    bool type_ok = false, comp_ok = false;
    for (int i = 0; types[i]; i++) type_ok |= strcmp(types[i], a->type) == 0;
    for (int i = 0; comps[i]; i++) comp_ok |= comps[i] == a->comp_type;
    char want[160] = "";
    size_t o = 0;
    for (int i = 0; types[i] && o < sizeof want; i++)
        o += (size_t)snprintf(want + o, sizeof want - o, "%s%s", i ? "/" : "", types[i]);
    if (!type_ok) return mf_jr_fail(&r->jr, "accessor %d is %s, expected %s", (int)index, a->type, want);
    if (!comp_ok) {
        o = 0;
        want[0] = '\0';
        for (int i = 0; comps[i] && o < sizeof want; i++)
            o += (size_t)snprintf(want + o, sizeof want - o, "%s%s", i ? ", " : "", comp_name(comps[i]));
        return mf_jr_fail(&r->jr, "accessor %d has %s components, expected %s", (int)index, comp_name(a->comp_type), want);
    }
    if (a->comp_type != GL_FLOAT && norm_for_ints >= 0 && a->normalized != (norm_for_ints == 1))
        return mf_jr_fail(&r->jr, "accessor %d must %sbe normalized", (int)index, norm_for_ints ? "" : "not ");
    return true;
}

/* element i's bytes, sparse substitutions included (a binary search over sorted indices) */
static const uint8_t *element(const rd_accessor *a, const uint8_t *base, int32_t i)
{
    if (a->sparse_count) {
        size_t is = comp_size(a->sparse_idx_type);
        int32_t lo = 0, hi = a->sparse_count - 1;
        while (lo <= hi) {
            int32_t mid = lo + (hi - lo) / 2;
            uint32_t v = read_uint(a->sparse_idx + (size_t)mid * is, a->sparse_idx_type);
            if (v == (uint32_t)i) return a->sparse_val + (size_t)mid * a->elem_size;
            if (v < (uint32_t)i) lo = mid + 1;
            else hi = mid - 1;
        }
    }
    return base ? base + (size_t)i * a->stride : NULL;
}

const float *rd_accessor_f32(gltf_reader *r, int32_t index)
{
    rd_accessor *a = &r->acc[index];
    if (a->f32) return a->f32;
    size_t n = (size_t)a->count * (size_t)a->ncomp;
    float *out = mf_arena_alloc(r->a, n * sizeof *out);
    if (!out) {
        rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
        return NULL;
    }
    const uint8_t *base = a->view >= 0 ? view_data(r, a->view, a->offset) : NULL;
    for (int32_t i = 0; i < a->count; i++) {
        const uint8_t *e = element(a, base, i);
        if (!e) continue; /* zeros */
        for (int c = 0; c < a->ncomp; c++) {
            double v = read_comp(e + comp_offset(a, c), a->comp_type, a->normalized);
            if (!isfinite(v) || fabs(v) > 3.0e38) {
                char where[64];
                snprintf(where, sizeof where, "accessors[%d]", (int)index);
                rd_fail_path(r, where, "element %d component %d is not a finite number", (int)i, c);
                return NULL;
            }
            out[(size_t)i * (size_t)a->ncomp + (size_t)c] = (float)v;
        }
    }
    a->f32 = out;
    return out;
}

const uint32_t *rd_accessor_u32(gltf_reader *r, int32_t index)
{
    rd_accessor *a = &r->acc[index];
    if (a->u32) return a->u32;
    size_t n = (size_t)a->count * (size_t)a->ncomp;
    uint32_t *out = mf_arena_alloc(r->a, n * sizeof *out);
    if (!out) {
        rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
        return NULL;
    }
    const uint8_t *base = a->view >= 0 ? view_data(r, a->view, a->offset) : NULL;
    for (int32_t i = 0; i < a->count; i++) {
        const uint8_t *e = element(a, base, i);
        if (!e) continue;
        for (int c = 0; c < a->ncomp; c++)
            out[(size_t)i * (size_t)a->ncomp + (size_t)c] = read_uint(e + comp_offset(a, c), a->comp_type);
    }
    a->u32 = out;
    return out;
}

const uint16_t *rd_accessor_u16(gltf_reader *r, int32_t index)
{
    rd_accessor *a = &r->acc[index];
    if (a->u16) return a->u16;
    const uint32_t *w = rd_accessor_u32(r, index);
    if (!w) return NULL;
    size_t n = (size_t)a->count * (size_t)a->ncomp;
    uint16_t *out = mf_arena_alloc(r->a, n * sizeof *out);
    if (!out) {
        rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) out[i] = (uint16_t)w[i];
    a->u16 = out;
    return out;
}
