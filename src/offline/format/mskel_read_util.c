/* Value helpers of the .mskel reader: arrays, enums, ranges and name references, each failing
 * with the JSON path of the offending value. */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mskel_internal.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/suggest.h"

void *mskel_array_alloc(mskel_rd *rd, size_t n, size_t size)
{
    void *p = size == 0 || n <= SIZE_MAX / size ? mf_arena_alloc(rd->sk->arena, n * size) : NULL;
    if (!p) {
        rd->nomem = true;
        mf_jr_fail(&rd->jr, "out of memory");
    }
    return p;
}

const cJSON *mskel_get_array(mskel_rd *rd, const cJSON *obj, const char *key)
{
    if (rd->jr.failed) return NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsArray(v)) return v;
    mf_jr_fail_at(&rd->jr, key, "expected an array, got %s", mf_jr_type_name(v));
    return NULL;
}

const cJSON *mskel_get_object(mskel_rd *rd, const cJSON *obj, const char *key)
{
    if (rd->jr.failed) return NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsObject(v)) return v;
    mf_jr_fail_at(&rd->jr, key, "expected an object, got %s", mf_jr_type_name(v));
    return NULL;
}

bool mskel_all_objects(mskel_rd *rd, const cJSON *arr, const char *key)
{
    int i = 0;
    for (const cJSON *e = arr ? arr->child : NULL; e; e = e->next, i++) {
        if (cJSON_IsObject(e)) continue;
        size_t m = mf_jr_key(&rd->jr, key);
        mf_jr_index(&rd->jr, i);
        mf_jr_fail(&rd->jr, "expected an object, got %s", mf_jr_type_name(e));
        mf_jr_pop(&rd->jr, m);
        return false;
    }
    return !rd->jr.failed;
}

/* "A, B or C" for messages when no spelling is close. */
static void choices(char *out, size_t size, const char *const *names)
{
    size_t n = 0, len = 0;
    while (names[n]) n++;
    out[0] = '\0';
    for (size_t i = 0; i < n && len < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int w = snprintf(out + len, size - len, "%s\"%s\"", sep, names[i]);
        if (w < 0) break;
        len += (size_t)w;
    }
}

bool mskel_enum(mskel_rd *rd, const cJSON *obj, const char *key, const char *what,
                const char *const *names, int def, int *out)
{
    if (rd->jr.failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        *out = def;
        return true;
    }
    if (!cJSON_IsString(v))
        return mf_jr_fail_at(&rd->jr, key, "expected a string, got %s", mf_jr_type_name(v));
    for (int i = 0; names[i]; i++) {
        if (strcmp(names[i], v->valuestring) == 0) {
            *out = i;
            return true;
        }
    }
    const char *s = mf_suggest_list(v->valuestring, names);
    char tail[256];
    if (s) {
        mf_suggest_suffix(tail, sizeof tail, s);
    } else {
        char list[200];
        choices(list, sizeof list, names);
        snprintf(tail, sizeof tail, " (expected %s)", list);
    }
    return mf_jr_fail_at(&rd->jr, key, "unknown %s \"%s\"%s", what, v->valuestring, tail);
}

bool mskel_opt_name(mskel_rd *rd, const cJSON *obj, const char *key, char **out)
{
    *out = NULL;
    if (rd->jr.failed) return false;
    if (!cJSON_GetObjectItemCaseSensitive(obj, key)) return true;
    return mf_jr_name(&rd->jr, rd->sk->arena, obj, key, out);
}

bool mskel_float_range(mskel_rd *rd, const cJSON *obj, const char *key, float def, float lo,
                       float hi, float *out)
{
    if (!mf_jr_float(&rd->jr, obj, key, def, out)) return false;
    if (*out >= lo && *out <= hi) return true;
    char a[40], b[40], v[40];
    mf_format_number(v, sizeof v, *out);
    if (hi >= FLT_MAX) return mf_jr_fail_at(&rd->jr, key, "must not be below %g, got %s", (double)lo, v);
    mf_format_number(a, sizeof a, lo);
    mf_format_number(b, sizeof b, hi);
    return mf_jr_fail_at(&rd->jr, key, "%s is out of range %s..%s", v, a, b);
}

bool mskel_floats(mskel_rd *rd, const cJSON *arr, float **out, int32_t *count)
{
    int n = cJSON_GetArraySize(arr);
    float *f = mskel_array_alloc(rd, (size_t)n, sizeof *f);
    if (!f) return false;
    int i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        size_t m = mf_jr_index(&rd->jr, i);
        bool ok = mf_jr_value_float(&rd->jr, e, &f[i]);
        mf_jr_pop(&rd->jr, m);
        if (!ok) return false;
    }
    *out = f;
    *count = n;
    return true;
}

