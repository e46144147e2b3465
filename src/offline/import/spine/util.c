/* Small helpers of the Spine converter: typed member reads that fail at the JSON path, Spine
 * colours, name lookups with suggestions, unknown-key reporting and the image list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"
#include "util/arena.h"
#include "util/suggest.h"

bool sp_oom(sp_ctx *c) { return mf_jr_fail(&c->jr, "out of memory"); }

void *sp_alloc(sp_ctx *c, size_t n, size_t size)
{
    if (c->jr.failed) return NULL;
    if (size && n > SIZE_MAX / size / 2) {
        sp_oom(c);
        return NULL;
    }
    void *p = mf_skeleton_alloc(c->sk, n * size);
    if (!p) sp_oom(c);
    return p;
}

char *sp_strdup(sp_ctx *c, const char *s)
{
    if (!s) return NULL;
    char *d = mf_skeleton_strdup(c->sk, s);
    if (!d) sp_oom(c);
    return d;
}

const char *sp_where(sp_ctx *c, const char *suffix, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%s", c->jr.path, c->jr.path[0] && suffix && suffix[0] ? "." : "",
             suffix ? suffix : "");
    return buf;
}

void sp_unknown_keys(sp_ctx *c, const cJSON *obj, const char *const *known, const char *what)
{
    for (const cJSON *k = obj ? obj->child : NULL; k; k = k->next) {
        const char *key = k->string ? k->string : "";
        bool ok = false;
        for (int i = 0; known[i] && !ok; i++) ok = strcmp(known[i], key) == 0;
        if (ok) continue;
        char where[600], group[200];
        snprintf(group, sizeof group, "%s.%s", what, key);
        sp_note_add(&c->rep, "unknown", group, sp_where(c, key, where, sizeof where),
                    "%s key \"%s\" is not a Spine 4.0-4.2 key this importer knows; not imported", what, key);
    }
}

bool sp_float(sp_ctx *c, const cJSON *obj, const char *key, float def, float *out)
{
    return mf_jr_float(&c->jr, obj, key, def, out);
}

bool sp_int(sp_ctx *c, const cJSON *obj, const char *key, int32_t def, int32_t *out)
{
    return mf_jr_int(&c->jr, obj, key, def, out);
}

bool sp_bool(sp_ctx *c, const cJSON *obj, const char *key, bool def, bool *out)
{
    return mf_jr_bool(&c->jr, obj, key, def, out);
}

bool sp_string(sp_ctx *c, const cJSON *obj, const char *key, const char **out)
{
    *out = NULL;
    if (c->jr.failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v)) return true;
    if (!cJSON_IsString(v)) return mf_jr_fail_at(&c->jr, key, "expected a string, got %s", mf_jr_type_name(v));
    *out = v->valuestring;
    return true;
}

bool sp_name(sp_ctx *c, const cJSON *obj, const char *key, const char **out)
{
    if (!sp_string(c, obj, key, out)) return false;
    if (!*out) return mf_jr_fail(&c->jr, "missing \"%s\"", key);
    if (!(*out)[0]) return mf_jr_fail_at(&c->jr, key, "must not be empty");
    return true;
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

bool sp_color(sp_ctx *c, const cJSON *obj, const char *key, uint32_t def, uint32_t *out, bool *has)
{
    const char *s;
    if (has) *has = false;
    *out = def;
    if (!sp_string(c, obj, key, &s)) return false;
    if (!s) return true;
    size_t n = strlen(s);
    uint32_t v = 0;
    bool ok = n == 6 || n == 8;
    for (size_t i = 0; ok && i < n; i++) {
        int h = hexval(s[i]);
        ok = h >= 0;
        v = (v << 4) | (uint32_t)(h < 0 ? 0 : h);
    }
    if (!ok) return mf_jr_fail_at(&c->jr, key, "bad colour \"%s\": expected RRGGBBAA or RRGGBB hex digits", s);
    *out = n == 6 ? (v << 8) | 0xffu : v;
    if (has) *has = true;
    return true;
}

const cJSON *sp_array(sp_ctx *c, const cJSON *obj, const char *key)
{
    if (c->jr.failed) return NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsArray(v)) return v;
    mf_jr_fail_at(&c->jr, key, "expected an array, got %s", mf_jr_type_name(v));
    return NULL;
}

const cJSON *sp_object(sp_ctx *c, const cJSON *obj, const char *key)
{
    if (c->jr.failed) return NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsObject(v)) return v;
    mf_jr_fail_at(&c->jr, key, "expected an object, got %s", mf_jr_type_name(v));
    return NULL;
}

const char *sp_bone_at(const void *sk, int i) { return ((const mf_skeleton *)sk)->bones[i].name; }
const char *sp_slot_at(const void *sk, int i) { return ((const mf_skeleton *)sk)->slots[i].name; }

bool sp_fail_unknown(sp_ctx *c, const char *what, const char *name, int count,
                     const char *(*at)(const void *, int), const void *ctx)
{
    char sfx[300];
    mf_suggest_suffix(sfx, sizeof sfx, mf_suggest(name, count, at, ctx));
    return mf_jr_fail(&c->jr, "unknown %s \"%s\"%s", what, name, sfx);
}

static bool ref(sp_ctx *c, const cJSON *obj, const char *key, const char *what, int32_t count,
                const char *(*at)(const void *, int), int32_t (*find)(const mf_skeleton *, const char *),
                int32_t *out)
{
    const char *name;
    if (!sp_name(c, obj, key, &name)) return false;
    if ((*out = find(c->sk, name)) >= 0) return true;
    size_t m = mf_jr_key(&c->jr, key);
    sp_fail_unknown(c, what, name, count, at, c->sk);
    mf_jr_pop(&c->jr, m);
    return false;
}

bool sp_bone_ref(sp_ctx *c, const cJSON *obj, const char *key, int32_t *out)
{
    return ref(c, obj, key, "bone", c->sk->bone_count, sp_bone_at, mf_skeleton_find_bone, out);
}

bool sp_slot_ref(sp_ctx *c, const cJSON *obj, const char *key, int32_t *out)
{
    return ref(c, obj, key, "slot", c->sk->slot_count, sp_slot_at, mf_skeleton_find_slot, out);
}

bool sp_use_image(sp_ctx *c, const char *name)
{
    if (c->image_count == c->image_cap) {
        int32_t cap = c->image_cap ? c->image_cap * 2 : 64;
        sp_image_ref *n = sp_alloc(c, (size_t)cap, sizeof *n);
        if (!n) return false;
        if (c->images) memcpy(n, c->images, (size_t)c->image_count * sizeof *n);
        c->images = n;
        c->image_cap = cap;
    }
    sp_image_ref *r = &c->images[c->image_count];
    if (!(r->name = sp_strdup(c, name)) || !(r->where = sp_strdup(c, c->jr.path))) return false;
    c->image_count++;
    return true;
}

const char *sp_constraint(const sp_ctx *c, mf_constraint_kind kind, const char *spine_name)
{
    const mf_skeleton *sk = c->sk;
    int32_t n = kind == MF_CONSTRAINT_IK ? sk->ik_count
              : kind == MF_CONSTRAINT_TRANSFORM ? sk->transform_count
              : kind == MF_CONSTRAINT_PATH ? sk->path_count : sk->physics_count;
    for (int32_t i = 0; i < n && c->spine_names[kind]; i++) {
        if (strcmp(c->spine_names[kind][i], spine_name) != 0) continue;
        switch (kind) {
        case MF_CONSTRAINT_IK: return sk->ik[i].name;
        case MF_CONSTRAINT_TRANSFORM: return sk->transform[i].name;
        case MF_CONSTRAINT_PATH: return sk->path[i].name;
        default: return sk->physics[i].name;
        }
    }
    return NULL;
}

static bool mark(sp_ctx *c, struct sp_skipped **list, int32_t *count, int32_t *cap, int32_t slot, const char *name)
{
    if (*count == *cap) {
        int32_t ncap = *cap ? *cap * 2 : 8;
        struct sp_skipped *n = sp_alloc(c, (size_t)ncap, sizeof *n);
        if (!n) return false;
        if (*list) memcpy(n, *list, (size_t)*count * sizeof *n);
        *list = n;
        *cap = ncap;
    }
    (*list)[*count].slot = slot;
    if (!((*list)[*count].name = sp_strdup(c, name))) return false;
    (*count)++;
    return true;
}

static bool marked(const struct sp_skipped *list, int32_t count, int32_t slot, const char *name)
{
    for (int32_t i = 0; i < count; i++)
        if (list[i].slot == slot && strcmp(list[i].name, name) == 0) return true;
    return false;
}

bool sp_skip_attachment(sp_ctx *c, int32_t slot, const char *name)
{
    return mark(c, &c->skipped, &c->skipped_count, &c->skipped_cap, slot, name);
}

bool sp_was_skipped(const sp_ctx *c, int32_t slot, const char *name)
{
    return marked(c->skipped, c->skipped_count, slot, name);
}

/* Capped attachments are keyed by slot * skins + skin, so one list serves every skin. */
bool sp_mark_capped(sp_ctx *c, int32_t skin, int32_t slot, const char *name)
{
    return mark(c, &c->capped, &c->capped_count, &c->capped_cap, slot * 65536 + skin, name);
}

bool sp_was_capped(const sp_ctx *c, int32_t skin, int32_t slot, const char *name)
{
    return marked(c->capped, c->capped_count, slot * 65536 + skin, name);
}
