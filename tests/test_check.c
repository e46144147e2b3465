/* mf_check (mfe skel check): one broken copy of the mannequin per finding kind, each reported
 * with its severity, subject, file and JSON path; the clean rig reports nothing. */
#define _POSIX_C_SOURCE 200809L
#include "parity.h"
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_check.h"
#include "mf/mf_spine.h"

/* A fresh copy of the mannequin example in tmp/NAME with one substitution applied to FILE
 * (relative to the copy); returns the copied rig path. */
static const char *variant(const char *name, const char *file, const char *from, const char *to)
{
    static char rig[1024];
    char dir[900], cmd[2200], path[1024];
    snprintf(dir, sizeof dir, "%s", tu_tmp(name));
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s'", dir, tu_src("examples/mannequin"), dir);
    assert_int_equal(tu_run(cmd, NULL), 0);
    if (file) {
        snprintf(path, sizeof path, "%s/%s", dir, file);
        char *text = tu_read(path, NULL);
        assert_non_null(text);
        char *at = strstr(text, from);
        if (!at) fail_msg("%s lacks \"%s\"", file, from);
        size_t n = strlen(text) + strlen(to) + 1;
        char *out = malloc(n);
        assert_non_null(out);
        snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
        assert_int_equal(tu_write(path, out), 0);
        free(out);
        free(text);
    }
    snprintf(rig, sizeof rig, "%s/mannequin.mskel", dir);
    return rig;
}

static void run_check(const char *rig, mf_check_report *rep)
{
    mf_diag d;
    memset(rep, 0, sizeof *rep);
    mf_result r = mf_check_file(rig, NULL, rep, &d);
    if (r != MF_OK) {
        char msg[1200];
        mf_diag_format(&d, msg, sizeof msg);
        fail_msg("check failed: %s", msg);
    }
}

/* The one finding of that kind: its severity, subject, file suffix and path. */
static const mf_finding *expect(const mf_check_report *rep, mf_check_kind kind, mf_severity sev, const char *subject,
                                const char *file_suffix, const char *where)
{
    const mf_finding *hit = NULL;
    for (int32_t i = 0; i < rep->count && !hit; i++)
        if (rep->items[i].kind == kind) hit = &rep->items[i];
    if (!hit) {
        for (int32_t i = 0; i < rep->count; i++) {
            char line[2400];
            mf_finding_format(&rep->items[i], line, sizeof line);
            print_message("  got: %s\n", line);
        }
        fail_msg("no %s finding", mf_check_kind_name(kind));
    }
    assert_int_equal(hit->severity, sev);
    assert_string_equal(hit->subject, subject);
    size_t fl = strlen(hit->file), sl = strlen(file_suffix);
    assert_true(fl >= sl && strcmp(hit->file + fl - sl, file_suffix) == 0);
    assert_string_equal(hit->where, where);
    assert_true(hit->message[0] != 0);
    assert_true(hit->fix[0] != 0);
    if (sev == MF_SEVERITY_ERROR) assert_true(rep->errors > 0);
    return hit;
}

static void only_kind(const mf_check_report *rep, mf_check_kind kind)
{
    for (int32_t i = 0; i < rep->count; i++)
        if (rep->items[i].kind != kind) {
            char line[2400];
            mf_finding_format(&rep->items[i], line, sizeof line);
            fail_msg("unexpected finding: %s", line);
        }
}

static void clean_rig_reports_nothing(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("clean", NULL, NULL, NULL), &rep);
    assert_int_equal(rep.count, 0);
    assert_int_equal(rep.errors, 0);
    assert_int_equal(rep.clips_checked, 2);
    mf_check_report_free(&rep);
}

