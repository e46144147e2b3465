/* Reading JSON (cJSON) with the path of the current element kept for located errors.
 *
 *     mf_jr r; mf_jr_init(&r, file, diag);
 *     size_t mark = mf_jr_key(&r, "bones");     // path "bones"
 *     mf_jr_index(&r, 4);                       // path "bones[4]"
 *     ... mf_jr_fail(&r, "unknown bone \"%s\"", name) ...   // file: bones[4]: unknown bone …
 *     mf_jr_pop(&r, mark);
 *
 * Getters take (object, key): a missing key gives the default, a wrong type fails with the
 * path of the key. All return false once failed, so callers can chain and bail out. */
#ifndef MF_UTIL_JREAD_H
#define MF_UTIL_JREAD_H
#include <cjson/cJSON.h>

#include "arena.h"
#include "mf/mf_base.h"

typedef struct mf_jr {
    const char *file;
    mf_diag *diag;
    char path[512];
    size_t len;
    bool failed;
} mf_jr;

void mf_jr_init(mf_jr *r, const char *file, mf_diag *diag);
/* Parses text; on malformed JSON fails with "line L, column C: malformed JSON …". */
cJSON *mf_jr_parse(mf_jr *r, const char *text, size_t len);

size_t mf_jr_key(mf_jr *r, const char *key);   /* appends ".key" (or "key" at the root) */
size_t mf_jr_index(mf_jr *r, int index);       /* appends "[index]" */
void mf_jr_pop(mf_jr *r, size_t mark);
/* Records the first failure at the current path; always returns false. */
bool mf_jr_fail(mf_jr *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Fails at path + "." + key. */
bool mf_jr_fail_at(mf_jr *r, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* "number", "string", "array" … for messages. */
const char *mf_jr_type_name(const cJSON *v);

/* Fails on keys not in allowed (NULL-terminated), with a suggestion, and on duplicate keys. */
bool mf_jr_keys(mf_jr *r, const cJSON *obj, const char *const *allowed);
/* The object must be a JSON object / array; fails naming the current path otherwise. */
bool mf_jr_expect_object(mf_jr *r, const cJSON *v);
bool mf_jr_expect_array(mf_jr *r, const cJSON *v);

/* Member getters. Missing → *out = def, true. Numbers must be finite (and fit a float). */
bool mf_jr_float(mf_jr *r, const cJSON *obj, const char *key, float def, float *out);
bool mf_jr_int(mf_jr *r, const cJSON *obj, const char *key, int32_t def, int32_t *out);
bool mf_jr_bool(mf_jr *r, const cJSON *obj, const char *key, bool def, bool *out);
/* Missing → *out = def (copied into the arena when not NULL). */
bool mf_jr_string(mf_jr *r, mf_arena *a, const cJSON *obj, const char *key, const char *def,
                  char **out);
/* Present and a non-empty string. */
bool mf_jr_name(mf_jr *r, mf_arena *a, const cJSON *obj, const char *key, char **out);
/* "#rrggbbaa" or "#rrggbb" (alpha ff) → 0xRRGGBBAA. Missing → def. has may be NULL. */
bool mf_jr_color(mf_jr *r, const cJSON *obj, const char *key, uint32_t def, uint32_t *out, bool *has);
/* Parses a colour string value at the current path. */
bool mf_jr_color_value(mf_jr *r, const cJSON *v, uint32_t *out);

/* Value checks at the current path. */
bool mf_jr_value_float(mf_jr *r, const cJSON *v, float *out);
bool mf_jr_value_int(mf_jr *r, const cJSON *v, int32_t *out);
#endif
