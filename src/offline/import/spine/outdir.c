/* The import's output folder: everything is written into a temporary folder beside DIR, then
 * moved into place only when the whole import succeeded. A missing DIR is the temporary folder
 * renamed; an existing DIR gets each file renamed over (files of its own are left alone). A
 * failed import removes exactly what it wrote. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spine_internal.h"

static char *join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *s = malloc(na + nb + 2);
    if (!s) return NULL;
    memcpy(s, a, na);
    s[na] = '/';
    memcpy(s + na + 1, b, nb + 1);
    return s;
}

static bool push(char ***list, int32_t *count, int32_t *cap, const char *s)
{
    if (*count == *cap) {
        int32_t n = *cap ? *cap * 2 : 32;
        char **nl = realloc(*list, (size_t)n * sizeof *nl);
        if (!nl) return false;
        *list = nl;
        *cap = n;
    }
    size_t len = strlen(s) + 1;
    char *d = malloc(len);
    if (!d) return false;
    memcpy(d, s, len);
    (*list)[(*count)++] = d;
    return true;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Creates every missing folder of path (absolute or relative). */
static int mkdir_all(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) return ENAMETOOLONG;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0') continue;
        char keep = buf[i];
        buf[i] = '\0';
        if (!is_dir(buf) && mkdir(buf, 0777) != 0 && errno != EEXIST) return errno;
        buf[i] = keep;
    }
    return 0;
}

mf_result sp_out_begin(sp_out *o, const char *out_dir, mf_diag *diag)
{
    memset(o, 0, sizeof *o);
    size_t n = strlen(out_dir);
    while (n > 1 && out_dir[n - 1] == '/') n--;
    char final[4096], parent[4096], base[4096];
    if (n == 0 || n >= sizeof final) {
        mf_diag_set(diag, out_dir, "", "bad output folder name");
        return MF_ERR_ARGUMENT;
    }
    memcpy(final, out_dir, n);
    final[n] = '\0';
    const char *slash = strrchr(final, '/');
    if (slash) {
        size_t pl = (size_t)(slash - final);
        memcpy(parent, final, pl ? pl : 1);
        parent[pl ? pl : 1] = '\0';
        snprintf(base, sizeof base, "%s", slash + 1);
    } else {
        snprintf(parent, sizeof parent, ".");
        snprintf(base, sizeof base, "%s", final);
    }
    struct stat st;
    if (stat(final, &st) == 0 && !S_ISDIR(st.st_mode)) {
        mf_diag_set(diag, final, "", "exists and is not a folder");
        return MF_ERR_IO;
    }
    int err = mkdir_all(parent);
    if (err) {
        mf_diag_set(diag, parent, "", "cannot create the folder: %s", strerror(err));
        return MF_ERR_IO;
    }
    char tmpl[2 * 4096 + 32];
    snprintf(tmpl, sizeof tmpl, "%s/.%s.import-XXXXXX", parent, base);
    if (!mkdtemp(tmpl)) {
        mf_diag_set(diag, final, "", "cannot create a temporary folder beside it: %s", strerror(errno));
        return MF_ERR_IO;
    }
    o->final = malloc(n + 1);
    o->tmp = malloc(strlen(tmpl) + 1);
    if (!o->final || !o->tmp) {
        rmdir(tmpl);
        free(o->final), free(o->tmp);
        mf_diag_set(diag, final, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    memcpy(o->final, final, n + 1);
    memcpy(o->tmp, tmpl, strlen(tmpl) + 1);
    return MF_OK;
}

/* Folders of rel (relative to the temporary folder) that do not exist yet, created and noted. */
static mf_result make_parents(sp_out *o, const char *rel, mf_diag *diag)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", rel);
    for (char *p = buf; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        bool known = false;
        for (int32_t i = 0; i < o->dir_count && !known; i++) known = strcmp(o->dirs[i], buf) == 0;
        if (!known) {
            char *full = join(o->tmp, buf);
            int rc = full ? mkdir(full, 0777) : -1;
            int err = errno;
            free(full);
            if (rc != 0 && err != EEXIST) {
                mf_diag_set(diag, rel, "", "cannot create the folder: %s", strerror(err));
                return MF_ERR_IO;
            }
            if (!push(&o->dirs, &o->dir_count, &o->dir_cap, buf)) {
                mf_diag_set(diag, rel, "", "out of memory");
                return MF_ERR_NOMEM;
            }
        }
        *p = '/';
    }
    return MF_OK;
}

mf_result sp_out_write(sp_out *o, const char *rel, const void *data, size_t len, mf_diag *diag)
{
    mf_result r = make_parents(o, rel, diag);
    if (r != MF_OK) return r;
    char *full = join(o->tmp, rel);
    if (!full || !push(&o->files, &o->file_count, &o->file_cap, rel)) {
        free(full);
        mf_diag_set(diag, rel, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    FILE *f = fopen(full, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    int err = errno;
    if (f && fclose(f) != 0 && ok) ok = false, err = errno;
    free(full);
    if (!ok) {
        mf_diag_set(diag, o->final, rel, "cannot write: %s", strerror(err));
        return MF_ERR_IO;
    }
    return MF_OK;
}

static void cleanup_tmp(sp_out *o)
{
    for (int32_t i = o->file_count - 1; i >= 0; i--) {
        char *full = join(o->tmp, o->files[i]);
        if (full) unlink(full);
        free(full);
    }
    for (int32_t i = o->dir_count - 1; i >= 0; i--) {
        char *full = join(o->tmp, o->dirs[i]);
        if (full) rmdir(full);
        free(full);
    }
    rmdir(o->tmp);
}

static void release(sp_out *o)
{
    for (int32_t i = 0; i < o->file_count; i++) free(o->files[i]);
    for (int32_t i = 0; i < o->dir_count; i++) free(o->dirs[i]);
    free(o->files), free(o->dirs), free(o->final), free(o->tmp);
    memset(o, 0, sizeof *o);
}

void sp_out_abort(sp_out *o)
{
    if (o->tmp) cleanup_tmp(o);
    release(o);
}

mf_result sp_out_commit(sp_out *o, mf_diag *diag)
{
    mf_result res = MF_OK;
    if (!is_dir(o->final)) {
        if (rename(o->tmp, o->final) != 0) {
            mf_diag_set(diag, o->final, "", "cannot move the import into place: %s", strerror(errno));
            sp_out_abort(o);
            return MF_ERR_IO;
        }
        release(o);
        return MF_OK;
    }
    /* an existing folder: move file by file, creating folders as needed */
    for (int32_t i = 0; i < o->file_count && res == MF_OK; i++) {
        char *from = join(o->tmp, o->files[i]), *to = join(o->final, o->files[i]);
        if (!from || !to) {
            mf_diag_set(diag, o->final, "", "out of memory");
            res = MF_ERR_NOMEM;
        } else {
            char dir[4096];
            snprintf(dir, sizeof dir, "%s", to);
            char *slash = strrchr(dir, '/');
            if (slash) *slash = '\0';
            int err = slash ? mkdir_all(dir) : 0;
            if (err || rename(from, to) != 0) {
                mf_diag_set(diag, o->final, o->files[i], "cannot move into place: %s", strerror(err ? err : errno));
                res = MF_ERR_IO;
            }
        }
        free(from), free(to);
    }
    cleanup_tmp(o);
    release(o);
    return res;
}
