/* mf_check_file: a rig file and its clips folder through every check. A file that breaks a
 * format rule becomes a finding (its located reader error); only a rig that cannot be read at
 * all (missing, not JSON) is a failure of the call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_check.h"
#include "util/files.h"
#include "util/suggest.h"

static mf_check_kind classify(const char *message, const char *where)
{
    if (strstr(message, "influences (at most")) return MF_CHECK_INFLUENCE_CAP;
    if (strstr(message, "bezier x")) return MF_CHECK_CURVE_RANGE;
    if (strncmp(where, "slots[", 6) == 0 && strstr(where, ".attachment") && strstr(message, "no skin has"))
        return MF_CHECK_SETUP_ATTACHMENT;
    if (strstr(message, "unknown ") || strstr(message, "no skin has") || strstr(message, "has no attachment"))
        return MF_CHECK_UNKNOWN_NAME;
    return MF_CHECK_INVALID;
}

/* Reader errors of JSON syntax ("line 2, column 9: malformed JSON"): the file cannot be read. */
static bool unreadable(mf_result r, const mf_diag *d)
{
    return r == MF_ERR_IO || r == MF_ERR_NOMEM || strncmp(d->where, "line ", 5) == 0 ||
           strstr(d->message, "malformed JSON") != NULL;
}

static void reader_finding(mf_check_report *rep, const mf_diag *d, const char *subject_kind, const char *subject)
{
    mf_check_kind k = classify(d->message, d->where);
    char slot[160] = "";
    const char *fs = strstr(d->message, "for slot \"");
    if (k == MF_CHECK_SETUP_ATTACHMENT && fs) {
        const char *b = fs + 10, *e = strchr(b, '"');
        if (e) snprintf(slot, sizeof slot, "%.*s", (int)(e - b), b), subject_kind = "slot", subject = slot;
    }
    mf_finding *f = mf_check_add(rep, k, subject_kind, subject, d->file, d->where);
    if (!f) return;
    snprintf(f->message, sizeof f->message, "%s", d->message);
    const char *dym = strstr(d->message, "(did you mean \"");
    if (dym) {
        const char *s = dym + 15, *e = strchr(s, '"');
        snprintf(f->fix, sizeof f->fix, "use \"%.*s\"", e ? (int)(e - s) : 0, s);
    } else if (k == MF_CHECK_INFLUENCE_CAP)
        snprintf(f->fix, sizeof f->fix, "keep the %d largest weights of the vertex and renormalise them",
                 MF_MAX_INFLUENCES);
    else snprintf(f->fix, sizeof f->fix, "fix the value at %s as the message says (docs/formats.md)",
                  d->where[0] ? d->where : "that place");
}

static const char *clip_stem_at(const void *ctx, int i)
{
    static char stem[256]; /* suggestion lookups are sequential */
    mf_path_stem(((char *const *)ctx)[i], stem, sizeof stem);
    return stem;
}

static void images_dir(const char *rig_path, const mf_skeleton *sk, char *out, size_t n)
{
    const char *img = sk->import.images ? sk->import.images : "images/";
    char dir[1024];
    mf_path_dir(rig_path, dir, sizeof dir);
    size_t l = strlen(img);
    const char *slash = l && img[l - 1] == '/' ? "" : "/";
    if (img[0] == '/') snprintf(out, n, "%s%s", img, slash);
    else snprintf(out, n, "%s%s%s", dir, img, slash);
}

mf_result mf_check_file(const char *path, const char *only_clip, mf_check_report *rep, mf_diag *diag)
{
    mf_diag_clear(diag);
    mf_skeleton *sk = NULL;
    mf_result r = mf_skeleton_load(path, &sk, diag);
    if (r != MF_OK) {
        if (unreadable(r, diag)) return r == MF_ERR_NOMEM ? r : MF_ERR_IO;
        char stem[256];
        mf_path_stem(path, stem, sizeof stem);
        reader_finding(rep, diag, "rig", stem);
        mf_diag_clear(diag);
        return MF_OK;
    }
    char dir[1200];
    images_dir(path, sk, dir, sizeof dir);
    mf_check_skeleton(sk, path, dir, rep);

    char folder[1200];
    mf_clip_folder(path, sk, folder, sizeof folder);
    char **paths = NULL;
    int32_t count = 0;
    if ((r = mf_clip_list(folder, &paths, &count, diag)) != MF_OK) {
        mf_skeleton_free(sk);
        return r;
    }
    int32_t only = -1;
    if (only_clip) {
        for (int32_t i = 0; i < count && only < 0; i++)
            if (strcmp(clip_stem_at(paths, i), only_clip) == 0) only = i;
        if (only < 0) {
            char sfx[200];
            mf_suggest_suffix(sfx, sizeof sfx, mf_suggest(only_clip, count, clip_stem_at, paths));
            mf_diag_set(diag, path, "", "no clip \"%s\" in %s%s", only_clip, folder, sfx);
            mf_clip_list_free(paths, count);
            mf_skeleton_free(sk);
            return MF_ERR_ARGUMENT;
        }
    }
    mf_clip **clips = calloc((size_t)count + 1, sizeof *clips);
    const char **files = calloc((size_t)count + 1, sizeof *files);
    int32_t good = 0;
    for (int32_t i = 0; clips && files && i < count; i++) {
        if (only >= 0 && i != only) continue;
        mf_clip *clip = NULL;
        char stem[256];
        mf_path_stem(paths[i], stem, sizeof stem);
        rep->clips_checked++;
        if (mf_clip_load(paths[i], &clip, diag) != MF_OK) {
            reader_finding(rep, diag, "clip", stem);
            continue;
        }
        if (mf_check_clip(sk, clip, paths[i], rep)) {
            clips[good] = clip, files[good] = paths[i];
            good++;
        } else mf_clip_free(clip);
    }
    if (!clips || !files) rep->oom = true;
    else mf_check_reach(sk, (const mf_clip *const *)clips, files, good, path, rep);
    for (int32_t i = 0; i < good; i++) mf_clip_free(clips[i]);
    free(clips);
    free(files);
    mf_clip_list_free(paths, count);
    mf_skeleton_free(sk);
    mf_diag_clear(diag);
    return rep->oom ? MF_ERR_NOMEM : MF_OK;
}
