/* The .manim reader, canonical writer, clip-vs-rig check and clip files. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mf/mf_clip.h"

/* ---- helpers ---- */

static mf_clip *parse_ok(const char *text)
{
    mf_clip *c = NULL;
    mf_diag d;
    mf_result r = mf_clip_parse(text, strlen(text), "walk.manim", "walk", &c, &d);
    if (r != MF_OK) {
        char msg[1024];
        mf_diag_format(&d, msg, sizeof msg);
        fail_msg("parse failed: %s", msg);
    }
    return c;
}

static mf_clip *load_ok(const char *rel)
{
    mf_clip *c = NULL;
    mf_diag d;
    if (mf_clip_load(tu_src(rel), &c, &d) != MF_OK) {
        char msg[1024];
        mf_diag_format(&d, msg, sizeof msg);
        fail_msg("load failed: %s", msg);
    }
    return c;
}

static char *write_ok(const mf_clip *c)
{
    char *out = NULL;
    size_t len = 0;
    mf_diag d;
    assert_int_equal(mf_clip_write(c, &out, &len, &d), MF_OK);
    assert_non_null(out);
    assert_int_equal(strlen(out), len);
    return out;
}

/* write → parse → write must give the same text. */
static void assert_fixed_point(const char *text)
{
    mf_clip *c = parse_ok(text);
    char *again = write_ok(c);
    assert_string_equal(again, text);
    free(again);
    mf_clip_free(c);
}

/* The located message for a malformed clip. */
static void expect_error(const char *text, const char *message)
{
    mf_clip *c = (mf_clip *)1;
    mf_diag d;
    mf_result r = mf_clip_parse(text, strlen(text), "walk.manim", "walk", &c, &d);
    char msg[1024];
    mf_diag_format(&d, msg, sizeof msg);
    if (r == MF_OK) fail_msg("expected an error \"%s\" for %s", message, text);
    assert_null(c);
    assert_string_equal(msg, message);
}

#define HEAD                                                                                                  \
    "{ \"format\": 1, \"uid\": \"anm_1f07c3a9e5d2\", \"type\": \"SkeletonClip\", \"skeleton\": { \"uid\": " \
    "\"skl_7d1c40e2a9b3\" }, \"length\": 0.8"

/* HEAD + ", " + body + " }" */
static void expect_body_error(const char *body, const char *message)
{
    char text[4096];
    snprintf(text, sizeof text, HEAD ", %s }", body);
    expect_error(text, message);
}

static const mf_timeline *find_tl(const mf_clip *c, mf_timeline_kind k, const char *target)
{
    for (int32_t i = 0; i < c->timeline_count; i++) {
        const mf_timeline *tl = &c->timelines[i];
        if (tl->kind == k && (!target || (tl->target && strcmp(tl->target, target) == 0))) return tl;
    }
    fail_msg("no %s timeline for %s", mf_timeline_kind_name(k), target ? target : "-");
    return NULL;
}

/* ---- reading and writing ---- */

static void kind_tables_match_the_format(void **state)
{
    (void)state;
    assert_string_equal(mf_timeline_kind_name(MF_TL_TRANSLATE_X), "translateX");
    assert_string_equal(mf_timeline_kind_name(MF_TL_RGBA2), "rgba2");
    assert_string_equal(mf_timeline_kind_name(MF_TL_PHYSICS_RESET), "reset");
    assert_string_equal(mf_timeline_kind_name(MF_TL_DRAW_ORDER), "drawOrder");
    assert_int_equal(mf_timeline_kind_comps(MF_TL_IK), 2);
    assert_int_equal(mf_timeline_kind_icomps(MF_TL_IK), 3);
    assert_int_equal(mf_timeline_kind_comps(MF_TL_TRANSFORM), 6);
    assert_int_equal(mf_timeline_kind_comps(MF_TL_RGBA2), 7);
    assert_int_equal(mf_timeline_kind_comps(MF_TL_SEQUENCE), 1);
    assert_int_equal(mf_timeline_kind_icomps(MF_TL_SEQUENCE), 2);
    assert_int_equal(mf_timeline_kind_icomps(MF_TL_INHERIT), 1);
    assert_int_equal(mf_timeline_kind_comps(MF_TL_PATH_MIX), 3);
    assert_int_equal(mf_sequence_mode_parse("pingpongReverse"), MF_SEQ_PINGPONG_REVERSE);
    assert_int_equal(mf_sequence_mode_parse("Loop"), -1);
    assert_string_equal(mf_sequence_mode_name(MF_SEQ_ONCE_REVERSE), "onceReverse");
    assert_int_equal(mf_loop_mode_parse("PingPong"), MF_LOOP_PINGPONG);
    assert_string_equal(mf_loop_mode_name(MF_LOOP_LINEAR), "Linear");
}

static void seed_example_parses_as_written(void **state)
{
    (void)state;
    mf_clip *c = load_ok("tests/data/manim/seed.manim");
    assert_string_equal(c->name, "seed");
    assert_string_equal(c->uid, "anm_1f07c3a9e5d2");
    assert_string_equal(c->skeleton_uid, "skl_7d1c40e2a9b3");
    assert_string_equal(c->skeleton_path, "Content/Characters/Hero/hero.mskel");
    assert_float_equal(c->length, 0.8f, 0);
    assert_float_equal(c->fps, 30, 0);
    assert_int_equal(c->loop, MF_LOOP_LINEAR);
    assert_int_equal(c->timeline_count, 9);
    /* canonical order: slots by name (body before glow, unlike the file) */
    static const mf_timeline_kind order[] = {MF_TL_ROTATE, MF_TL_TRANSLATE, MF_TL_ATTACHMENT, MF_TL_RGBA,
                                             MF_TL_IK, MF_TL_PHYSICS_RESET, MF_TL_DEFORM, MF_TL_DRAW_ORDER,
                                             MF_TL_EVENT};
    for (int i = 0; i < 9; i++) assert_int_equal(c->timelines[i].kind, order[i]);
    assert_string_equal(c->timelines[2].target, "body");
    assert_string_equal(c->timelines[3].target, "glow");
    const mf_timeline *rot = find_tl(c, MF_TL_ROTATE, "thigh_l");
    assert_int_equal(rot->key_count, 3);
    assert_float_equal(rot->v[1], 35, 0);
    assert_int_equal(rot->curves[1].type, MF_CURVE_BEZIER);
    assert_float_equal(rot->curves[1].cx2, 0.75f, 0);
    const mf_timeline *tr = find_tl(c, MF_TL_TRANSLATE, "thigh_l");
    assert_float_equal(tr->v[3], -6, 0);
    assert_int_equal(tr->curves[0].type, MF_CURVE_LINEAR);
    const mf_timeline *rgba = find_tl(c, MF_TL_RGBA, "glow");
    assert_float_equal(rgba->v[4], 1, 0);
    assert_float_equal(rgba->v[7], 0, 0);
    assert_string_equal(find_tl(c, MF_TL_ATTACHMENT, "body")->names[0], "body_hurt");
    const mf_timeline *ik = find_tl(c, MF_TL_IK, "leg_l_ik");
    assert_int_equal(ik->columns, MF_IK_COL_MIX | MF_IK_COL_BEND);
    assert_float_equal(ik->v[2], 0, 0);
    assert_int_equal(ik->iv[3], -1);
    const mf_timeline *def = find_tl(c, MF_TL_DEFORM, "body");
    assert_string_equal(def->skin, "default");
    assert_string_equal(def->attachment, "body");
    assert_int_equal(def->deform[1].offset, 4);
    assert_int_equal(def->deform[1].count, 2);
    assert_float_equal(def->deform[0].v[3], -2, 0);
    const mf_timeline *dr = find_tl(c, MF_TL_DRAW_ORDER, NULL);
    assert_string_equal(dr->draw_order[0].moves[0].slot, "glow");
    assert_int_equal(dr->draw_order[0].moves[0].delta, -1);
    const mf_timeline *ev = find_tl(c, MF_TL_EVENT, NULL);
    assert_false(ev->events[0].has_float);
    assert_true(ev->events[1].has_float);
    assert_float_equal(ev->events[1].float_value, 0.5f, 0);
    assert_string_equal(find_tl(c, MF_TL_PHYSICS_RESET, "hair")->target, "hair");

    /* canonical text, and it is a fixed point */
    char *text = write_ok(c);
    char *want = tu_read(tu_src("tests/data/manim/seed_canonical.manim"), NULL);
    assert_non_null(want);
    assert_string_equal(text, want);
    assert_fixed_point(text);
    free(want);
    free(text);
    mf_clip_free(c);
}

