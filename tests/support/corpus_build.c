/* tu_corpus_dir, tu_corpus_build, tu_fixture_build: see corpus_build.h. */
#include "corpus_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "testutil.h"
#include "mf/mf_build.h"
#include "mf/mf_rig.h"
#include "mf/mf_spine.h"

const char *tu_corpus_dir(void)
{
    static char dir[4200];
    const char *shared = tu_shared();
    snprintf(dir, sizeof dir, "%.4000s/spine-corpus", shared ? shared : "");
    struct stat st;
    if (!shared || stat(dir, &st) != 0) {
        printf("skipped: no Spine corpus (set MF_SHARED or put shared/spine-corpus beside the source tree)\n");
        skip();
    }
    return dir;
}

void *tu_corpus_build_path(const char *path, const char *name, mf_skel_data *data)
{
    size_t len = 0;
    char *json = tu_read(path, &len);
    if (!json) {
        printf("skipped: %s (not in the corpus)\n", path);
        return NULL;
    }
    mf_spine_rig *sr = NULL;
    mf_diag diag;
    mf_result res = mf_spine_convert(json, len, path, name, &sr, &diag);
    if (res != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    void *blob = NULL;
    size_t size = 0;
    res = mf_build_skeleton(sr->skeleton, (const mf_clip *const *)sr->clips, sr->clip_count, &blob, &size, &diag);
    if (res != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    assert_int_equal(mf_skel_data_load(blob, size, data, &diag), MF_OK);
    mf_spine_rig_free(sr);
    free(json);
    return blob;
}

void *tu_corpus_build(const char *rig, const char *file, mf_skel_data *data)
{
    char path[4600];
    snprintf(path, sizeof path, "%.4200s/%.150s/%.150s.json", tu_corpus_dir(), rig, file);
    return tu_corpus_build_path(path, file, data);
}

void *tu_fixture_build(const char *rel, mf_skel_data *data)
{
    mf_rig rig;
    mf_diag diag;
    mf_diag_clear(&diag);
    mf_result res = mf_rig_load(tu_src(rel), &rig, &diag);
    if (res != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    void *blob = NULL;
    size_t size = 0;
    res = mf_build_skeleton(rig.sk, (const mf_clip *const *)rig.clips, rig.clip_count, &blob, &size, &diag);
    mf_rig_free(&rig);
    if (res != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    assert_int_equal(mf_skel_data_load(blob, size, data, &diag), MF_OK);
    return blob;
}