static void unknown_names(void **state)
{
    (void)state;
    mf_check_report rep;
    /* in a clip: every unknown target, each with its suggestion */
    run_check(variant("unknown", "mannequin.clips/walk.manim", "\"foot_l_target\": {", "\"foot_l_targt\": {"), &rep);
    const mf_finding *f = expect(&rep, MF_CHECK_UNKNOWN_NAME, MF_SEVERITY_ERROR, "foot_l_targt", "walk.manim",
                                 "bones.foot_l_targt");
    assert_contains(f->message, "did you mean \"foot_l_target\"");
    assert_string_equal(f->fix, "use \"foot_l_target\"");
    only_kind(&rep, MF_CHECK_UNKNOWN_NAME);
    mf_check_report_free(&rep);
    /* in the rig: the reader's located error */
    run_check(variant("unknown_rig", "mannequin.mskel", "\"parent\": \"thigh_l\"", "\"parent\": \"thigh_x\""), &rep);
    f = expect(&rep, MF_CHECK_UNKNOWN_NAME, MF_SEVERITY_ERROR, "mannequin", "mannequin.mskel", "bones[12].parent");
    assert_string_equal(f->fix, "use \"thigh_l\"");
    mf_check_report_free(&rep);
}

static void wrong_rig(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("wrong_rig", "mannequin.clips/walk.manim", "skl_3a9e51c07b24", "skl_000000000000"), &rep);
    expect(&rep, MF_CHECK_WRONG_RIG, MF_SEVERITY_ERROR, "walk", "walk.manim", "skeleton.uid");
    mf_check_report_free(&rep);
}

static void weights(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("weights", "mannequin.mskel", "[0, 0.5, 20, -16, 1, 0.5, 16, 20]", "[0, 0.5, 20, -16, 1, 0.3, 16, 20]"),
              &rep);
    const mf_finding *f = expect(&rep, MF_CHECK_WEIGHT_SUM, MF_SEVERITY_ERROR, "default/torso/torso",
                                 "mannequin.mskel", "skins[0].attachments[9].weights.v[4]");
    assert_contains(f->message, "sum to 0.8");
    only_kind(&rep, MF_CHECK_WEIGHT_SUM);
    mf_check_report_free(&rep);
}

static void influence_cap(void **state)
{
    (void)state;
    mf_check_report rep;
    char over[800] = "["; /* one influence over the cap */
    for (int i = 0; i <= MF_MAX_INFLUENCES; i++) strcat(over, i ? ", 0, 0.05, 20, 2" : "0, 0.2, 20, 2");
    strcat(over, "]");
    run_check(variant("cap", "mannequin.mskel", "[0, 1, 20, 2]", over), &rep);
    expect(&rep, MF_CHECK_INFLUENCE_CAP, MF_SEVERITY_ERROR, "mannequin", "mannequin.mskel",
           "skins[0].attachments[9].weights.v[5]");
    mf_check_report_free(&rep);
    /* a model built in code is checked too */
    mf_skeleton *sk = NULL;
    mf_diag d;
    assert_int_equal(mf_skeleton_load(tu_src("examples/mannequin/mannequin.mskel"), &sk, &d), MF_OK);
    mf_attachment *torso = &sk->skins[0].attachments[9];
    assert_int_equal(torso->type, MF_ATTACH_MESH);
    enum { OVER = MF_MAX_INFLUENCES + 2 };
    mf_influence *infl = mf_skeleton_alloc(sk, OVER * sizeof *infl);
    for (int i = 0; i < OVER; i++) infl[i] = (mf_influence){0, 1.0f / OVER, 0, 0};
    int32_t *first = mf_skeleton_alloc(sk, 2 * sizeof *first);
    first[0] = 0, first[1] = OVER;
    torso->vertices.count = 1, torso->vertices.first = first, torso->vertices.infl = infl;
    torso->uv_count = 1;
    memset(&rep, 0, sizeof rep);
    mf_check_skeleton(sk, "m.mskel", NULL, &rep);
    expect(&rep, MF_CHECK_INFLUENCE_CAP, MF_SEVERITY_ERROR, "default/torso/torso", "m.mskel",
           "skins[0].attachments[9].weights.v[0]");
    mf_check_report_free(&rep);
    mf_skeleton_free(sk);
}

