#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *tu_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n + 1 >= cap) buf = realloc(buf, cap *= 2);
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        if (got == 0) break;
        n += got;
    }
    fclose(f);
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

int tu_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = strlen(text);
    int rc = fwrite(text, 1, n, f) == n ? 0 : -1;
    if (fclose(f) != 0) rc = -1;
    return rc;
}

static char *rotating(void)
{
    static char bufs[8][4096];
    static int next;
    return bufs[next++ & 7];
}

const char *tu_src(const char *rel)
{
    char *b = rotating();
    snprintf(b, 4096, "%s/%s", MF_SOURCE_DIR, rel);
    return b;
}

const char *tu_tmpdir(void)
{
    static char dir[4096];
    if (!dir[0]) {
        char base[3000];
        snprintf(base, sizeof base, "%s/tests/tmp", MF_BINARY_DIR);
        mkdir(base, 0777);
        snprintf(dir, sizeof dir, "%s/run.XXXXXX", base);
        if (!mkdtemp(dir)) { /* a test binary run away from its build tree: the system's */
            const char *t = getenv("TMPDIR");
            snprintf(dir, sizeof dir, "%s/mf-test.XXXXXX", t && *t ? t : "/tmp");
            if (!mkdtemp(dir)) {
                perror("mkdtemp");
                abort();
            }
        }
    }
    return dir;
}

const char *tu_tmp(const char *name)
{
    char *b = rotating();
    snprintf(b, 4096, "%s/%s", tu_tmpdir(), name);
    return b;
}

int tu_run(const char *cmd, char **output)
{
    char *full = malloc(strlen(cmd) + 16);
    sprintf(full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    free(full);
    if (!p) return -1;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n + 1 >= cap) buf = realloc(buf, cap *= 2);
        size_t got = fread(buf + n, 1, cap - n - 1, p);
        if (got == 0) break;
        n += got;
    }
    buf[n] = '\0';
    int st = pclose(p);
    if (output) *output = buf;
    else free(buf);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int tu_mfe(char **output, const char *fmt, ...)
{
    char args[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "'%s' %s", MF_MFE, args);
    return tu_run(cmd, output);
}

const char *tu_shared(void)
{
    static char dir[4096];
    const char *env = getenv("MF_SHARED");
    if (env && *env) snprintf(dir, sizeof dir, "%s", env);
    else snprintf(dir, sizeof dir, "%s/../shared", MF_SOURCE_DIR);
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
}

void tu_assert_contains(const char *haystack, const char *needle, const char *file, int line)
{
    if (haystack && needle && strstr(haystack, needle)) return;
    print_error("%s:%d: expected to find\n  \"%s\"\nin\n  \"%s\"\n", file, line, needle ? needle : "(null)",
                haystack ? haystack : "(null)");
    _fail(file, line);
}

void tu_cat(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if ((size_t)n < *cap - *len) {
            *len += (size_t)n;
            return;
        }
        *cap *= 2;
        *buf = realloc(*buf, *cap);
        assert_non_null(*buf);
    }
}

static void *fill_alloc(void *user, size_t size)
{
    (void)user;
    void *p = malloc(size);
    if (p) memset(p, TU_FILL, size);
    return p;
}

static void fill_free(void *user, void *ptr) { (void)user, free(ptr); }

mf_allocator tu_filling_allocator(void) { return (mf_allocator){.alloc = fill_alloc, .free = fill_free}; }

int tu_all_fill(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != TU_FILL) return 0;
    return 1;
}