static void canonical_file_is_byte_identical(void **state)
{
    (void)state;
    char *want = tu_read(tu_src("tests/data/manim/all_kinds.manim"), NULL);
    assert_non_null(want);
    mf_clip *c = load_ok("tests/data/manim/all_kinds.manim");
    char *text = write_ok(c);
    assert_string_equal(text, want);
    free(text);
    free(want);
    mf_clip_free(c);
}

static void every_kind_reads_its_values(void **state)
{
    (void)state;
    mf_clip *c = load_ok("tests/data/manim/all_kinds.manim");
    bool seen[MF_TL_KIND_COUNT] = {0};
    for (int32_t i = 0; i < c->timeline_count; i++) {
        seen[c->timelines[i].kind] = true;
        assert_int_equal(c->timelines[i].comps, mf_timeline_kind_comps(c->timelines[i].kind));
        assert_int_equal(c->timelines[i].icomps, mf_timeline_kind_icomps(c->timelines[i].kind));
    }
    for (int k = 0; k < MF_TL_KIND_COUNT; k++) {
        if (!seen[k]) fail_msg("kind %s missing from all_kinds.manim", mf_timeline_kind_name((mf_timeline_kind)k));
    }
    /* stepped and shared bezier */
    const mf_timeline *rot = find_tl(c, MF_TL_ROTATE, "hips");
    assert_int_equal(rot->curves[0].type, MF_CURVE_STEPPED);
    assert_int_equal(rot->curves[1].type, MF_CURVE_BEZIER);
    /* per component: x bezier with overshoot, y stepped */
    const mf_timeline *tr = find_tl(c, MF_TL_TRANSLATE, "hips");
    assert_int_equal(tr->curves[0].type, MF_CURVE_BEZIER);
    assert_float_equal(tr->curves[0].cy2, 1.5f, 0);
    assert_int_equal(tr->curves[1].type, MF_CURVE_STEPPED);
    /* a shared curve fills every component */
    const mf_timeline *sc = find_tl(c, MF_TL_SCALE, "hips");
    assert_int_equal(sc->curves[1].type, MF_CURVE_BEZIER);
    assert_float_equal(sc->curves[1].cx1, 0.5f, 0);
    assert_int_equal(find_tl(c, MF_TL_INHERIT, "hips")->iv[0], MF_INHERIT_NO_SCALE);
    assert_null(find_tl(c, MF_TL_INHERIT, "hips")->curves);
    assert_null(find_tl(c, MF_TL_ATTACHMENT, "body")->names[1]);
    const mf_timeline *rgba = find_tl(c, MF_TL_RGBA, "body");
    assert_float_equal(rgba->v[7], 128.0f / 255.0f, 1e-7);
    assert_int_equal(rgba->curves[0].type, MF_CURVE_STEPPED);
    assert_int_equal(rgba->curves[3].type, MF_CURVE_BEZIER);
    const mf_timeline *rgba2 = find_tl(c, MF_TL_RGBA2, "body");
    assert_float_equal(rgba2->v[7 + 1], 0x88 / 255.0f, 1e-7);
    assert_float_equal(rgba2->v[7 + 6], 0x30 / 255.0f, 1e-7);
    const mf_timeline *seq = find_tl(c, MF_TL_SEQUENCE, "body");
    assert_int_equal(seq->iv[0], MF_SEQ_LOOP);
    assert_int_equal(seq->iv[1], 0);
    assert_float_equal(seq->v[0], 0.1f, 0);
    assert_int_equal(seq->iv[2], MF_SEQ_PINGPONG_REVERSE);
    assert_int_equal(seq->iv[3], 3);
    const mf_timeline *ik = find_tl(c, MF_TL_IK, "leg_l_ik");
    assert_int_equal(ik->columns, 0x1f);
    assert_int_equal(ik->iv[3 + 1], 1); /* compress, key 1 */
    assert_int_equal(ik->iv[2], 1);     /* stretch, key 0 */
    assert_int_equal(ik->curves[0].type, MF_CURVE_BEZIER);
    assert_int_equal(ik->curves[1].type, MF_CURVE_LINEAR);
    const mf_timeline *ik2 = find_tl(c, MF_TL_IK, "leg_r_ik");
    assert_int_equal(ik2->columns, MF_IK_COL_SOFTNESS);
    assert_float_equal(ik2->v[0], 1, 0); /* absent mix: default */
    const mf_timeline *tf = find_tl(c, MF_TL_TRANSFORM, "tf");
    assert_float_equal(tf->v[6 + 5], 0.75f, 0);
    assert_int_equal(tf->curves[0].type, MF_CURVE_STEPPED);
    assert_float_equal(find_tl(c, MF_TL_PATH_MIX, "spine_path")->v[4], 0.5f, 0);
    assert_string_equal(find_tl(c, MF_TL_PHYSICS_RESET, "")->target, "");
    const mf_timeline *ev = find_tl(c, MF_TL_EVENT, NULL);
    assert_true(ev->events[1].has_int && ev->events[1].has_string && ev->events[1].has_balance);
    assert_string_equal(ev->events[1].string_value, "a \"b\"");
    assert_float_equal(ev->events[1].balance, -1, 0);
    assert_int_equal(find_tl(c, MF_TL_DRAW_ORDER, NULL)->draw_order[0].move_count, 0);
    mf_clip_free(c);
}

