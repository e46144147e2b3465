/* NAME.psdmap.json: which PSD layer made which image and attachment, with the layer's trimmed
 * bounds and a hash of its pixels, so a re-import knows what changed, moved, is new or is gone.
 *
 *   { "format": 1, "psd": "hero.psd", "origin": [24, 40],
 *     "layers": [ { "layer": "torso/body", "image": "body", "slot": "body", "attachment": "body",
 *                   "bounds": [19, 18, 10, 14], "hash": "8c3f…" }, … ] }
 *
 * "skin" is present for attachments outside the default skin; "normal": true marks normal maps. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "psd_import_internal.h"
#include "util/files.h"
#include "util/jread.h"

pi_map_entry *pi_map_find(pi_map *m, const char *key)
{
    for (int32_t i = 0; i < m->count; i++)
        if (strcmp(m->entries[i].key, key) == 0) return &m->entries[i];
    return NULL;
}

pi_map_entry *pi_map_add(pi_map *m)
{
    if (m->count == m->cap) {
        int32_t n = m->cap ? m->cap * 2 : 32;
        pi_map_entry *e = realloc(m->entries, (size_t)n * sizeof *e);
        if (!e) return NULL;
        m->entries = e;
        m->cap = n;
    }
    pi_map_entry *e = &m->entries[m->count++];
    memset(e, 0, sizeof *e);
    return e;
}

void pi_map_free(pi_map *m)
{
    free(m->entries);
    mf_arena_destroy(m->arena);
    memset(m, 0, sizeof *m);
}

static bool read_ints(mf_jr *r, const cJSON *obj, const char *key, int32_t *out, int n)
{
    size_t mark = mf_jr_key(r, key);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
    bool ok = mf_jr_expect_array(r, a);
    if (ok && cJSON_GetArraySize(a) != n) ok = mf_jr_fail(r, "expected %d numbers, found %d", n, cJSON_GetArraySize(a));
    for (int i = 0; ok && i < n; i++) {
        size_t m2 = mf_jr_index(r, i);
        ok = mf_jr_value_int(r, cJSON_GetArrayItem(a, i), &out[i]);
        mf_jr_pop(r, m2);
    }
    mf_jr_pop(r, mark);
    return ok;
}

static bool read_entry(mf_jr *r, pi_map *m, const cJSON *o)
{
    static const char *const keys[] = {"layer", "image", "skin", "slot", "attachment", "normal", "bounds", "hash", NULL};
    pi_map_entry *e = pi_map_add(m);
    if (!e) return mf_jr_fail(r, "out of memory");
    char *hash = NULL;
    int32_t b[4];
    if (!mf_jr_expect_object(r, o) || !mf_jr_keys(r, o, keys) || !mf_jr_name(r, m->arena, o, "layer", &e->key) ||
        !mf_jr_name(r, m->arena, o, "image", &e->image) || !mf_jr_string(r, m->arena, o, "skin", NULL, &e->skin) ||
        !mf_jr_bool(r, o, "normal", false, &e->normal) || !read_ints(r, o, "bounds", b, 4) ||
        !mf_jr_name(r, m->arena, o, "hash", &hash))
        return false;
    if (!e->normal && (!mf_jr_name(r, m->arena, o, "slot", &e->slot) ||
                       !mf_jr_name(r, m->arena, o, "attachment", &e->attachment)))
        return false;
    if (e->image[0] == '/' || strstr(e->image, "..") || strchr(e->image, '\\'))
        return mf_jr_fail_at(r, "image", "image \"%s\" must stay inside the images folder", e->image);
    char *end = NULL;
    e->hash = strtoull(hash, &end, 16);
    if (strlen(hash) != 16 || *end) return mf_jr_fail_at(r, "hash", "expected 16 hex digits");
    e->x = b[0], e->y = b[1], e->w = b[2], e->h = b[3];
    return true;
}

mf_result pi_map_read(const char *path, pi_map *m, mf_diag *diag)
{
    memset(m, 0, sizeof *m);
    char *text = NULL;
    size_t len = 0;
    mf_result res = mf_read_file(path, &text, &len, diag);
    if (res != MF_OK) return res;
    m->arena = mf_arena_create();
    mf_jr r;
    mf_jr_init(&r, path, diag);
    cJSON *root = m->arena ? mf_jr_parse(&r, text, len) : NULL;
    free(text);
    static const char *const keys[] = {"format", "psd", "origin", "layers", NULL};
    int32_t format = 0, origin[2] = {0, 0};
    bool ok = root && mf_jr_expect_object(&r, root) && mf_jr_keys(&r, root, keys) &&
              mf_jr_int(&r, root, "format", 0, &format);
    if (ok && format != 1) ok = mf_jr_fail_at(&r, "format", "format %d is not known (expected 1)", (int)format);
    ok = ok && mf_jr_string(&r, m->arena, root, "psd", "", &m->psd) && read_ints(&r, root, "origin", origin, 2);
    m->ox = (float)origin[0], m->oy = (float)origin[1];
    const cJSON *layers = root ? cJSON_GetObjectItemCaseSensitive(root, "layers") : NULL;
    size_t mark = mf_jr_key(&r, "layers");
    ok = ok && mf_jr_expect_array(&r, layers);
    for (int i = 0; ok && i < cJSON_GetArraySize(layers); i++) {
        size_t m2 = mf_jr_index(&r, i);
        ok = read_entry(&r, m, cJSON_GetArrayItem(layers, i));
        if (ok && pi_map_find(m, m->entries[m->count - 1].key) != &m->entries[m->count - 1])
            ok = mf_jr_fail_at(&r, "layer", "layer \"%s\" is listed twice", m->entries[m->count - 1].key);
        mf_jr_pop(&r, m2);
    }
    mf_jr_pop(&r, mark);
    cJSON_Delete(root);
    if (!ok) {
        pi_map_free(m);
        return MF_ERR_INVALID;
    }
    return MF_OK;
}

char *pi_map_write(const pi_map *m, size_t *len)
{
    mf_buf b = {0};
    mf_buf_puts(&b, "{\n  \"format\": 1,\n  \"psd\": ");
    mf_buf_string(&b, m->psd ? m->psd : "");
    mf_buf_printf(&b, ",\n  \"origin\": [%d, %d],\n  \"layers\": [", (int)m->ox, (int)m->oy);
    for (int32_t i = 0; i < m->count; i++) {
        const pi_map_entry *e = &m->entries[i];
        mf_buf_puts(&b, i ? ",\n    { \"layer\": " : "\n    { \"layer\": ");
        mf_buf_string(&b, e->key);
        mf_buf_puts(&b, ", \"image\": ");
        mf_buf_string(&b, e->image);
        if (e->skin) {
            mf_buf_puts(&b, ", \"skin\": ");
            mf_buf_string(&b, e->skin);
        }
        if (e->normal) {
            mf_buf_puts(&b, ", \"normal\": true");
        } else {
            mf_buf_puts(&b, ", \"slot\": ");
            mf_buf_string(&b, e->slot);
            mf_buf_puts(&b, ", \"attachment\": ");
            mf_buf_string(&b, e->attachment);
        }
        mf_buf_printf(&b, ", \"bounds\": [%d, %d, %d, %d], \"hash\": \"%016" PRIx64 "\" }", (int)e->x, (int)e->y,
                      (int)e->w, (int)e->h, e->hash);
    }
    mf_buf_puts(&b, m->count ? "\n  ]\n}\n" : "]\n}\n");
    return mf_buf_take(&b, len);
}
