/* mfe skel fmt FILE… [--check]: canonical form for .mskel and .manim files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mf/mf_clip.h"
#include "mf/mf_skeleton.h"
#include "util/files.h"

static bool has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcmp(path + n - e, ext) == 0;
}

/* Canonical text of a rig or clip file; MF_OK or an error in diag. */
static mf_result canonical_text(const char *path, const char *text, size_t len, char **out,
                                size_t *out_len, mf_diag *diag)
{
    mf_result r;
    if (has_ext(path, ".mskel")) {
        mf_skeleton *sk = NULL;
        r = mf_skeleton_parse(text, len, path, &sk, diag);
        if (r == MF_OK) r = mf_skeleton_write(sk, out, out_len, diag);
        mf_skeleton_free(sk);
    } else {
        mf_clip *clip = NULL;
        r = mf_clip_parse(text, len, path, NULL, &clip, diag);
        if (r == MF_OK) r = mf_clip_write(clip, out, out_len, diag);
        mf_clip_free(clip);
    }
    return r;
}

/* 1-based number of the first line where a and b differ. */
static int first_diff_line(const char *a, size_t an, const char *b, size_t bn)
{
    int line = 1;
    for (size_t i = 0; i < an && i < bn; i++) {
        if (a[i] != b[i]) return line;
        if (a[i] == '\n') line++;
    }
    return line;
}

int mfe_skel_fmt(int argc, char **argv)
{
    bool check = false;
    int files = 0;
    for (int i = 0; i < argc; i++) {
        if (mfe_is_flag(argv[i], "--check")) check = true;
        else if (argv[i][0] == '-' && argv[i][1]) return mfe_usage_error("skel", "fmt", "unknown option %s", argv[i]);
        else files++;
    }
    if (files == 0) return mfe_usage_error("skel", "fmt", "no files given");

    int status = MFE_OK;
    for (int i = 0; i < argc; i++) {
        const char *path = argv[i];
        if (path[0] == '-' && path[1]) continue;
        mf_diag diag;
        if (!has_ext(path, ".mskel") && !has_ext(path, ".manim")) {
            mf_diag_set(&diag, path, "", "not a .mskel or .manim file");
            status = mfe_report(&diag);
            continue;
        }
        char *text = NULL, *canon = NULL;
        size_t len = 0, canon_len = 0;
        mf_result r = mf_read_file(path, &text, &len, &diag);
        if (r == MF_OK) r = canonical_text(path, text, len, &canon, &canon_len, &diag);
        if (r != MF_OK) {
            status = mfe_report(&diag);
        } else if (canon_len == len && memcmp(canon, text, len) == 0) {
            /* already canonical */
        } else if (check) {
            printf("%s: not canonical (first difference at line %d); run mfe skel fmt %s\n", path,
                   first_diff_line(text, len, canon, canon_len), path);
            if (status == MFE_OK) status = MFE_FAILED;
        } else if (mf_write_file_atomic(path, canon, canon_len, &diag) != MF_OK) {
            status = mfe_report(&diag);
        } else {
            printf("formatted %s\n", path);
        }
        free(text);
        free(canon);
    }
    return status;
}