static void writer_folds_curves_and_defaults(void **state)
{
    (void)state;
    /* per-component curves that are all equal are written shared; all-linear curves vanish;
     * zero offsets are left out; fps and loop are always written */
    mf_clip *c = parse_ok(HEAD ", \"bones\": { \"b\": { \"translate\": { \"t\": [0, 1, 2], \"v\": [[0, 0], [1, 1], "
                               "[2, 2]], \"curve\": [[\"stepped\", \"stepped\"], [\"linear\", \"linear\"]] }, "
                               "\"scale\": { \"t\": [0, 1], \"v\": [[1, 1], [2, 2]], \"curve\": [\"linear\"] } } }, "
                               "\"deform\": { \"s\": { \"sl\": { \"a\": { \"t\": [0], \"offset\": [0], \"v\": "
                               "[[1]] } } } } }");
    char *text = write_ok(c);
    assert_contains(text, "\"translate\": { \"t\": [0, 1, 2], \"v\": [[0, 0], [1, 1], [2, 2]], \"curve\": "
                          "[\"stepped\", \"linear\"] }");
    assert_contains(text, "\"scale\": { \"t\": [0, 1], \"v\": [[1, 1], [2, 2]] }");
    assert_contains(text, "\"a\": { \"t\": [0], \"v\": [[1]] }");
    assert_contains(text, "  \"fps\": 30,\n  \"loop\": \"None\",\n");
    assert_fixed_point(text);
    free(text);
    mf_clip_free(c);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static void one_key_edit_changes_one_line(void **state)
{
    (void)state;
    mf_clip *c = load_ok("tests/data/manim/all_kinds.manim");
    char *before = write_ok(c);
    mf_timeline *rot = (mf_timeline *)find_tl(c, MF_TL_ROTATE, "hips");
    rot->v[1] = 20;
    char *after = write_ok(c);
    assert_int_equal(count_lines(before), count_lines(after));
    int differing = 0;
    const char *a = before, *b = after;
    while (*a && *b) {
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
        if (ea - a != eb - b || memcmp(a, b, (size_t)(ea - a)) != 0) {
            differing++;
            assert_non_null(strstr(b, "\"rotate\": { \"t\": [0, 0.5, 1], \"v\": [0, 20, 0]"));
        }
        a = ea + 1;
        b = eb + 1;
    }
    assert_int_equal(differing, 1);
    free(before);
    free(after);
    mf_clip_free(c);
}

static void sort_orders_groups_targets_and_kinds(void **state)
{
    (void)state;
    mf_clip *c = mf_clip_create();
    assert_non_null(c);
    c->uid = mf_clip_strdup(c, "anm_000000000001");
    c->skeleton_uid = mf_clip_strdup(c, "skl_000000000001");
    c->timeline_count = 4;
    c->timelines = mf_clip_alloc(c, 4 * sizeof(mf_timeline));
    const mf_timeline_kind kinds[4] = {MF_TL_EVENT, MF_TL_TRANSLATE, MF_TL_ROTATE, MF_TL_ROTATE};
    const char *targets[4] = {NULL, "b", "b", "a"};
    for (int i = 0; i < 4; i++) {
        mf_timeline *tl = &c->timelines[i];
        tl->kind = kinds[i];
        tl->target = targets[i] ? mf_clip_strdup(c, targets[i]) : NULL;
        tl->key_count = 1;
        tl->t = mf_clip_alloc(c, sizeof(float));
        tl->comps = mf_timeline_kind_comps(kinds[i]);
        tl->v = mf_clip_alloc(c, 2 * sizeof(float));
        tl->curves = mf_clip_alloc(c, 2 * sizeof(mf_curve));
        if (kinds[i] == MF_TL_EVENT) {
            tl->events = mf_clip_alloc(c, sizeof(mf_event_key));
            tl->events[0].name = mf_clip_strdup(c, "go");
        }
    }
    /* the writer sorts for itself, without touching the clip */
    char *text = write_ok(c);
    assert_int_equal(c->timelines[0].kind, MF_TL_EVENT);
    mf_clip_sort(c);
    assert_int_equal(c->timelines[0].kind, MF_TL_ROTATE);
    assert_string_equal(c->timelines[0].target, "a");
    assert_int_equal(c->timelines[1].kind, MF_TL_ROTATE);
    assert_string_equal(c->timelines[1].target, "b");
    assert_int_equal(c->timelines[2].kind, MF_TL_TRANSLATE);
    assert_int_equal(c->timelines[3].kind, MF_TL_EVENT);
    char *sorted = write_ok(c);
    assert_string_equal(text, sorted);
    assert_fixed_point(text);
    /* two timelines of one kind for one target cannot be written */
    c->timelines[1].kind = MF_TL_TRANSLATE;
    c->timelines[1].comps = 2;
    char *out = NULL;
    mf_diag d;
    assert_int_equal(mf_clip_write(c, &out, NULL, &d), MF_ERR_INVALID);
    assert_null(out);
    assert_string_equal(d.message, "two translate timelines for \"b\"");
    free(text);
    free(sorted);
    mf_clip_free(c);
}

/* ---- malformed input ---- */

static void malformed_values_and_times(void **state)
{
    (void)state;
    expect_body_error("\"bones\": { \"thigh_l\": { \"rotate\": { \"t\": [0, 0.4], \"v\": [0, 35, 0] } } }",
                      "walk.manim: bones.thigh_l.rotate.v: 3 values for 2 times");
    expect_body_error("\"bones\": { \"thigh_l\": { \"rotate\": { \"t\": [0, 0.9, 0.8], \"v\": [0, 35, 0] } } }",
                      "walk.manim: bones.thigh_l.rotate.t[2]: times must not decrease (0.8 after 0.9)");
    expect_body_error("\"bones\": { \"thigh_l\": { \"rotate\": { \"t\": [-1], \"v\": [0] } } }",
                      "walk.manim: bones.thigh_l.rotate.t[0]: times must not be negative (-1)");
    expect_body_error("\"bones\": { \"thigh_l\": { \"rotate\": { \"t\": [], \"v\": [] } } }",
                      "walk.manim: bones.thigh_l.rotate.t: a timeline needs at least one key");
    expect_body_error("\"bones\": { \"thigh_l\": { \"rotate\": { \"v\": [0] } } }",
                      "walk.manim: bones.thigh_l.rotate: missing \"t\" (the key times)");
    expect_body_error("\"bones\": { \"thigh_l\": { \"rotate\": { \"t\": [0] } } }",
                      "walk.manim: bones.thigh_l.rotate: missing \"v\" (the key values)");
    expect_body_error("\"bones\": { \"thigh_l\": { \"rotate\": { \"t\": [0], \"v\": [\"35\"] } } }",
                      "walk.manim: bones.thigh_l.rotate.v[0]: expected a number, got a string");
    expect_body_error("\"bones\": { \"thigh_l\": { \"rotaet\": { \"t\": [0], \"v\": [0] } } }",
                      "walk.manim: bones.thigh_l.rotaet: unknown timeline \"rotaet\" (did you mean \"rotate\"?)");
    expect_body_error("\"bones\": { \"thigh_l\": { \"attachment\": { \"t\": [0], \"v\": [null] } } }",
                      "walk.manim: bones.thigh_l.attachment: unknown timeline \"attachment\"");
    expect_body_error("\"bones\": { \"thigh_l\": { \"translate\": { \"t\": [0], \"v\": [[0]] } } }",
                      "walk.manim: bones.thigh_l.translate.v[0]: expected [x, y], got 1 number");
    expect_body_error("\"bones\": { \"thigh_l\": { \"scale\": { \"t\": [0], \"v\": [1] } } }",
                      "walk.manim: bones.thigh_l.scale.v[0]: expected [scaleX, scaleY], got a number");
    expect_body_error("\"bones\": { \"a\": { \"inherit\": { \"t\": [0], \"v\": [\"NoScal\"] } } }",
                      "walk.manim: bones.a.inherit.v[0]: unknown inherit mode \"NoScal\" (did you mean \"NoScale\"?)");
    expect_body_error("\"bones\": { \"a\": { \"rotate\": { \"t\": [0], \"v\": [0], \"cruve\": [] } } }",
                      "walk.manim: bones.a.rotate.cruve: unknown key \"cruve\" (did you mean \"curve\"?)");
    expect_body_error("\"bones\": { \"a\": { \"rotate\": { \"t\": [0], \"v\": [0] }, \"rotate\": { \"t\": [0], "
                      "\"v\": [0] } } }",
                      "walk.manim: bones.a.rotate: duplicate timeline \"rotate\"");
    expect_body_error("\"bones\": { \"a\": {}, \"b\": {}, \"a\": {} }", "walk.manim: bones.a: duplicate bone \"a\"");
    expect_body_error("\"bones\": { \"\": {} }", "walk.manim: bones: bone name must not be empty");
    expect_body_error("\"bones\": [1]", "walk.manim: bones: expected an object, got an array");
    expect_body_error("\"bones\": { \"a\": { \"rotate\": [0] } }",
                      "walk.manim: bones.a.rotate: expected an object, got an array");
}

static void malformed_curves(void **state)
{
    (void)state;
    expect_body_error("\"bones\": { \"a\": { \"rotate\": { \"t\": [0, 1], \"v\": [0, 1], \"curve\": [\"linear\", "
                      "\"linear\"] } } }",
                      "walk.manim: bones.a.rotate.curve: 2 curves for 1 segment (one per pair of neighbouring keys)");
    expect_body_error("\"bones\": { \"a\": { \"rotate\": { \"t\": [0, 1], \"v\": [0, 1], \"curve\": [[0.25, 0, "
                      "0.75]] } } }",
                      "walk.manim: bones.a.rotate.curve[0]: expected \"linear\", \"stepped\" or a bezier [cx1, cy1, "
                      "cx2, cy2], got an array of another length");
    expect_body_error("\"bones\": { \"a\": { \"rotate\": { \"t\": [0, 1], \"v\": [0, 1], \"curve\": [[1.5, 0, "
                      "0.75, 1]] } } }",
                      "walk.manim: bones.a.rotate.curve[0][0]: a bezier x (time) control must be within 0..1, got 1.5");
    expect_body_error("\"bones\": { \"a\": { \"rotate\": { \"t\": [0, 1], \"v\": [0, 1], \"curve\": [\"stepd\"] } } }",
                      "walk.manim: bones.a.rotate.curve[0]: unknown curve \"stepd\" (did you mean \"stepped\"?)");
    expect_body_error("\"bones\": { \"a\": { \"rotate\": { \"t\": [0, 1], \"v\": [0, 1], \"curve\": [\"ease\"] } } }",
                      "walk.manim: bones.a.rotate.curve[0]: unknown curve \"ease\" (expected \"linear\" or "
                      "\"stepped\")");
    expect_body_error("\"bones\": { \"a\": { \"rotate\": { \"t\": [0, 1], \"v\": [0, 1], \"curve\": [3] } } }",
                      "walk.manim: bones.a.rotate.curve[0]: expected \"linear\", \"stepped\" or a bezier [cx1, cy1, "
                      "cx2, cy2], got a number");
    expect_body_error("\"bones\": { \"a\": { \"translate\": { \"t\": [0, 1], \"v\": [[0, 0], [1, 1]], \"curve\": "
                      "[[\"linear\", \"linear\", \"linear\"]] } } }",
                      "walk.manim: bones.a.translate.curve[0]: expected one shared curve or one curve per component "
                      "(2), got 3 entries");
    expect_body_error("\"bones\": { \"a\": { \"translate\": { \"t\": [0, 1], \"v\": [[0, 0], [1, 1]], \"curve\": "
                      "[[\"linear\", [0, 1]]] } } }",
                      "walk.manim: bones.a.translate.curve[0][1]: expected \"linear\", \"stepped\" or a bezier [cx1, "
                      "cy1, cx2, cy2], got an array of another length");
    expect_body_error("\"bones\": { \"a\": { \"inherit\": { \"t\": [0], \"v\": [\"Normal\"], \"curve\": [] } } }",
                      "walk.manim: bones.a.inherit.curve: inherit keys are discrete: they take no \"curve\"");
    expect_body_error("\"deform\": { \"s\": { \"sl\": { \"a\": { \"t\": [0, 1], \"v\": [[], []], \"curve\": "
                      "[[\"linear\", \"stepped\"]] } } } }",
                      "walk.manim: deform.s.sl.a.curve[0]: expected \"linear\", \"stepped\" or a bezier [cx1, cy1, "
                      "cx2, cy2], got an array of another length");
}

static void malformed_slots(void **state)
{
    (void)state;
    expect_body_error("\"slots\": { \"glow\": { \"rgba\": { \"t\": [0], \"v\": [\"#fffff\"] } } }",
                      "walk.manim: slots.glow.rgba.v[0]: bad colour \"#fffff\": expected \"#rrggbbaa\"");
    expect_body_error("\"slots\": { \"glow\": { \"rgba\": { \"t\": [0], \"v\": [\"#ffffff\"] } } }",
                      "walk.manim: slots.glow.rgba.v[0]: bad colour \"#ffffff\": expected \"#rrggbbaa\"");
    expect_body_error("\"slots\": { \"glow\": { \"rgb\": { \"t\": [0], \"v\": [\"#gg0000\"] } } }",
                      "walk.manim: slots.glow.rgb.v[0]: bad colour \"#gg0000\": 'g' is not a hex digit");
    expect_body_error("\"slots\": { \"glow\": { \"rgba2\": { \"t\": [0], \"v\": [[\"#ffffffff\", \"#ffffffff\"]] } } }",
                      "walk.manim: slots.glow.rgba2.v[0][1]: bad colour \"#ffffffff\": expected \"#rrggbb\"");
    expect_body_error("\"slots\": { \"glow\": { \"rgba2\": { \"t\": [0], \"v\": [\"#ffffffff\"] } } }",
                      "walk.manim: slots.glow.rgba2.v[0]: expected [\"#rrggbbaa\", \"#rrggbb\"] (light, dark), got "
                      "a string");
    expect_body_error("\"slots\": { \"glow\": { \"alpha\": { \"t\": [0], \"v\": [1], \"curve\": [] }, \"attachment\": "
                      "{ \"t\": [0], \"v\": [\"\"] } } }",
                      "walk.manim: slots.glow.attachment.v[0]: expected an attachment name or null, got an empty "
                      "string");
    expect_body_error("\"slots\": { \"s\": { \"sequence\": { \"t\": [0], \"v\": [{ \"mode\": \"loops\" }] } } }",
                      "walk.manim: slots.s.sequence.v[0].mode: unknown sequence mode \"loops\" (did you mean "
                      "\"loop\"?)");
    expect_body_error("\"slots\": { \"s\": { \"sequence\": { \"t\": [0], \"v\": [{ \"index\": 1 }] } } }",
                      "walk.manim: slots.s.sequence.v[0]: missing \"mode\"");
    expect_body_error("\"slots\": { \"s\": { \"sequence\": { \"t\": [0], \"v\": [{ \"mode\": \"loop\", \"index\": "
                      "-2 }] } } }",
                      "walk.manim: slots.s.sequence.v[0].index: a frame index must not be negative (-2)");
    expect_body_error("\"slots\": { \"s\": { \"sequence\": { \"t\": [0], \"v\": [{ \"mode\": \"loop\", \"delai\": "
                      "1 }] } } }",
                      "walk.manim: slots.s.sequence.v[0].delai: unknown key \"delai\" (did you mean \"delay\"?)");
}

static void malformed_constraints_and_others(void **state)
{
    (void)state;
    expect_body_error("\"ik\": { \"leg\": { \"t\": [0] } }",
                      "walk.manim: ik.leg: no values: expected at least one of \"mix\", \"softness\", \"bend\", "
                      "\"compress\", \"stretch\"");
    expect_body_error("\"ik\": { \"leg\": { \"t\": [0, 1], \"bend\": [1, 2] } }",
                      "walk.manim: ik.leg.bend[1]: bend must be 1 or -1, got 2");
    expect_body_error("\"ik\": { \"leg\": { \"t\": [0, 1], \"mix\": [1] } }", "walk.manim: ik.leg.mix: 1 value for 2 times");
    expect_body_error("\"ik\": { \"leg\": { \"t\": [0], \"stretch\": [1] } }",
                      "walk.manim: ik.leg.stretch[0]: expected true or false, got a number");
    expect_body_error("\"ik\": { \"leg\": { \"t\": [0], \"v\": [1] } }",
                      "walk.manim: ik.leg.v: ik keys give each value its own array (\"mix\", \"softness\", "
                      "\"bend\" …), not \"v\"");
    expect_body_error("\"ik\": { \"leg\": { \"t\": [0], \"mixx\": [1] } }",
                      "walk.manim: ik.leg.mixx: unknown key \"mixx\" (did you mean \"mix\"?)");
    expect_body_error("\"transform\": { \"tf\": { \"t\": [0] } }",
                      "walk.manim: transform.tf: no values: expected at least one of \"mixRotate\", \"mixX\", "
                      "\"mixY\", \"mixScaleX\", \"mixScaleY\", \"mixShearY\"");
}

static void malformed_constraints_paths(void **state)
{
    (void)state;
    expect_body_error("\"path\": { \"p\": { \"mix\": { \"t\": [0], \"v\": [[1, 1]] } } }",
                      "walk.manim: path.p.mix.v[0]: expected [mixRotate, mixX, mixY], got 2 numbers");
    expect_body_error("\"physics\": { \"\": { \"rest\": { \"t\": [0] } } }",
                      "walk.manim: physics..rest: unknown timeline \"rest\" (did you mean \"reset\"?)");
    expect_body_error("\"physics\": { \"hair\": { \"reset\": { \"t\": [0], \"v\": [0] } } }",
                      "walk.manim: physics.hair.reset.v: reset keys are times only: they take no \"v\"");
    expect_body_error("\"deform\": { \"default\": { \"body\": { \"body\": { \"t\": [0], \"offset\": [-1], \"v\": "
                      "[[1]] } } } }",
                      "walk.manim: deform.default.body.body.offset[0]: an offset must not be negative (-1)");
    expect_body_error("\"deform\": { \"default\": { \"body\": { \"body\": { \"t\": [0], \"v\": [1] } } } }",
                      "walk.manim: deform.default.body.body.v[0]: expected an array of numbers, got a number");
    expect_body_error("\"drawOrder\": { \"t\": [0], \"v\": [[\"glow\"]] }",
                      "walk.manim: drawOrder.v[0][0]: expected a move [\"slot\", delta], got a string");
    expect_body_error("\"drawOrder\": { \"t\": [0], \"v\": [[[\"glow\", 1.5]]] }",
                      "walk.manim: drawOrder.v[0][0][1]: expected an integer, got 1.5");
    expect_body_error("\"drawOrder\": { \"t\": [0], \"v\": [[[\"glow\", 1], [\"glow\", -1]]] }",
                      "walk.manim: drawOrder.v[0][1]: slot \"glow\" moves twice in one key");
    expect_body_error("\"drawOrder\": { \"t\": [0], \"v\": [[[\"c\", 1], [\"b\", 1], [\"a\", -1], [\"b\", 2], "
                      "[\"c\", 3]]] }",
                      "walk.manim: drawOrder.v[0][3]: slot \"b\" moves twice in one key");
    expect_body_error("\"events\": { \"t\": [0], \"v\": [{ \"float\": 1 }] }", "walk.manim: events.v[0]: missing \"name\"");
    expect_body_error("\"events\": { \"t\": [0], \"v\": [{ \"name\": \"a\", \"balance\": 2 }] }",
                      "walk.manim: events.v[0].balance: balance must be within -1..1 (2)");
}

static void malformed_header(void **state)
{
    (void)state;
    expect_body_error("\"loop\": \"Linaer\"", "walk.manim: loop: unknown loop mode \"Linaer\" (did you mean \"Linear\"?)");
    expect_body_error("\"loop\": \"Forever\"",
                      "walk.manim: loop: unknown loop mode \"Forever\" (expected \"None\", \"Linear\" or \"PingPong\")");
    expect_body_error("\"lenght\": 1", "walk.manim: lenght: unknown key \"lenght\" (did you mean \"length\"?)");
    expect_body_error("\"fps\": 0", "walk.manim: fps: fps must be greater than 0");
    expect_error("{ \"format\": 2 }", "walk.manim: format: unsupported format 2 (this version reads format 1)");
    expect_error("{ \"uid\": \"anm_1f07c3a9e5d2\" }", "walk.manim: missing \"format\"");
    expect_error("{ \"format\": 1, \"uid\": \"anm_1F07C3A9E5D2\" }",
                 "walk.manim: uid: expected \"anm_\" and 12 lowercase hex digits, got \"anm_1F07C3A9E5D2\"");
    expect_error("{ \"format\": 1, \"uid\": \"anm_1f07c3a9e5d2\", \"type\": \"Skeleton\" }",
                 "walk.manim: type: expected \"SkeletonClip\", got \"Skeleton\"");
    expect_error("{ \"format\": 1, \"uid\": \"anm_1f07c3a9e5d2\", \"type\": \"SkeletonClip\", \"skeleton\": {} }",
                 "walk.manim: skeleton: missing \"uid\"");
    expect_error("{ \"format\": 1, \"uid\": \"anm_1f07c3a9e5d2\", \"type\": \"SkeletonClip\", \"skeleton\": { "
                 "\"uid\": \"skl_7d1c40e2a9b3\" } }",
                 "walk.manim: missing \"length\"");
    expect_error("{ \"format\": 1, \"uid\": \"anm_1f07c3a9e5d2\", \"type\": \"SkeletonClip\", \"skeleton\": { "
                 "\"uid\": \"skl_7d1c40e2a9b3\" }, \"length\": -1 }",
                 "walk.manim: length: length must not be negative");
    expect_error("{ \"format\": 1,\n  \"uid\": ]", "walk.manim: line 2, column 10: malformed JSON");
    expect_error("", "walk.manim: empty file: expected a JSON object");
    expect_error("[]", "walk.manim: expected an object, got an array");
}

/* ---- clip vs rig ---- */

static char *sdup(mf_skeleton *sk, const char *s) { return mf_skeleton_strdup(sk, s); }

/* bones root, hips, thigh_l, thigh_r; slots body, glow, leg_l; ik leg_l_ik; transform tf; physics hair;
 * event footstep; skins: default (body: Mesh 4 vertices, body_hurt: Region, body_w: weighted Mesh with 4
 * influences on 3 vertices; glow: Region with a sequence; leg_l: Region), armor (body: LinkedMesh of
 * default's body). */
static mf_skeleton *make_rig(void)
{
    mf_skeleton *sk = mf_skeleton_create();
    assert_non_null(sk);
    sk->uid = sdup(sk, "skl_7d1c40e2a9b3");
    const char *bones[] = {"root", "hips", "thigh_l", "thigh_r"};
    sk->bone_count = 4;
    sk->bones = mf_skeleton_alloc(sk, 4 * sizeof(mf_bone));
    for (int i = 0; i < 4; i++) {
        sk->bones[i].name = sdup(sk, bones[i]);
        sk->bones[i].parent = i - 1;
        sk->bones[i].sx = sk->bones[i].sy = 1;
    }
    const char *slots[] = {"body", "glow", "leg_l"};
    sk->slot_count = 3;
    sk->slots = mf_skeleton_alloc(sk, 3 * sizeof(mf_slot));
    for (int i = 0; i < 3; i++) {
        sk->slots[i].name = sdup(sk, slots[i]);
        sk->slots[i].bone = 1;
    }
    sk->ik_count = 1;
    sk->ik = mf_skeleton_alloc(sk, sizeof(mf_ik_constraint));
    sk->ik[0].name = sdup(sk, "leg_l_ik");
    sk->transform_count = 1;
    sk->transform = mf_skeleton_alloc(sk, sizeof(mf_transform_constraint));
    sk->transform[0].name = sdup(sk, "tf");
    sk->physics_count = 1;
    sk->physics = mf_skeleton_alloc(sk, sizeof(mf_physics_constraint));
    sk->physics[0].name = sdup(sk, "hair");
    sk->event_count = 1;
    sk->events = mf_skeleton_alloc(sk, sizeof(mf_event_def));
    sk->events[0].name = sdup(sk, "footstep");
    sk->skin_count = 2;
    sk->skins = mf_skeleton_alloc(sk, 2 * sizeof(mf_skin));
    mf_skin *def = &sk->skins[0];
    def->name = sdup(sk, "default");
    def->attachment_count = 5;
    def->attachments = mf_skeleton_alloc(sk, 5 * sizeof(mf_attachment));
    mf_attachment *a = def->attachments;
    a[0] = (mf_attachment){.slot = 0, .name = sdup(sk, "body"), .type = MF_ATTACH_MESH};
    a[0].vertices.count = 4;
    a[0].vertices.xy = mf_skeleton_alloc(sk, 8 * sizeof(float));
    a[1] = (mf_attachment){.slot = 0, .name = sdup(sk, "body_hurt"), .type = MF_ATTACH_REGION};
    a[2] = (mf_attachment){.slot = 0, .name = sdup(sk, "body_w"), .type = MF_ATTACH_MESH};
    a[2].vertices.count = 3;
    a[2].vertices.first = mf_skeleton_alloc(sk, 4 * sizeof(int32_t));
    a[2].vertices.first[1] = 1;
    a[2].vertices.first[2] = 3;
    a[2].vertices.first[3] = 4;
    a[2].vertices.infl = mf_skeleton_alloc(sk, 4 * sizeof(mf_influence));
    a[3] = (mf_attachment){.slot = 1, .name = sdup(sk, "glow"), .type = MF_ATTACH_REGION};
    a[3].sequence.count = 4;
    a[4] = (mf_attachment){.slot = 2, .name = sdup(sk, "leg_l"), .type = MF_ATTACH_REGION};
    mf_skin *armor = &sk->skins[1];
    armor->name = sdup(sk, "armor");
    armor->attachment_count = 1;
    armor->attachments = mf_skeleton_alloc(sk, sizeof(mf_attachment));
    armor->attachments[0] = (mf_attachment){.slot = 0, .name = sdup(sk, "body"), .type = MF_ATTACH_LINKED_MESH,
                                            .parent = sdup(sk, "body"), .parent_skin = 0};
    return sk;
}

static void expect_rig_error(const mf_skeleton *sk, const char *body, const char *message)
{
    char text[4096];
    snprintf(text, sizeof text, HEAD ", %s }", body);
    mf_clip *c = parse_ok(text);
    mf_diag d;
    mf_result r = mf_clip_check(c, sk, "walk.manim", &d);
    char msg[1024];
    mf_diag_format(&d, msg, sizeof msg);
    if (!message) {
        if (r != MF_OK) fail_msg("unexpected check failure: %s", msg);
    } else {
        assert_int_equal(r, MF_ERR_INVALID);
        assert_string_equal(msg, message);
    }
    mf_clip_free(c);
}

static void check_accepts_a_matching_clip(void **state)
{
    (void)state;
    mf_skeleton *sk = make_rig();
    expect_rig_error(sk,
                 "\"bones\": { \"thigh_l\": { \"rotate\": { \"t\": [0], \"v\": [1] } } }, "
                 "\"slots\": { \"body\": { \"attachment\": { \"t\": [0, 1], \"v\": [\"body_hurt\", null] } }, "
                 "\"glow\": { \"sequence\": { \"t\": [0], \"v\": [{ \"mode\": \"loop\" }] } } }, "
                 "\"ik\": { \"leg_l_ik\": { \"t\": [0], \"mix\": [1] } }, "
                 "\"transform\": { \"tf\": { \"t\": [0], \"mixX\": [1] } }, "
                 "\"physics\": { \"\": { \"reset\": { \"t\": [0] } }, \"hair\": { \"wind\": { \"t\": [0], \"v\": [1] } } }, "
                 "\"deform\": { \"armor\": { \"body\": { \"body\": { \"t\": [0], \"offset\": [6], \"v\": [[1, 2]] } } }, "
                 "\"default\": { \"body\": { \"body\": { \"t\": [0], \"offset\": [2], \"v\": [[1, 2, 3, 4, 5, 6]] }, "
                 "\"body_w\": { \"t\": [0], \"v\": [[1, 2, 3, 4, 5, 6, 7, 8]] } } } }, "
                 "\"drawOrder\": { \"t\": [0], \"v\": [[[\"body\", 2], [\"leg_l\", -2]]] }, "
                 "\"events\": { \"t\": [0], \"v\": [{ \"name\": \"footstep\" }] }",
                 NULL);
    mf_skeleton_free(sk);
}

static void check_reports_names_with_suggestions(void **state)
{
    (void)state;
    mf_skeleton *sk = make_rig();
    /* uid */
    mf_clip *c = parse_ok(HEAD " }");
    c->skeleton_uid = mf_clip_strdup(c, "skl_000000000000");
    mf_diag d;
    char msg[1024];
    assert_int_equal(mf_clip_check(c, sk, "walk.manim", &d), MF_ERR_INVALID);
    mf_diag_format(&d, msg, sizeof msg);
    assert_string_equal(msg, "walk.manim: skeleton.uid: the clip is for skeleton \"skl_000000000000\" but the "
                             "rig's uid is \"skl_7d1c40e2a9b3\"");
    mf_clip_free(c);

    expect_rig_error(sk, "\"bones\": { \"thigh_x\": { \"rotate\": { \"t\": [0], \"v\": [1] } } }",
                 "walk.manim: bones.thigh_x: unknown bone \"thigh_x\" (did you mean \"thigh_l\"?)");
    expect_rig_error(sk, "\"slots\": { \"gloww\": { \"alpha\": { \"t\": [0], \"v\": [1] } } }",
                 "walk.manim: slots.gloww: unknown slot \"gloww\" (did you mean \"glow\"?)");
    expect_rig_error(sk, "\"slots\": { \"body\": { \"attachment\": { \"t\": [0, 1], \"v\": [null, \"body_hrt\"] } } }",
                 "walk.manim: slots.body.attachment.v[1]: no skin has attachment \"body_hrt\" for slot \"body\" "
                 "(did you mean \"body_hurt\"?)");
    expect_rig_error(sk, "\"slots\": { \"body\": { \"attachment\": { \"t\": [0], \"v\": [\"glow\"] } } }",
                 "walk.manim: slots.body.attachment.v[0]: no skin has attachment \"glow\" for slot \"body\"");
    expect_rig_error(sk, "\"slots\": { \"leg_l\": { \"sequence\": { \"t\": [0], \"v\": [{ \"mode\": \"once\" }] } } }",
                 "walk.manim: slots.leg_l.sequence: no attachment of slot \"leg_l\" has a sequence");
    expect_rig_error(sk, "\"ik\": { \"leg_l_ikk\": { \"t\": [0], \"mix\": [1] } }",
                 "walk.manim: ik.leg_l_ikk: unknown ik constraint \"leg_l_ikk\" (did you mean \"leg_l_ik\"?)");
    expect_rig_error(sk, "\"ik\": { \"hair\": { \"t\": [0], \"mix\": [1] } }",
                 "walk.manim: ik.hair: \"hair\" is a physics constraint, not an ik constraint");
    expect_rig_error(sk, "\"transform\": { \"leg_l_ik\": { \"t\": [0], \"mixX\": [1] } }",
                 "walk.manim: transform.leg_l_ik: \"leg_l_ik\" is an ik constraint, not a transform constraint");
    expect_rig_error(sk, "\"path\": { \"spine\": { \"position\": { \"t\": [0], \"v\": [1] } } }",
                 "walk.manim: path.spine: unknown path constraint \"spine\"");
    expect_rig_error(sk, "\"physics\": { \"hiar\": { \"reset\": { \"t\": [0] } } }",
                 "walk.manim: physics.hiar: unknown physics constraint \"hiar\" (did you mean \"hair\"?)");
    expect_rig_error(sk, "\"events\": { \"t\": [0, 1], \"v\": [{ \"name\": \"footstep\" }, { \"name\": \"footstpe\" }] }",
                 "walk.manim: events.v[1].name: unknown event \"footstpe\" (did you mean \"footstep\"?)");
    expect_rig_error(sk, "\"drawOrder\": { \"t\": [0], \"v\": [[[\"glw\", 1]]] }",
                 "walk.manim: drawOrder.v[0][0]: unknown slot \"glw\" (did you mean \"glow\"?)");
    expect_rig_error(sk, "\"drawOrder\": { \"t\": [0, 1], \"v\": [[], [[\"body\", 1], [\"glow\", 2]]] }",
                 "walk.manim: drawOrder.v[1][1]: moving slot \"glow\" (position 1) by 2 leaves the draw order "
                 "(positions 0..2)");
    expect_rig_error(sk, "\"drawOrder\": { \"t\": [0], \"v\": [[[\"body\", -1]]] }",
                 "walk.manim: drawOrder.v[0][0]: moving slot \"body\" (position 0) by -1 leaves the draw order "
                 "(positions 0..2)");
    mf_skeleton_free(sk);
}

static void check_reports_deform_problems(void **state)
{
    (void)state;
    mf_skeleton *sk = make_rig();
    expect_rig_error(sk, "\"deform\": { \"defualt\": { \"body\": { \"body\": { \"t\": [0], \"v\": [[1]] } } } }",
                 "walk.manim: deform.defualt: unknown skin \"defualt\" (did you mean \"default\"?)");
    expect_rig_error(sk, "\"deform\": { \"default\": { \"bdy\": { \"body\": { \"t\": [0], \"v\": [[1]] } } } }",
                 "walk.manim: deform.default.bdy: unknown slot \"bdy\" (did you mean \"body\"?)");
    expect_rig_error(sk, "\"deform\": { \"armor\": { \"body\": { \"body_w\": { \"t\": [0], \"v\": [[1]] } } } }",
                 "walk.manim: deform.armor.body.body_w: skin \"armor\" has no attachment \"body_w\" for slot "
                 "\"body\" (did you mean \"body\"?)");
    expect_rig_error(sk, "\"deform\": { \"default\": { \"body\": { \"bodyy\": { \"t\": [0], \"v\": [[1]] } } } }",
                 "walk.manim: deform.default.body.bodyy: skin \"default\" has no attachment \"bodyy\" for slot "
                 "\"body\" (did you mean \"body\"?)");
    expect_rig_error(sk, "\"deform\": { \"default\": { \"body\": { \"body_hurt\": { \"t\": [0], \"v\": [[1]] } } } }",
                 "walk.manim: deform.default.body.body_hurt: attachment \"body_hurt\" is a Region: only attachments "
                 "with vertices (Mesh, LinkedMesh, BoundingBox, Clipping, Path) deform");
    expect_rig_error(sk, "\"deform\": { \"default\": { \"body\": { \"body\": { \"t\": [0, 1], \"offset\": [0, 4], "
                     "\"v\": [[1], [1, 2, 3, 4, 5, 6]] } } } }",
                 "walk.manim: deform.default.body.body.v[1]: offset 4 + 6 floats = 10 runs past the attachment's 8 "
                 "floats (4 vertices)");
    expect_rig_error(sk, "\"deform\": { \"default\": { \"body\": { \"body_w\": { \"t\": [0], \"offset\": [1], "
                     "\"v\": [[1, 2, 3, 4, 5, 6, 7, 8]] } } } }",
                 "walk.manim: deform.default.body.body_w.v[0]: offset 1 + 8 floats = 9 runs past the attachment's "
                 "8 floats (3 vertices, weighted: x, y per influence)");
    expect_rig_error(sk, "\"deform\": { \"armor\": { \"body\": { \"body\": { \"t\": [0], \"v\": [[1, 2, 3, 4, 5, 6, 7, "
                     "8, 9]] } } } }",
                 "walk.manim: deform.armor.body.body.v[0]: offset 0 + 9 floats = 9 runs past the attachment's 8 "
                 "floats (4 vertices)");
    mf_skeleton_free(sk);
}

/* ---- files ---- */

static void save_is_atomic(void **state)
{
    (void)state;
    mf_clip *c = load_ok("tests/data/manim/all_kinds.manim");
    char *want = tu_read(tu_src("tests/data/manim/all_kinds.manim"), NULL);
    const char *path = tu_tmp("saved.manim");
    mf_diag d;
    assert_int_equal(mf_clip_save(c, path, &d), MF_OK);
    char *got = tu_read(path, NULL);
    assert_string_equal(got, want);
    free(got);

    /* a clip that cannot be written leaves the old file */
    mf_clip *bad = load_ok("tests/data/manim/seed.manim");
    bad->timelines[0].key_count = 0;
    assert_int_equal(mf_clip_save(bad, path, &d), MF_ERR_INVALID);
    got = tu_read(path, NULL);
    assert_string_equal(got, want);
    free(got);
    mf_clip_free(bad);

    /* a failing write (no room for the temporary file's name) leaves the old file */
    char name[260];
    memset(name, 'a', 248);
    strcpy(name + 248, ".manim");
    char longpath[1024];
    snprintf(longpath, sizeof longpath, "%s", tu_tmp(name));
    assert_int_equal(tu_write(longpath, "old"), 0);
    assert_int_equal(mf_clip_save(c, longpath, &d), MF_ERR_IO);
    assert_contains(d.message, "cannot create a temporary file");
    assert_int_equal(strncmp(d.file, longpath, sizeof d.file - 1), 0); /* the diag keeps 255 chars */
    got = tu_read(longpath, NULL);
    assert_string_equal(got, "old");
    free(got);
    free(want);
    mf_clip_free(c);
}

static void load_names_the_clip_and_reports_missing_files(void **state)
{
    (void)state;
    const char *path = tu_tmp("hero.clips_load/run.fast.manim");
    mkdir(tu_tmp("hero.clips_load"), 0777);
    char *text = tu_read(tu_src("tests/data/manim/seed.manim"), NULL);
    assert_int_equal(tu_write(path, text), 0);
    free(text);
    mf_clip *c = NULL;
    mf_diag d;
    assert_int_equal(mf_clip_load(path, &c, &d), MF_OK);
    assert_string_equal(c->name, "run.fast");
    mf_clip_free(c);
    assert_int_equal(mf_clip_load(tu_tmp("nope.manim"), &c, &d), MF_ERR_IO);
    assert_null(c);
    assert_contains(d.message, "cannot open");
}

static void clip_folder_and_list(void **state)
{
    (void)state;
    char out[512];
    mf_clip_folder("art/hero.mskel", NULL, out, sizeof out);
    assert_string_equal(out, "art/hero.clips/");
    mf_clip_folder("hero.mskel", NULL, out, sizeof out);
    assert_string_equal(out, "hero.clips/");
    mf_skeleton *sk = mf_skeleton_create();
    sk->clips = mf_skeleton_strdup(sk, "anims");
    mf_clip_folder("art/hero.mskel", sk, out, sizeof out);
    assert_string_equal(out, "art/anims/");
    sk->clips = mf_skeleton_strdup(sk, "../shared/anims/");
    mf_clip_folder("art/hero.mskel", sk, out, sizeof out);
    assert_string_equal(out, "art/../shared/anims/");
    mf_skeleton_free(sk);

    const char *dir = tu_tmp("list.clips");
    mkdir(dir, 0777);
    char p[1024];
    const char *files[] = {"walk.manim", "idle.manim", "Run.manim", "notes.txt", ".hidden.manim", "walk.manim.tmp"};
    for (int i = 0; i < 6; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        assert_int_equal(tu_write(p, "{}"), 0);
    }
    snprintf(p, sizeof p, "%s/folder.manim", dir);
    mkdir(p, 0777);
    char **paths = NULL;
    int32_t n = -1;
    mf_diag d;
    assert_int_equal(mf_clip_list(dir, &paths, &n, &d), MF_OK);
    assert_int_equal(n, 3);
    snprintf(p, sizeof p, "%s/Run.manim", dir);
    assert_string_equal(paths[0], p);
    snprintf(p, sizeof p, "%s/idle.manim", dir);
    assert_string_equal(paths[1], p);
    snprintf(p, sizeof p, "%s/walk.manim", dir);
    assert_string_equal(paths[2], p);
    mf_clip_list_free(paths, n);

    assert_int_equal(mf_clip_list(tu_tmp("missing.clips"), &paths, &n, &d), MF_OK);
    assert_int_equal(n, 0);
    assert_null(paths);
    snprintf(p, sizeof p, "%s/notes.txt", dir);
    assert_int_equal(mf_clip_list(p, &paths, &n, &d), MF_ERR_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kind_tables_match_the_format),
        cmocka_unit_test(seed_example_parses_as_written),
        cmocka_unit_test(canonical_file_is_byte_identical),
        cmocka_unit_test(every_kind_reads_its_values),
        cmocka_unit_test(writer_folds_curves_and_defaults),
        cmocka_unit_test(one_key_edit_changes_one_line),
        cmocka_unit_test(sort_orders_groups_targets_and_kinds),
        cmocka_unit_test(malformed_values_and_times),
        cmocka_unit_test(malformed_curves),
        cmocka_unit_test(malformed_slots),
        cmocka_unit_test(malformed_constraints_and_others),
        cmocka_unit_test(malformed_constraints_paths),
        cmocka_unit_test(malformed_header),
        cmocka_unit_test(check_accepts_a_matching_clip),
        cmocka_unit_test(check_reports_names_with_suggestions),
        cmocka_unit_test(check_reports_deform_problems),
        cmocka_unit_test(save_is_atomic),
        cmocka_unit_test(load_names_the_clip_and_reports_missing_files),
        cmocka_unit_test(clip_folder_and_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