static void ik_shear(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("shear", "mannequin.mskel", "\"parent\": \"thigh_l\", \"x\": 54, \"rot\": 14.5,",
                      "\"parent\": \"thigh_l\", \"x\": 54, \"rot\": 14.5, \"shx\": 10,"),
              &rep);
    expect(&rep, MF_CHECK_IK_SHEAR, MF_SEVERITY_WARNING, "leg_l_ik", "mannequin.mskel", "bones[12].shx");
    assert_int_equal(rep.errors, 0);
    mf_check_report_free(&rep);
}

static void key_past_end(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("past", "mannequin.clips/walk.manim",
                      "\"head\": {\n      \"rotate\": { \"t\": [0, 0.5, 1]",
                      "\"head\": {\n      \"rotate\": { \"t\": [0, 0.5, 1.25]"),
              &rep);
    const mf_finding *f = expect(&rep, MF_CHECK_KEY_PAST_END, MF_SEVERITY_ERROR, "head", "walk.manim",
                                 "bones.head.rotate.t[2]");
    assert_true(f->has_time);
    assert_float_equal(f->time, 1.25, 1e-6);
    mf_check_report_free(&rep);
}

static void curve_range(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("curve", "mannequin.clips/walk.manim", "[0.42, 0, 0.58, 1]", "[1.42, 0, 0.58, 1]"), &rep);
    expect(&rep, MF_CHECK_CURVE_RANGE, MF_SEVERITY_ERROR, "walk", "walk.manim", "bones.forearm_l.rotate.curve[0][0]");
    mf_check_report_free(&rep);
    /* a model built in code (the reader refuses such a curve) */
    mf_clip *clip = NULL;
    mf_skeleton *sk = NULL;
    mf_diag d;
    assert_int_equal(mf_skeleton_load(tu_src("examples/mannequin/mannequin.mskel"), &sk, &d), MF_OK);
    assert_int_equal(mf_clip_load(tu_src("examples/mannequin/mannequin.clips/walk.manim"), &clip, &d), MF_OK);
    mf_timeline *tl = NULL;
    for (int32_t i = 0; i < clip->timeline_count; i++)
        if (clip->timelines[i].curves && strcmp(clip->timelines[i].target, "head") == 0) tl = &clip->timelines[i];
    assert_non_null(tl);
    tl->curves[1].cx2 = -0.5f;
    memset(&rep, 0, sizeof rep);
    assert_true(mf_check_clip(sk, clip, "walk.manim", &rep));
    const mf_finding *f = expect(&rep, MF_CHECK_CURVE_RANGE, MF_SEVERITY_ERROR, "head", "walk.manim",
                                 "bones.head.rotate.curve[1]");
    assert_float_equal(f->time, 0.5, 1e-6);
    mf_check_report_free(&rep);
    mf_clip_free(clip);
    mf_skeleton_free(sk);
}

static void value_range(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("mix", "mannequin.clips/walk.manim", "  \"events\": {",
                      "  \"ik\": { \"leg_l_ik\": { \"t\": [0, 0.5], \"mix\": [1, 1.5] } },\n  \"events\": {"),
              &rep);
    const mf_finding *f = expect(&rep, MF_CHECK_VALUE_RANGE, MF_SEVERITY_ERROR, "leg_l_ik", "walk.manim",
                                 "ik.leg_l_ik.mix[1]");
    assert_float_equal(f->time, 0.5, 1e-6);
    mf_check_report_free(&rep);
}

static void ik_unreachable(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("reach", "mannequin.clips/walk.manim", "[[-22, -8], [-30, -13], [6, -20]",
                      "[[-22, -8], [-30, 120], [6, -20]"),
              &rep);
    const mf_finding *f = expect(&rep, MF_CHECK_IK_UNREACHABLE, MF_SEVERITY_WARNING, "leg_l_ik", "walk.manim",
                                 "bones.foot_l_target.translate");
    assert_true(f->has_time);
    assert_float_equal(f->time, 0.125, 1e-6);
    assert_int_equal(rep.errors, 0);
    only_kind(&rep, MF_CHECK_IK_UNREACHABLE);
    mf_check_report_free(&rep);
}