bool mskel_indices(mskel_rd *rd, const cJSON *arr, int32_t limit, const char *what,
                   const char *range, int32_t **out, int32_t *count)
{
    int n = cJSON_GetArraySize(arr);
    int32_t *v = mskel_array_alloc(rd, (size_t)n, sizeof *v);
    if (!v) return false;
    int i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        size_t m = mf_jr_index(&rd->jr, i);
        bool ok = mf_jr_value_int(&rd->jr, e, &v[i]);
        if (ok && (v[i] < 0 || v[i] >= limit))
            ok = mf_jr_fail(&rd->jr, "%s %d out of range (%d %s)", what, (int)v[i], (int)limit, range);
        mf_jr_pop(&rd->jr, m);
        if (!ok) return false;
    }
    *out = v;
    *count = n;
    return true;
}

static const char *bone_at(const void *ctx, int i) { return ((const mf_skeleton *)ctx)->bones[i].name; }
static const char *slot_at(const void *ctx, int i) { return ((const mf_skeleton *)ctx)->slots[i].name; }

bool mskel_unknown_bone(mskel_rd *rd, const char *name)
{
    char sfx[160];
    mf_suggest_suffix(sfx, sizeof sfx, mf_suggest(name, rd->sk->bone_count, bone_at, rd->sk));
    return mf_jr_fail(&rd->jr, "unknown bone \"%s\"%s", name, sfx);
}

bool mskel_unknown_slot(mskel_rd *rd, const char *name)
{
    char sfx[160];
    mf_suggest_suffix(sfx, sizeof sfx, mf_suggest(name, rd->sk->slot_count, slot_at, rd->sk));
    return mf_jr_fail(&rd->jr, "unknown slot \"%s\"%s", name, sfx);
}

/* A string value naming a bone (or slot), at the current path. */
static bool ref_value(mskel_rd *rd, const cJSON *v, bool slot, int32_t *out)
{
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return mf_jr_fail(&rd->jr, "expected a %s name, got %s", slot ? "slot" : "bone",
                          cJSON_IsString(v) ? "an empty string" : mf_jr_type_name(v));
    *out = slot ? mf_skeleton_find_slot(rd->sk, v->valuestring)
                : mf_skeleton_find_bone(rd->sk, v->valuestring);
    if (*out >= 0) return true;
    return slot ? mskel_unknown_slot(rd, v->valuestring) : mskel_unknown_bone(rd, v->valuestring);
}

static bool ref_member(mskel_rd *rd, const cJSON *obj, const char *key, bool slot, int32_t *out)
{
    if (rd->jr.failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return mf_jr_fail(&rd->jr, "missing \"%s\"", key);
    size_t m = mf_jr_key(&rd->jr, key);
    bool ok = ref_value(rd, v, slot, out);
    mf_jr_pop(&rd->jr, m);
    return ok;
}

bool mskel_bone_ref(mskel_rd *rd, const cJSON *obj, const char *key, int32_t *out)
{
    return ref_member(rd, obj, key, false, out);
}

bool mskel_slot_ref(mskel_rd *rd, const cJSON *obj, const char *key, int32_t *out)
{
    return ref_member(rd, obj, key, true, out);
}

bool mskel_bone_list(mskel_rd *rd, const cJSON *obj, const char *key, int32_t min, int32_t max,
                     int32_t **out, int32_t *count)
{
    if (rd->jr.failed) return false;
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!arr) return mf_jr_fail(&rd->jr, "missing \"%s\"", key);
    size_t m = mf_jr_key(&rd->jr, key);
    bool ok = mf_jr_expect_array(&rd->jr, arr);
    int n = ok ? cJSON_GetArraySize(arr) : 0;
    if (ok && (n < min || n > max)) {
        if (min == max) ok = mf_jr_fail(&rd->jr, "expected %d bones, got %d", (int)min, n);
        else if (max == INT32_MAX) ok = mf_jr_fail(&rd->jr, "expected at least %d bone%s, got %d", (int)min, min == 1 ? "" : "s", n);
        else ok = mf_jr_fail(&rd->jr, "expected %d %s %d bones, got %d", (int)min,
                             max == min + 1 ? "or" : "to", (int)max, n);
    }
    int32_t *v = ok ? mskel_array_alloc(rd, (size_t)n, sizeof *v) : NULL;
    int i = 0;
    for (const cJSON *e = v ? arr->child : NULL; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&rd->jr, i);
        ok = ref_value(rd, e, false, &v[i]);
        for (int j = 0; ok && j < i; j++)
            if (v[j] == v[i])
                ok = mf_jr_fail(&rd->jr, "bone \"%s\" is listed twice", e->valuestring);
        mf_jr_pop(&rd->jr, mi);
    }
    mf_jr_pop(&rd->jr, m);
    if (!ok || !v) return false;
    *out = v;
    *count = n;
    return true;
}

bool mskel_check_unique(mskel_rd *rd, const char *what, const char *prefix, const char *name,
                        int32_t count, const char *(*name_at)(const mf_skeleton *, int32_t))
{
    for (int32_t j = 0; j < count; j++) {
        const char *o = name_at(rd->sk, j);
        if (o && strcmp(o, name) == 0)
            return mf_jr_fail_at(&rd->jr, "name", "duplicate %s \"%s\" (also %s[%d])", what, name,
                                 prefix, (int)j);
    }
    return true;
}
