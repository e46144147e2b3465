/* "did you mean …?" — the closest known name by edit distance. */
#ifndef MF_UTIL_SUGGEST_H
#define MF_UTIL_SUGGEST_H
#include <stddef.h>

typedef const char *(*mf_name_at_fn)(const void *ctx, int index);

/* The candidate closest to name, or NULL when none is close enough to be a likely typo. */
const char *mf_suggest(const char *name, int count, mf_name_at_fn at, const void *ctx);
/* Same over a NULL-terminated list of strings. */
const char *mf_suggest_list(const char *name, const char *const *list);
/* Appends ` (did you mean "x"?)` to out when there is a suggestion, else writes "". */
void mf_suggest_suffix(char *out, size_t size, const char *suggestion);
#endif