static void joint_flip(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("flip", "mannequin.clips/walk.manim", "\"v\": [-4, -6, -4]", "\"v\": [-4, 200, 356]"), &rep);
    const mf_finding *f = expect(&rep, MF_CHECK_JOINT_FLIP, MF_SEVERITY_WARNING, "head", "walk.manim",
                                 "bones.head.rotate.v[1]");
    assert_float_equal(f->time, 0.5, 1e-6);
    assert_contains(f->fix, "key -160");
    /* 356 ends where -4 starts: no seam; 200 → 356 turns 156°: no second flip */
    only_kind(&rep, MF_CHECK_JOINT_FLIP);
    assert_int_equal(rep.count, 1);
    mf_check_report_free(&rep);
}

static void loop_seam(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("seam", "mannequin.clips/walk.manim", "\"v\": [2, -2, 2]", "\"v\": [2, -2, 7]"), &rep);
    expect(&rep, MF_CHECK_LOOP_SEAM, MF_SEVERITY_WARNING, "hips", "walk.manim", "bones.hips.rotate.v[2]");
    only_kind(&rep, MF_CHECK_LOOP_SEAM);
    mf_check_report_free(&rep);
}

static void missing_image(void **state)
{
    (void)state;
    mf_check_report rep;
    const char *rig = variant("image", NULL, NULL, NULL);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm '%s/image/images/head.png'", tu_tmpdir());
    assert_int_equal(tu_run(cmd, NULL), 0);
    run_check(rig, &rep);
    const mf_finding *f = expect(&rep, MF_CHECK_MISSING_IMAGE, MF_SEVERITY_ERROR, "head", "mannequin.mskel",
                                 "skins[0].attachments[10].name");
    assert_contains(f->message, "head.png");
    only_kind(&rep, MF_CHECK_MISSING_IMAGE);
    mf_check_report_free(&rep);
}

static void setup_attachment(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("setup", "mannequin.mskel", "{ \"slot\": \"head\", \"name\": \"head\"",
                      "{ \"slot\": \"head\", \"name\": \"head2\", \"image\": \"head\""),
              &rep);
    const mf_finding *f = expect(&rep, MF_CHECK_SETUP_ATTACHMENT, MF_SEVERITY_ERROR, "head", "mannequin.mskel",
                                 "slots[10].attachment");
    assert_string_equal(f->fix, "use \"head2\"");
    mf_check_report_free(&rep);
}

static void uv_range(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("uv", "mannequin.mskel", "\"uvs\": [0, 0, 0.5, 0,", "\"uvs\": [0, -0.5, 0.5, 0,"), &rep);
    expect(&rep, MF_CHECK_UV_RANGE, MF_SEVERITY_WARNING, "default/torso/torso", "mannequin.mskel",
           "skins[0].attachments[9].uvs[1]");
    assert_int_equal(rep.errors, 0);
    mf_check_report_free(&rep);
}

static void invalid_and_unreadable(void **state)
{
    (void)state;
    mf_check_report rep;
    run_check(variant("invalid", "mannequin.mskel", "\"length\": 12", "\"length\": \"long\""), &rep);
    expect(&rep, MF_CHECK_INVALID, MF_SEVERITY_ERROR, "mannequin", "mannequin.mskel", "bones[1].length");
    mf_check_report_free(&rep);
    const char *rig = variant("unreadable", NULL, NULL, NULL);
    assert_int_equal(tu_write(rig, "{ \"format\": 1,\n  \"uid\": "), 0);
    mf_diag d;
    memset(&rep, 0, sizeof rep);
    assert_int_equal(mf_check_file(rig, NULL, &rep, &d), MF_ERR_IO);
    char msg[1200];
    mf_diag_format(&d, msg, sizeof msg);
    assert_contains(msg, "unreadable/mannequin.mskel: line 2");
    assert_int_equal(mf_check_file(tu_tmp("nope.mskel"), NULL, &rep, &d), MF_ERR_IO);
    mf_check_report_free(&rep);
}

