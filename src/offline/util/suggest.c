#include "suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 1000;
    int row[65];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int prev = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cur = row[j];
            int cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
            int best = prev + cost;
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            prev = cur;
        }
    }
    return row[lb];
}

const char *mf_suggest(const char *name, int count, mf_name_at_fn at, const void *ctx)
{
    if (!name) return NULL;
    int limit = (int)strlen(name) / 3;
    if (limit < 2) limit = 2;
    const char *best = NULL;
    int best_d = limit + 1;
    for (int i = 0; i < count; i++) {
        const char *c = at(ctx, i);
        if (!c) continue;
        int d = distance(name, c);
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    return best;
}

static const char *list_at(const void *ctx, int i) { return ((const char *const *)ctx)[i]; }

const char *mf_suggest_list(const char *name, const char *const *list)
{
    int n = 0;
    while (list[n]) n++;
    return mf_suggest(name, n, list_at, list);
}

void mf_suggest_suffix(char *out, size_t size, const char *suggestion)
{
    if (suggestion) snprintf(out, size, " (did you mean \"%s\"?)", suggestion);
    else if (size) out[0] = '\0';
}
