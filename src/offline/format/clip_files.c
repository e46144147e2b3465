/* Where a rig's clips live, and listing them. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mf/mf_clip.h"
#include "util/files.h"

void mf_clip_folder(const char *skeleton_path, const mf_skeleton *sk, char *out, size_t size)
{
    if (!out || size == 0) return;
    char dir[1024], stem[256];
    mf_path_dir(skeleton_path ? skeleton_path : "", dir, sizeof dir);
    if (sk && sk->clips && sk->clips[0]) {
        const char *c = sk->clips;
        size_t n = strlen(c);
        snprintf(out, size, "%s%s%s", c[0] == '/' ? "" : dir, c, c[n - 1] == '/' ? "" : "/");
        return;
    }
    mf_path_stem(skeleton_path ? skeleton_path : "", stem, sizeof stem);
    snprintf(out, size, "%s%s.clips/", dir, stem);
}

static int cmp_path(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool is_clip_name(const char *name)
{
    size_t n = strlen(name);
    /* hidden files (editor backups) and the bare ".manim" are not clips */
    return name[0] != '.' && n > 6 && strcmp(name + n - 6, ".manim") == 0;
}

void mf_clip_list_free(char **paths, int32_t count)
{
    for (int32_t i = 0; paths && i < count; i++) free(paths[i]);
    free(paths);
}

mf_result mf_clip_list(const char *folder, char ***paths, int32_t *count, mf_diag *diag)
{
    if (paths) *paths = NULL;
    if (count) *count = 0;
    if (!folder || !paths || !count) {
        mf_diag_set(diag, folder, "", "bad argument");
        return MF_ERR_ARGUMENT;
    }
    DIR *d = opendir(folder);
    if (!d) {
        if (errno == ENOENT) return MF_OK; /* no clips folder: no clips */
        mf_diag_set(diag, folder, "", "cannot list the clips folder: %s", strerror(errno));
        return MF_ERR_IO;
    }
    size_t flen = strlen(folder);
    bool slash = flen > 0 && folder[flen - 1] == '/';
    char **list = NULL;
    int32_t n = 0, cap = 0;
    mf_result res = MF_OK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_clip_name(e->d_name)) continue;
        size_t len = flen + 1 + strlen(e->d_name) + 1;
        char *p = malloc(len);
        if (!p) {
            res = MF_ERR_NOMEM;
            break;
        }
        snprintf(p, len, "%s%s%s", folder, slash || flen == 0 ? "" : "/", e->d_name);
        struct stat st;
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(p);
            continue;
        }
        if (n == cap) {
            int32_t nc = cap ? cap * 2 : 16;
            char **nl = realloc(list, (size_t)nc * sizeof *nl);
            if (!nl) {
                free(p);
                res = MF_ERR_NOMEM;
                break;
            }
            list = nl;
            cap = nc;
        }
        list[n++] = p;
    }
    closedir(d);
    if (res != MF_OK) {
        mf_clip_list_free(list, n);
        mf_diag_set(diag, folder, "", "out of memory");
        return res;
    }
    if (n > 1) qsort(list, (size_t)n, sizeof *list, cmp_path);
    *paths = list;
    *count = n;
    return MF_OK;
}
