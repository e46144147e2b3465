/* The import's output: every file is built in memory first; commit writes each one as a
 * temporary file beside its final path and only when all of them are written renames them into
 * place. A failure before the renames removes the temporaries and any folder it created, so a
 * failed import leaves DIR as it was. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "psd_import_internal.h"

mf_result pi_stage_add(pi_stage *s, const char *rel, void *data, size_t len, mf_diag *diag)
{
    if (s->count == s->cap) {
        int32_t n = s->cap ? s->cap * 2 : 32;
        char **r = realloc(s->rel, (size_t)n * sizeof *r);
        if (r) s->rel = r;
        void **d = realloc(s->data, (size_t)n * sizeof *d);
        if (d) s->data = d;
        size_t *l = realloc(s->len, (size_t)n * sizeof *l);
        if (l) s->len = l;
        if (!r || !d || !l) {
            free(data);
            mf_diag_set(diag, rel, "", "out of memory");
            return MF_ERR_NOMEM;
        }
        s->cap = n;
    }
    size_t n = strlen(rel) + 1;
    char *copy = malloc(n);
    if (!copy) {
        free(data);
        mf_diag_set(diag, rel, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    memcpy(copy, rel, n);
    s->rel[s->count] = copy;
    s->data[s->count] = data;
    s->len[s->count] = len;
    s->count++;
    return MF_OK;
}

void pi_stage_free(pi_stage *s)
{
    for (int32_t i = 0; i < s->count; i++) free(s->rel[i]), free(s->data[i]);
    free(s->rel), free(s->data), free(s->len), free(s->dir);
    memset(s, 0, sizeof *s);
}

typedef struct made {
    char **paths;
    int32_t count;
} made;

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Creates the missing folders of path's parent, noting them so a failure can remove them. */
static int make_parents(const char *path, made *m)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf) return ENAMETOOLONG;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i < n; i++) {
        if (buf[i] != '/') continue;
        buf[i] = '\0';
        if (!is_dir(buf)) {
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return errno;
            char **np = realloc(m->paths, sizeof(char *) * (size_t)(m->count + 1));
            char *copy = np ? malloc(i + 1) : NULL;
            if (np) m->paths = np;
            if (!copy) return ENOMEM;
            memcpy(copy, buf, i + 1);
            m->paths[m->count++] = copy;
        }
        buf[i] = '/';
    }
    return 0;
}

mf_result pi_stage_commit(pi_stage *s, mf_diag *diag)
{
    made m = {0};
    char **tmp = calloc((size_t)s->count + 1, sizeof *tmp);
    char **final = calloc((size_t)s->count + 1, sizeof *final);
    mf_result res = tmp && final ? MF_OK : MF_ERR_NOMEM;
    if (res != MF_OK) mf_diag_set(diag, s->dir, "", "out of memory");
    for (int32_t i = 0; i < s->count && res == MF_OK; i++) {
        size_t n = strlen(s->dir) + strlen(s->rel[i]) + 2;
        final[i] = malloc(n);
        tmp[i] = malloc(n + 16);
        if (!final[i] || !tmp[i]) {
            res = MF_ERR_NOMEM;
            mf_diag_set(diag, s->dir, s->rel[i], "out of memory");
            break;
        }
        snprintf(final[i], n, "%s/%s", s->dir, s->rel[i]);
        snprintf(tmp[i], n + 16, "%s.tmp-XXXXXX", final[i]);
        int err = make_parents(final[i], &m);
        int fd = err ? -1 : mkstemp(tmp[i]);
        if (fd < 0) {
            if (!err) err = errno;
            free(tmp[i]);
            tmp[i] = NULL;
            mf_diag_set(diag, s->dir, s->rel[i], "cannot write: %s", strerror(err));
            res = MF_ERR_IO;
            break;
        }
        FILE *f = fdopen(fd, "wb");
        bool ok = f && fwrite(s->data[i], 1, s->len[i], f) == s->len[i];
        err = errno;
        if (f) {
            if (fclose(f) != 0 && ok) ok = false, err = errno;
        } else {
            close(fd);
        }
        if (!ok) {
            mf_diag_set(diag, s->dir, s->rel[i], "cannot write: %s", strerror(err));
            res = MF_ERR_IO;
        }
    }
    for (int32_t i = 0; i < s->count && res == MF_OK; i++)
        if (rename(tmp[i], final[i]) != 0) {
            mf_diag_set(diag, s->dir, s->rel[i], "cannot move into place: %s", strerror(errno));
            res = MF_ERR_IO;
        } else {
            free(tmp[i]);
            tmp[i] = NULL;
        }
    for (int32_t i = 0; i < s->count; i++) {
        if (tmp && tmp[i]) unlink(tmp[i]);
        if (tmp) free(tmp[i]);
        if (final) free(final[i]);
    }
    for (int32_t i = m.count - 1; i >= 0; i--) {
        if (res != MF_OK) rmdir(m.paths[i]);
        free(m.paths[i]);
    }
    free(m.paths), free(tmp), free(final);
    return res;
}
