#include "jread.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"

void mf_jr_init(mf_jr *r, const char *file, mf_diag *diag)
{
    memset(r, 0, sizeof *r);
    r->file = file ? file : "";
    r->diag = diag;
    mf_diag_clear(diag);
}

cJSON *mf_jr_parse(mf_jr *r, const char *text, size_t len)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (root) {
        /* cJSON allows trailing data with require_null_terminated false; reject non-space */
        const char *p = end;
        while (p < text + len && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++;
        if (p == text + len || (*p == '\0' && p + 1 == text + len)) return root;
        cJSON_Delete(root);
        end = p;
    }
    if (!end || end < text || end > text + len) end = text + len;
    int line = 1, col = 1;
    for (const char *p = text; p < end; p++) {
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    if (len == 0) mf_diag_set(r->diag, r->file, "", "empty file: expected a JSON object");
    else mf_diag_set(r->diag, r->file, "", "line %d, column %d: malformed JSON", line, col);
    r->failed = true;
    return NULL;
}

size_t mf_jr_key(mf_jr *r, const char *key)
{
    size_t mark = r->len;
    int n = snprintf(r->path + r->len, sizeof r->path - r->len, "%s%s", r->len ? "." : "", key);
    if (n > 0) r->len += (size_t)n < sizeof r->path - r->len ? (size_t)n : sizeof r->path - r->len - 1;
    return mark;
}

size_t mf_jr_index(mf_jr *r, int index)
{
    size_t mark = r->len;
    int n = snprintf(r->path + r->len, sizeof r->path - r->len, "[%d]", index);
    if (n > 0) r->len += (size_t)n < sizeof r->path - r->len ? (size_t)n : sizeof r->path - r->len - 1;
    return mark;
}

void mf_jr_pop(mf_jr *r, size_t mark)
{
    r->len = mark;
    r->path[mark] = '\0';
}

static void vfail(mf_jr *r, const char *fmt, va_list ap)
{
    if (r->failed) return;
    r->failed = true;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    mf_diag_set(r->diag, r->file, r->path, "%s", msg);
}

bool mf_jr_fail(mf_jr *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, fmt, ap);
    va_end(ap);
    return false;
}

bool mf_jr_fail_at(mf_jr *r, const char *key, const char *fmt, ...)
{
    size_t m = mf_jr_key(r, key);
    va_list ap;
    va_start(ap, fmt);
    vfail(r, fmt, ap);
    va_end(ap);
    mf_jr_pop(r, m);
    return false;
}

const char *mf_jr_type_name(const cJSON *v)
{
    if (!v) return "nothing";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsArray(v)) return "an array";
    if (cJSON_IsObject(v)) return "an object";
    return "an invalid value";
}

bool mf_jr_expect_object(mf_jr *r, const cJSON *v)
{
    if (r->failed) return false;
    if (cJSON_IsObject(v)) return true;
    return mf_jr_fail(r, "expected an object, got %s", mf_jr_type_name(v));
}

bool mf_jr_expect_array(mf_jr *r, const cJSON *v)
{
    if (r->failed) return false;
    if (cJSON_IsArray(v)) return true;
    return mf_jr_fail(r, "expected an array, got %s", mf_jr_type_name(v));
}

bool mf_jr_keys(mf_jr *r, const cJSON *obj, const char *const *allowed)
{
    if (r->failed) return false;
    for (const cJSON *c = obj->child; c; c = c->next) {
        const char *k = c->string ? c->string : "";
        bool ok = false;
        for (int i = 0; allowed[i]; i++) {
            if (strcmp(allowed[i], k) == 0) {
                ok = true;
                break;
            }
        }
        if (!ok) {
            char sfx[128];
            mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(k, allowed));
            return mf_jr_fail_at(r, k, "unknown key \"%s\"%s", k, sfx);
        }
        for (const cJSON *d = obj->child; d != c; d = d->next) {
            if (d->string && strcmp(d->string, k) == 0)
                return mf_jr_fail_at(r, k, "duplicate key \"%s\"", k);
        }
    }
    return true;
}

