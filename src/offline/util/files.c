#define _POSIX_C_SOURCE 200809L
#include "files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

mf_result mf_read_file(const char *path, char **data, size_t *len, mf_diag *diag)
{
    *data = NULL;
    if (len) *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        mf_diag_set(diag, path, "", "cannot open: %s", strerror(errno));
        return MF_ERR_IO;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        mf_diag_set(diag, path, "", "not a regular file");
        return MF_ERR_IO;
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        mf_diag_set(diag, path, "", "out of memory reading %zu bytes", cap - 1);
        return MF_ERR_NOMEM;
    }
    for (;;) { /* the size may change under us: read until EOF */
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(f);
                mf_diag_set(diag, path, "", "out of memory");
                return MF_ERR_NOMEM;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) break;
    }
    bool err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        mf_diag_set(diag, path, "", "read error");
        return MF_ERR_IO;
    }
    buf[n] = '\0';
    *data = buf;
    if (len) *len = n;
    return MF_OK;
}

mf_result mf_write_file_atomic(const char *path, const void *data, size_t len, mf_diag *diag)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        mf_diag_set(diag, path, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        mf_diag_set(diag, path, "", "cannot write: cannot create a temporary file: %s", strerror(errno));
        free(tmp);
        return MF_ERR_IO;
    }
    const char *p = data;
    size_t left = len;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR) continue;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    int saved = errno;
    bool ok = left == 0 && fsync(fd) == 0;
    if (!ok && left == 0) saved = errno;
    /* new files get the usual permissions; mkstemp makes them 0600 */
    mode_t um = umask(0);
    umask(um);
    struct stat st;
    fchmod(fd, stat(path, &st) == 0 ? (st.st_mode & 07777) : (0666 & ~um));
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        unlink(tmp);
        mf_diag_set(diag, path, "", "cannot write: %s", strerror(saved));
    }
    free(tmp);
    return ok ? MF_OK : MF_ERR_IO;
}

void mf_path_stem(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (n >= size) n = size - 1;
    memcpy(out, base, n);
    out[n] = '\0';
}

void mf_path_dir(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) + 1 : 0;
    if (n >= size) n = size - 1;
    memcpy(out, path, n);
    out[n] = '\0';
}
