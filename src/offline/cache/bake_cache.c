/* The bake cache folder: where it is, reading entries (any failure is a miss) and writing
 * them (failures only log). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mf/mf_bake_cache.h"
#include "util/files.h"

void mf_bake_cache_init(mf_bake_cache *c)
{
    memset(c, 0, sizeof *c);
    const char *env = getenv("MF_SKELETON_BAKE_CACHE_DIR");
    int n;
    if (env && *env) {
        if (strcmp(env, "off") == 0) return;
        size_t l = strlen(env);
        n = snprintf(c->dir, sizeof c->dir, "%s%s", env, env[l - 1] == '/' ? "" : "/");
    } else {
        const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (xdg && xdg[0] == '/') n = snprintf(c->dir, sizeof c->dir, "%s/mfanim/skeleton-bakes/", xdg);
        else if (home && *home) n = snprintf(c->dir, sizeof c->dir, "%s/.cache/mfanim/skeleton-bakes/", home);
        else return;
    }
    c->enabled = n > 0 && (size_t)n < sizeof c->dir - 80;
}

static void entry_path(const mf_bake_cache *c, const mf_bake_key *key, char *out, size_t size)
{
    char hex[65];
    mf_bake_key_hex(key, hex);
    snprintf(out, size, "%s%s.bake", c->dir, hex);
}

bool mf_bake_cache_get(const mf_bake_cache *c, const mf_bake_key *key, void **payload, size_t *len)
{
    *payload = NULL;
    *len = 0;
    if (!c || !c->enabled) return false;
    char path[4200];
    entry_path(c, key, path, sizeof path);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return false;
    char *data = NULL;
    size_t n = 0;
    if (mf_read_file(path, &data, &n, NULL) != MF_OK) return false;
    bool hit = mf_bake_entry_decode(data, n, key, payload, len, NULL) == MF_OK;
    free(data);
    return hit;
}

/* mkdir -p */
static bool make_dirs(const char *dir)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return false;
        *p = '/';
    }
    return mkdir(tmp, 0755) == 0 || errno == EEXIST;
}

bool mf_bake_cache_put(const mf_bake_cache *c, const mf_bake_key *key, const void *payload, size_t len)
{
    if (!c || !c->enabled) return false;
    void *entry = NULL;
    size_t elen = 0;
    if (mf_bake_entry_encode(key, payload, len, &entry, &elen) != MF_OK) {
        fprintf(stderr, "mfanim: warning: bake cache: out of memory, entry not written\n");
        return false;
    }
    char path[4200];
    entry_path(c, key, path, sizeof path);
    mf_diag d;
    mf_diag_clear(&d);
    bool ok = make_dirs(c->dir) && mf_write_file_atomic(path, entry, elen, &d) == MF_OK;
    if (!ok)
        fprintf(stderr, "mfanim: warning: bake cache: cannot write %s%s%s\n", path, d.message[0] ? ": " : "",
                d.message);
    free(entry);
    return ok;
}