bool mf_jr_value_float(mf_jr *r, const cJSON *v, float *out)
{
    if (r->failed) return false;
    if (!cJSON_IsNumber(v)) return mf_jr_fail(r, "expected a number, got %s", mf_jr_type_name(v));
    double d = v->valuedouble;
    if (!isfinite(d) || fabs(d) > 3.0e38) return mf_jr_fail(r, "number out of range");
    *out = (float)d;
    return true;
}

bool mf_jr_value_int(mf_jr *r, const cJSON *v, int32_t *out)
{
    if (r->failed) return false;
    if (!cJSON_IsNumber(v)) return mf_jr_fail(r, "expected an integer, got %s", mf_jr_type_name(v));
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d)) return mf_jr_fail(r, "expected an integer, got %g", d);
    if (d < -2147483648.0 || d > 2147483647.0) return mf_jr_fail(r, "integer out of range");
    *out = (int32_t)d;
    return true;
}

bool mf_jr_float(mf_jr *r, const cJSON *obj, const char *key, float def, float *out)
{
    if (r->failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        *out = def;
        return true;
    }
    size_t m = mf_jr_key(r, key);
    bool ok = mf_jr_value_float(r, v, out);
    mf_jr_pop(r, m);
    return ok;
}

bool mf_jr_int(mf_jr *r, const cJSON *obj, const char *key, int32_t def, int32_t *out)
{
    if (r->failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        *out = def;
        return true;
    }
    size_t m = mf_jr_key(r, key);
    bool ok = mf_jr_value_int(r, v, out);
    mf_jr_pop(r, m);
    return ok;
}

bool mf_jr_bool(mf_jr *r, const cJSON *obj, const char *key, bool def, bool *out)
{
    if (r->failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        *out = def;
        return true;
    }
    if (!cJSON_IsBool(v))
        return mf_jr_fail_at(r, key, "expected true or false, got %s", mf_jr_type_name(v));
    *out = cJSON_IsTrue(v);
    return true;
}

bool mf_jr_string(mf_jr *r, mf_arena *a, const cJSON *obj, const char *key, const char *def,
                  char **out)
{
    if (r->failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    const char *s = def;
    if (v) {
        if (!cJSON_IsString(v))
            return mf_jr_fail_at(r, key, "expected a string, got %s", mf_jr_type_name(v));
        s = v->valuestring;
    }
    *out = NULL;
    if (s && !(*out = mf_arena_strdup(a, s))) return mf_jr_fail(r, "out of memory");
    return true;
}

bool mf_jr_name(mf_jr *r, mf_arena *a, const cJSON *obj, const char *key, char **out)
{
    if (r->failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) return mf_jr_fail(r, "missing \"%s\"", key);
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return mf_jr_fail_at(r, key, "expected a non-empty string, got %s",
                             cJSON_IsString(v) ? "an empty string" : mf_jr_type_name(v));
    if (!(*out = mf_arena_strdup(a, v->valuestring))) return mf_jr_fail(r, "out of memory");
    return true;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool mf_jr_color_value(mf_jr *r, const cJSON *v, uint32_t *out)
{
    if (r->failed) return false;
    if (!cJSON_IsString(v))
        return mf_jr_fail(r, "expected a colour \"#rrggbbaa\", got %s", mf_jr_type_name(v));
    const char *s = v->valuestring;
    size_t n = strlen(s);
    if (s[0] != '#' || (n != 7 && n != 9))
        return mf_jr_fail(r, "bad colour \"%s\": expected \"#rrggbb\" or \"#rrggbbaa\"", s);
    uint32_t c = 0;
    for (size_t i = 1; i < n; i++) {
        int h = hexval(s[i]);
        if (h < 0) return mf_jr_fail(r, "bad colour \"%s\": '%c' is not a hex digit", s, s[i]);
        c = (c << 4) | (uint32_t)h;
    }
    if (n == 7) c = (c << 8) | 0xffu;
    *out = c;
    return true;
}

bool mf_jr_color(mf_jr *r, const cJSON *obj, const char *key, uint32_t def, uint32_t *out, bool *has)
{
    if (r->failed) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (has) *has = v != NULL;
    if (!v) {
        *out = def;
        return true;
    }
    size_t m = mf_jr_key(r, key);
    bool ok = mf_jr_color_value(r, v, out);
    mf_jr_pop(r, m);
    return ok;
}