static void only_one_clip(void **state)
{
    (void)state;
    mf_check_report rep = {0};
    mf_diag d;
    const char *rig = variant("only", "mannequin.clips/idle.manim", "\"length\": ", "\"length\": 0.001, \"x\": ");
    assert_int_equal(mf_check_file(rig, "walk", &rep, &d), MF_OK);
    assert_int_equal(rep.clips_checked, 1);
    assert_int_equal(rep.count, 0);
    mf_check_report_free(&rep);
    assert_int_equal(mf_check_file(rig, "wakl", &rep, &d), MF_ERR_ARGUMENT);
    assert_contains(d.message, "did you mean \"walk\"");
    mf_check_report_free(&rep);
}

/* Every rig of the Spine corpus, imported, checks without errors (warnings are what an author
 * may intend: the corpus has IK chains with shear and loops that end away from their start). */
static void corpus_rigs_check_clean(void **state)
{
    (void)state;
    const char *shared = tu_shared();
    if (!shared) {
        printf("skipped: no shared test data (../shared or $MF_SHARED)\n");
        skip();
    }
    char corpus[1024];
    snprintf(corpus, sizeof corpus, "%s/spine-corpus", shared);
    char *rigs[128];
    int n = tu_list_dir(corpus, rigs, 128);
    assert_true(n > 0);
    int checked = 0, with_errors = 0;
    for (int i = 0; i < n; i++) {
        static const char *const sfx[] = {"-pro.json", "-ess.json", ".json"};
        char json[1600] = "", out[1024], path[1600];
        for (int k = 0; k < 3 && !json[0]; k++) {
            snprintf(path, sizeof path, "%s/%s/%s%s", corpus, rigs[i], rigs[i], sfx[k]);
            FILE *f = fopen(path, "rb");
            if (f) fclose(f), snprintf(json, sizeof json, "%s", path);
        }
        if (!json[0]) {
            free(rigs[i]);
            continue;
        }
        snprintf(out, sizeof out, "%s", tu_tmp(rigs[i]));
        mf_spine_summary sum;
        mf_diag d;
        if (mf_spine_import(json, out, NULL, &sum, &d) != MF_OK) fail_msg("%s: import failed: %s", rigs[i], d.message);
        snprintf(path, sizeof path, "%s/%s.mskel", out, sum.name);
        mf_check_report rep = {0};
        assert_int_equal(mf_check_file(path, NULL, &rep, &d), MF_OK);
        printf("  %-18s %2d clips: %d errors, %d warnings\n", rigs[i], (int)rep.clips_checked, (int)rep.errors,
               (int)rep.warnings);
        for (int32_t k = 0, shown = 0; k < rep.count && shown < 5; k++)
            if (rep.items[k].severity == MF_SEVERITY_ERROR) {
                char line[2048];
                mf_finding_format(&rep.items[k], line, sizeof line);
                printf("    %s\n", line);
                shown++;
            }
        assert_int_equal(rep.clips_checked, sum.clips);
        checked++;
        with_errors += rep.errors > 0;
        mf_check_report_free(&rep);
        free(rigs[i]);
    }
    assert_true(checked > 0);
    assert_int_equal(with_errors, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_rig_reports_nothing), cmocka_unit_test(unknown_names),
        cmocka_unit_test(wrong_rig),                 cmocka_unit_test(weights),
        cmocka_unit_test(influence_cap),             cmocka_unit_test(ik_shear),
        cmocka_unit_test(key_past_end),              cmocka_unit_test(curve_range),
        cmocka_unit_test(value_range),               cmocka_unit_test(ik_unreachable),
        cmocka_unit_test(joint_flip),                cmocka_unit_test(loop_seam),
        cmocka_unit_test(missing_image),             cmocka_unit_test(setup_attachment),
        cmocka_unit_test(uv_range),                  cmocka_unit_test(invalid_and_unreadable),
        cmocka_unit_test(only_one_clip),             cmocka_unit_test(corpus_rigs_check_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
