/* glTF reader: the container (JSON or GLB), buffers, buffer views and URIs, then the parts in
 * dependency order. Every check names the file and the JSON path (or GLB chunk and offset). */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_read.h"
#include "util/files.h"
#include "util/suggest.h"

/* ---- failing ------------------------------------------------------------------------------ */

static void vfail_kind(gltf_reader *r, mf_result kind, const char *fmt, va_list ap)
{
    if (r->jr.failed) return;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    r->err = kind;
    mf_jr_fail(&r->jr, "%s", msg);
}

bool rd_fail_kind(gltf_reader *r, mf_result kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail_kind(r, kind, fmt, ap);
    va_end(ap);
    return false;
}

bool rd_fail_path(gltf_reader *r, const char *where, const char *fmt, ...)
{
    if (r->jr.failed) return false;
    mf_jr_pop(&r->jr, 0);
    mf_jr_key(&r->jr, where);
    va_list ap;
    va_start(ap, fmt);
    vfail_kind(r, MF_ERR_INVALID, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- small getters ------------------------------------------------------------------------ */

bool rd_index(gltf_reader *r, const cJSON *obj, const char *key, int32_t count, const char *what,
              int32_t *out)
{
    *out = -1;
    if (r->jr.failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return true;
    size_t m = mf_jr_key(&r->jr, key);
    int32_t i;
    if (!mf_jr_value_int(&r->jr, v, &i)) return false;
    if (i < 0 || i >= count) {
        if (count == 0) return mf_jr_fail(&r->jr, "%s %d does not exist (the file has no %ss)", what, (int)i, what);
        return mf_jr_fail(&r->jr, "%s %d out of range (%d %ss)", what, (int)i, (int)count, what);
    }
    mf_jr_pop(&r->jr, m);
    *out = i;
    return true;
}

bool rd_req_int(gltf_reader *r, const cJSON *obj, const char *key, int32_t min, int32_t *out)
{
    if (r->jr.failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return mf_jr_fail(&r->jr, "missing \"%s\"", key);
    size_t m = mf_jr_key(&r->jr, key);
    if (!mf_jr_value_int(&r->jr, v, out)) return false;
    if (*out < min) return mf_jr_fail(&r->jr, "must be at least %d, got %d", (int)min, (int)*out);
    mf_jr_pop(&r->jr, m);
    return true;
}

bool rd_array(gltf_reader *r, const cJSON *obj, const char *key, const cJSON **out)
{
    *out = NULL;
    if (r->jr.failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return true;
    if (!cJSON_IsArray(v))
        return mf_jr_fail_at(&r->jr, key, "expected an array, got %s", mf_jr_type_name(v));
    *out = v;
    return true;
}

bool rd_floats(gltf_reader *r, const cJSON *obj, const char *key, float *out, int n, bool *has)
{
    if (has) *has = false;
    if (r->jr.failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return true;
    size_t m = mf_jr_key(&r->jr, key);
    if (!mf_jr_expect_array(&r->jr, v)) return false;
    if (cJSON_GetArraySize(v) != n)
        return mf_jr_fail(&r->jr, "expected %d numbers, got %d", n, cJSON_GetArraySize(v));
    int i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        if (!mf_jr_value_float(&r->jr, e, &out[i])) return false;
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    if (has) *has = true;
    return true;
}

bool rd_name(gltf_reader *r, const cJSON *obj, char **out)
{
    return mf_jr_string(&r->jr, r->a, obj, "name", NULL, out);
}

/* ---- URIs --------------------------------------------------------------------------------- */

static int hexdigit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool rd_uri(gltf_reader *r, const char *uri, const uint8_t **data, size_t *size, char **mime)
{
    *data = NULL;
    *size = 0;
    if (mime) *mime = NULL;
    if (strncmp(uri, "data:", 5) == 0) {
        const char *comma = strchr(uri, ',');
        if (!comma) return mf_jr_fail(&r->jr, "data: URI without a ',' before the data");
        size_t head = (size_t)(comma - uri);
        if (head < 12 || strncmp(comma - 7, ";base64", 7) != 0)
            return rd_fail_kind(r, MF_ERR_UNSUPPORTED, "only base64 data: URIs are supported");
        if (mime) {
            size_t mlen = head - 5 - 7;
            if (mlen > 0 && !(*mime = mf_arena_strndup(r->a, uri + 5, mlen)))
                return rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
        }
        bool bad = false;
        const char *text = comma + 1;
        uint8_t *bytes = mf_base64_decode(r->a, text, strlen(text), size, &bad);
        if (bad) return mf_jr_fail(&r->jr, "data: URI holds malformed base64");
        if (!bytes) return rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
        *data = bytes;
        return true;
    }
    /* a relative path: no scheme, not absolute */
    const char *colon = strchr(uri, ':'), *slash = strchr(uri, '/');
    if (colon && (!slash || colon < slash))
        return rd_fail_kind(r, MF_ERR_UNSUPPORTED, "URI \"%.80s\" has a scheme; only relative paths and data: URIs are read", uri);
    if (uri[0] == '/' || uri[0] == '\\' || uri[0] == '\0')
        return mf_jr_fail(&r->jr, "URI \"%.80s\" must be a relative path", uri);
    if (!r->path)
        return rd_fail_kind(r, MF_ERR_UNSUPPORTED, "external file \"%.80s\" needs the model's path", uri);
    char dir[1024], full[2048], rel[1024];
    size_t o = 0;
    for (const char *p = uri; *p && o + 1 < sizeof rel; p++) { /* percent-decoding */
        if (*p == '%' && hexdigit(p[1]) >= 0 && hexdigit(p[2]) >= 0) {
            int v = hexdigit(p[1]) * 16 + hexdigit(p[2]);
            if (v == 0) return mf_jr_fail(&r->jr, "URI \"%.80s\" holds %%00", uri);
            rel[o++] = (char)v;
            p += 2;
        } else {
            rel[o++] = *p;
        }
    }
    rel[o] = '\0';
    mf_path_dir(r->path, dir, sizeof dir);
    snprintf(full, sizeof full, "%s%s", dir, rel);
    char *bytes = NULL;
    size_t n = 0;
    mf_diag d;
    if (mf_read_file(full, &bytes, &n, &d) != MF_OK)
        return rd_fail_kind(r, MF_ERR_IO, "cannot read \"%s\": %s", full, d.message);
    void **owned = realloc(r->owned, ((size_t)r->owned_count + 1) * sizeof *owned);
    if (!owned) {
        free(bytes);
        return rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
    }
    r->owned = owned;
    r->owned[r->owned_count++] = bytes;
    *data = (const uint8_t *)bytes;
    *size = n;
    return true;
}

/* ---- buffers and views -------------------------------------------------------------------- */

static bool rd_buffers(gltf_reader *r, const cJSON *root)
{
    const cJSON *arr;
    if (!rd_array(r, root, "buffers", &arr)) return false;
    int n = arr ? cJSON_GetArraySize(arr) : 0;
    r->buffers = mf_arena_alloc(r->a, (size_t)n * sizeof *r->buffers);
    if (!r->buffers) return rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
    r->buffer_count = n;
    size_t m = mf_jr_key(&r->jr, "buffers");
    int i = 0;
    for (const cJSON *b = arr ? arr->child : NULL; b; b = b->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        if (!mf_jr_expect_object(&r->jr, b)) return false;
        int32_t len;
        char *uri;
        if (!rd_req_int(r, b, "byteLength", 1, &len)) return false;
        if (!mf_jr_string(&r->jr, r->a, b, "uri", NULL, &uri)) return false;
        const uint8_t *data = NULL;
        size_t size = 0;
        if (uri) {
            size_t mu = mf_jr_key(&r->jr, "uri");
            if (!rd_uri(r, uri, &data, &size, NULL)) return false;
            mf_jr_pop(&r->jr, mu);
        } else if (r->glb && i == 0) {
            if (!r->has_bin) return mf_jr_fail(&r->jr, "no \"uri\" and the GLB has no BIN chunk");
            data = r->bin;
            size = r->bin_size;
        } else {
            return mf_jr_fail(&r->jr, "missing \"uri\"%s", r->glb ? " (only buffers[0] can be the GLB BIN chunk)" : "");
        }
        if (size < (size_t)len)
            return mf_jr_fail_at(&r->jr, "byteLength", "is %d but the %s holds only %zu bytes", (int)len,
                                 uri ? "data" : "GLB BIN chunk", size);
        r->buffers[i].data = data;
        r->buffers[i].size = (size_t)len;
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    return true;
}

static bool rd_views(gltf_reader *r, const cJSON *root)
{
    const cJSON *arr;
    if (!rd_array(r, root, "bufferViews", &arr)) return false;
    int n = arr ? cJSON_GetArraySize(arr) : 0;
    r->views = mf_arena_alloc(r->a, (size_t)n * sizeof *r->views);
    if (!r->views) return rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
    r->view_count = n;
    size_t m = mf_jr_key(&r->jr, "bufferViews");
    int i = 0;
    for (const cJSON *v = arr ? arr->child : NULL; v; v = v->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        if (!mf_jr_expect_object(&r->jr, v)) return false;
        int32_t buf, off, len, stride, target;
        if (!cJSON_GetObjectItemCaseSensitive(v, "buffer")) return mf_jr_fail(&r->jr, "missing \"buffer\"");
        if (!rd_index(r, v, "buffer", r->buffer_count, "buffer", &buf)) return false;
        if (!mf_jr_int(&r->jr, v, "byteOffset", 0, &off) || !rd_req_int(r, v, "byteLength", 1, &len) ||
            !mf_jr_int(&r->jr, v, "byteStride", 0, &stride) || !mf_jr_int(&r->jr, v, "target", 0, &target))
            return false;
        if (off < 0) return mf_jr_fail_at(&r->jr, "byteOffset", "must not be negative");
        if (cJSON_GetObjectItemCaseSensitive(v, "byteStride") && (stride < 4 || stride > 252 || stride % 4))
            return mf_jr_fail_at(&r->jr, "byteStride", "must be a multiple of 4 from 4 to 252, got %d", (int)stride);
        if (cJSON_GetObjectItemCaseSensitive(v, "target") && target != GL_ARRAY_BUFFER &&
            target != GL_ELEMENT_ARRAY_BUFFER)
            return mf_jr_fail_at(&r->jr, "target", "must be 34962 (vertices) or 34963 (indices), got %d", (int)target);
        if ((uint64_t)off + (uint64_t)len > r->buffers[buf].size)
            return mf_jr_fail_at(&r->jr, "byteLength", "bytes %d..%lld run past the end of buffer %d (%zu bytes)",
                                 (int)off, (long long)off + len, (int)buf, r->buffers[buf].size);
        r->views[i] = (rd_view){buf, (size_t)off, (size_t)len, (size_t)stride};
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    return true;
}

/* ---- top level ---------------------------------------------------------------------------- */

static bool rd_asset(gltf_reader *r, const cJSON *root)
{
    const cJSON *asset = cJSON_GetObjectItemCaseSensitive(root, "asset");
    if (!asset) return mf_jr_fail(&r->jr, "missing \"asset\" (is this a glTF 2.0 file?)");
    size_t m = mf_jr_key(&r->jr, "asset");
    if (!mf_jr_expect_object(&r->jr, asset)) return false;
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(asset, "version");
    if (!ver) return mf_jr_fail(&r->jr, "missing \"version\"");
    if (!cJSON_IsString(ver)) return mf_jr_fail_at(&r->jr, "version", "expected a string, got %s", mf_jr_type_name(ver));
    if (strncmp(ver->valuestring, "2.", 2) != 0 || !isdigit((unsigned char)ver->valuestring[2])) {
        mf_jr_key(&r->jr, "version");
        return rd_fail_kind(r, MF_ERR_UNSUPPORTED, "glTF version \"%.40s\" is not supported (expected \"2.0\")",
                            ver->valuestring);
    }
    if (!mf_jr_string(&r->jr, r->a, asset, "generator", NULL, &r->g->generator)) return false;
    mf_jr_pop(&r->jr, m);
    return true;
}

static bool rd_extensions(gltf_reader *r, const cJSON *root)
{
    static const char *const supported[] = {"KHR_mesh_quantization", NULL};
    const char *const keys[] = {"extensionsUsed", "extensionsRequired"};
    for (int k = 0; k < 2; k++) {
        const cJSON *arr;
        if (!rd_array(r, root, keys[k], &arr)) return false;
        int i = 0;
        for (const cJSON *e = arr ? arr->child : NULL; e; e = e->next, i++) {
            size_t m = mf_jr_key(&r->jr, keys[k]);
            mf_jr_index(&r->jr, i);
            if (!cJSON_IsString(e)) return mf_jr_fail(&r->jr, "expected a string, got %s", mf_jr_type_name(e));
            if (strcmp(e->valuestring, "KHR_mesh_quantization") == 0) r->quantized = true;
            bool known = false;
            for (int s = 0; supported[s]; s++) known |= strcmp(supported[s], e->valuestring) == 0;
            if (k == 1 && !known)
                return rd_fail_kind(r, MF_ERR_UNSUPPORTED, "required extension \"%.80s\" is not supported",
                                    e->valuestring);
            mf_jr_pop(&r->jr, m);
        }
    }
    return true;
}

static bool rd_glb(gltf_reader *r, const uint8_t *p, size_t size, const char **json, size_t *json_len)
{
    if (size < 12) return rd_fail_path(r, "GLB header", "the file has %zu bytes, a GLB header needs 12", size);
    if (mf_le32(p) != MF_GLB_MAGIC)
        return rd_fail_path(r, "GLB header at offset 0", "bad magic 0x%08x (expected 0x46546c67, \"glTF\")", mf_le32(p));
    uint32_t version = mf_le32(p + 4), length = mf_le32(p + 8);
    if (version != 2) {
        rd_fail_path(r, "GLB header at offset 4", "GLB version %u is not supported (expected 2)", version);
        r->err = MF_ERR_UNSUPPORTED;
        return false;
    }
    if (length != size)
        return rd_fail_path(r, "GLB header at offset 8", "length %u does not match the file size %zu", length, size);
    size_t off = 12;
    char where[96];
    for (int chunk = 0; off < size; chunk++) {
        snprintf(where, sizeof where, "GLB chunk %d at offset %zu", chunk, off);
        if (size - off < 8) return rd_fail_path(r, where, "truncated chunk header (%zu bytes left)", size - off);
        uint32_t clen = mf_le32(p + off), ctype = mf_le32(p + off + 4);
        if (clen > size - off - 8)
            return rd_fail_path(r, where, "chunk length %u runs past the end of the file (%zu bytes left)", clen,
                                size - off - 8);
        if (clen % 4) return rd_fail_path(r, where, "chunk length %u is not a multiple of 4", clen);
        const uint8_t *data = p + off + 8;
        if (chunk == 0) {
            if (ctype != MF_GLB_JSON) return rd_fail_path(r, where, "the first chunk must be JSON");
            *json = (const char *)data;
            *json_len = clen;
        } else if (ctype == MF_GLB_JSON) {
            return rd_fail_path(r, where, "a second JSON chunk");
        } else if (ctype == MF_GLB_BIN) {
            if (chunk != 1) return rd_fail_path(r, where, "the BIN chunk must come right after the JSON chunk");
            r->bin = data;
            r->bin_size = clen;
            r->has_bin = true;
        } /* other chunk types are skipped, as the specification asks */
        off += 8 + (size_t)clen;
    }
    if (!*json) return rd_fail_path(r, "GLB chunk 0 at offset 12", "missing (a GLB needs a JSON chunk)");
    return true;
}

static bool has_glb_extension(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n >= 4 && path[n - 4] == '.' && tolower((unsigned char)path[n - 3]) == 'g' &&
           tolower((unsigned char)path[n - 2]) == 'l' && tolower((unsigned char)path[n - 1]) == 'b';
}

mf_result mf_gltf_parse(const void *bytes, size_t size, const char *path, mf_gltf **out, mf_diag *diag)
{
    if (out) *out = NULL;
    if (!out || (!bytes && size)) {
        mf_diag_set(diag, path ? path : "", "", "mf_gltf_parse: NULL argument");
        return MF_ERR_ARGUMENT;
    }
    gltf_reader rd;
    memset(&rd, 0, sizeof rd);
    gltf_reader *r = &rd;
    mf_jr_init(&r->jr, path, diag);
    r->err = MF_ERR_INVALID;
    r->path = path;
    r->budget = (size_t)1 << 24;
    r->g = mf_gltf_create();
    if (!r->g) {
        mf_diag_set(diag, path ? path : "", "", "out of memory");
        return MF_ERR_NOMEM;
    }
    r->a = mf_gltf__arena(r->g);
    const uint8_t *p = bytes;
    const char *json = (const char *)bytes;
    size_t json_len = size;
    cJSON *root = NULL;
    if ((size >= 4 && mf_le32(p) == MF_GLB_MAGIC) || has_glb_extension(path)) {
        r->glb = true;
        json = NULL;
        if (!rd_glb(r, p, size, &json, &json_len)) goto done;
    }
    root = mf_jr_parse(&r->jr, json, json_len);
    if (!root) goto done;
    if (!mf_jr_expect_object(&r->jr, root)) goto done;
    if (rd_asset(r, root) && rd_extensions(r, root) && rd_buffers(r, root) && rd_views(r, root)) {
        const cJSON *acc;
        if (rd_array(r, root, "accessors", &acc) && rd_accessors(r, acc) && rd_images(r, root) &&
            rd_materials(r, root) && rd_meshes(r, root) && rd_nodes(r, root) && rd_skins(r, root) &&
            rd_scenes(r, root))
            rd_animations(r, root);
    }
done:
    cJSON_Delete(root);
    for (int32_t i = 0; i < r->owned_count; i++) free(r->owned[i]);
    free(r->owned);
    if (r->jr.failed) {
        mf_gltf_free(r->g);
        return r->err == MF_OK ? MF_ERR_INVALID : r->err;
    }
    *out = r->g;
    return MF_OK;
}

mf_result mf_gltf_load(const char *path, mf_gltf **out, mf_diag *diag)
{
    if (out) *out = NULL;
    if (!path || !out) {
        mf_diag_set(diag, "", "", "mf_gltf_load: NULL argument");
        return MF_ERR_ARGUMENT;
    }
    char *data = NULL;
    size_t len = 0;
    mf_result res = mf_read_file(path, &data, &len, diag);
    if (res != MF_OK) return res;
    res = mf_gltf_parse(data, len, path, out, diag);
    free(data);
    return res;
}
