/* The Spine importer on small Spine-format files this test writes itself: a rig with every
 * attachment type and every timeline type, an atlas with a rotated region, trimmed regions and a
 * premultiplied page; the converted values (flips, defaults, normalised curves), the unpacked
 * pixels, the report, and bad input of every kind the issue names (exact located messages,
 * exit 2, the output folder untouched). JSON literals use ' for ". */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

/* paths here are built from bounded folder names; gcc cannot see the bounds */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mf/mf_clip.h"
#include "mf/mf_png.h"
#include "mf/mf_spine.h"

/* ' → " in a malloc'd copy. */
static char *q(const char *s)
{
    char *d = strdup(s);
    for (char *p = d; *p; p++)
        if (*p == '\'') *p = '"';
    return d;
}

/* s with the first `from` replaced by `to` (malloc'd); the test fails when from is missing. */
static char *replace(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    if (!at) {
        print_error("replace: \"%s\" not found\n", from);
        fail();
    }
    size_t n = strlen(s) - strlen(from) + strlen(to);
    char *d = malloc(n + 1);
    size_t pre = (size_t)(at - s);
    memcpy(d, s, pre);
    strcpy(d + pre, to);
    strcat(d, at + strlen(from));
    return d;
}

/* ---------------------------------------------------------------- the test rig */

static const char *RIG_JSON =
    "{ 'skeleton': { 'hash': 'abc', 'spine': '4.2.22', 'x': 0, 'y': 0, 'width': 10, 'height': 10, 'fps': 24,\n"
    "    'images': './images/', 'audio': './audio/' },\n"
    "  'bones': [\n"
    "    { 'name': 'root' },\n"
    "    { 'name': 'body', 'parent': 'root', 'x': 10, 'y': 20, 'rotation': 30, 'scaleX': 2, 'shearX': 5,\n"
    "      'shearY': -4, 'length': 50, 'color': 'ff0000ff', 'foo': 1 },\n"
    "    { 'name': 'upper', 'parent': 'body', 'x': 50, 'rotation': -45, 'length': 30, 'inherit': 'noScale' },\n"
    "    { 'name': 'lower', 'parent': 'upper', 'x': 30, 'length': 20 },\n"
    "    { 'name': 'target', 'parent': 'root', 'x': 60, 'y': -10 },\n"
    "    { 'name': 'tail', 'parent': 'body', 'skin': true, 'transform': 'onlyTranslation' },\n"
    "    { 'name': 'follower', 'parent': 'root' },\n"
    "    { 'name': 'chain', 'parent': 'root' },\n"
    "    { 'name': 'hair', 'parent': 'body' } ],\n"
    "  'slots': [\n"
    "    { 'name': 'body', 'bone': 'body', 'attachment': 'head', 'color': 'ff8040c0', 'dark': '102030',\n"
    "      'blend': 'additive' },\n"
    "    { 'name': 'arm', 'bone': 'upper', 'attachment': 'arm' },\n"
    "    { 'name': 'cape', 'bone': 'body', 'attachment': 'cape' },\n"
    "    { 'name': 'fx', 'bone': 'body', 'attachment': 'flame', 'blend': 'screen' },\n"
    "    { 'name': 'glow', 'bone': 'root', 'attachment': 'glow', 'blend': 'multiply' },\n"
    "    { 'name': 'hat', 'bone': 'body', 'attachment': 'hat' },\n"
    "    { 'name': 'clip', 'bone': 'root', 'attachment': 'clip' },\n"
    "    { 'name': 'path', 'bone': 'root', 'attachment': 'path' },\n"
    "    { 'name': 'spawn', 'bone': 'lower', 'attachment': 'spawn' },\n"
    "    { 'name': 'hitbox', 'bone': 'body', 'attachment': 'hitbox' } ],\n"
    "  'ik': [\n"
    "    { 'name': 'arm-ik', 'order': 2, 'bones': ['upper', 'lower'], 'target': 'target', 'mix': 0.5, 'softness': 4,\n"
    "      'bendPositive': false, 'compress': true, 'stretch': true, 'uniform': true },\n"
    "    { 'name': 'tail-ik', 'skin': true, 'bones': ['tail'], 'target': 'target' } ],\n"
    "  'transform': [\n"
    "    { 'name': 'follow', 'order': 1, 'bones': ['follower'], 'target': 'body', 'rotation': 10, 'x': 3, 'y': 4,\n"
    "      'scaleX': 0.5, 'scaleY': 0.25, 'shearY': 6, 'mixRotate': 0.5, 'mixX': 0.25, 'mixScaleX': 0.75,\n"
    "      'mixShearY': 0, 'local': true, 'relative': true } ],\n"
    "  'path': [\n"
    "    { 'name': 'along', 'order': 3, 'bones': ['chain'], 'target': 'path', 'positionMode': 'fixed',\n"
    "      'spacingMode': 'percent', 'rotateMode': 'chainScale', 'rotation': 15, 'position': 5, 'spacing': 0.5,\n"
    "      'mixRotate': 0.5, 'mixX': 0.25 } ],\n"
    "  'physics': [\n"
    "    { 'name': 'hair', 'order': 4, 'bone': 'hair', 'x': 0.5, 'rotate': 1, 'limit': 1000, 'fps': 30,\n"
    "      'inertia': 0.5, 'strength': 80, 'damping': 0.9, 'mass': 2, 'wind': 3, 'gravity': 5, 'mix': 0.75,\n"
    "      'windGlobal': true } ],\n"
    "  'skins': [\n"
    "    { 'name': 'default', 'attachments': {\n"
    "      'body': { 'head': { 'x': 1, 'y': 2, 'rotation': 90, 'scaleX': 2, 'width': 8, 'height': 6,\n"
    "                          'color': 'ffffff80' } },\n"
    "      'arm': { 'arm': { 'type': 'mesh', 'uvs': [0, 0, 1, 0, 1, 1, 0, 1], 'triangles': [0, 1, 2, 2, 3, 0],\n"
    "                        'vertices': [0, 0, 10, 0, 10, -20, 0, -20], 'hull': 4, 'edges': [0, 2, 2, 4, 4, 6, 6, 0],\n"
    "                        'width': 3, 'height': 5 } },\n"
    "      'cape': { 'cape': { 'type': 'mesh', 'uvs': [0, 0, 1, 0, 1, 1], 'triangles': [0, 1, 2], 'hull': 3,\n"
    "                          'vertices': [1, 1, 5, 6, 1, 2, 1, 1, 2, 0.25, 2, 3, 4, 0.75, 1, 8, -1, -2, 1] } },\n"
    "      'fx': { 'flame': { 'width': 2, 'height': 2, 'sequence': { 'count': 2, 'start': 1, 'digits': 2,\n"
    "                         'setup': 1 } } },\n"
    "      'glow': { 'glow': { 'width': 4, 'height': 4 } },\n"
    "      'hat': { 'hat': { 'name': 'hat-alias', 'path': 'hat', 'width': 7, 'height': 8 } },\n"
    "      'clip': { 'clip': { 'type': 'clipping', 'end': 'hat', 'vertexCount': 3, 'vertices': [0, 0, 10, 0, 0, 10],\n"
    "                          'color': 'ce3a3aff' } },\n"
    "      'path': { 'path': { 'type': 'path', 'closed': true, 'constantSpeed': false, 'lengths': [10, 20],\n"
    "                          'vertexCount': 6, 'vertices': [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5] } },\n"
    "      'spawn': { 'spawn': { 'type': 'point', 'name': 'spawn-point', 'x': 3, 'y': 4, 'rotation': 20 } },\n"
    "      'hitbox': { 'hitbox': { 'type': 'boundingbox', 'name': 'hitbox', 'vertexCount': 3,\n"
    "                              'vertices': [0, 0, 4, 0, 0, -4] } } } },\n"
    "    { 'name': 'red', 'bones': ['tail'], 'ik': ['tail-ik'], 'attachments': {\n"
    "      'arm': { 'arm': { 'type': 'linkedmesh', 'path': 'head', 'parent': 'arm', 'timelines': false,\n"
    "                        'width': 4, 'height': 3 } } } } ],\n"
    "  'events': { 'step': { 'int': 3, 'float': 0.5, 'string': 'left', 'audio': 'step.ogg', 'volume': 0.8,\n"
    "                        'balance': -0.5 }, 'hit': {} },\n"
    "  'animations': {\n"
    "    'all': {\n"
    "      'bones': {\n"
    "        'body': {\n"
    "          'rotate': [ { 'value': 10, 'curve': [0.25, 10, 0.75, 40] }, { 'time': 1, 'value': 50 } ],\n"
    "          'translate': [ { 'x': 1, 'y': 2, 'curve': 'stepped' }, { 'time': 0.5, 'x': 3, 'y': 4 } ],\n"
    "          'translatex': [ { 'value': 5 } ], 'translatey': [ { 'value': 6 } ],\n"
    "          'scale': [ { 'x': 2 }, { 'time': 0.5, 'y': 3 } ], 'scalex': [ { 'value': 2 } ], 'scaley': [ {} ],\n"
    "          'shear': [ { 'x': 10, 'y': 20 } ], 'shearx': [ { 'value': 5 } ], 'sheary': [ { 'value': 6 } ],\n"
    "          'inherit': [ { 'time': 0.25, 'inherit': 'noRotationOrReflection' }, { 'time': 0.75 } ] },\n"
    "        'upper': { 'rotate': [ { 'value': 20, 'curve': [0.25, 20, 0.5, 0] }, { 'time': 0.5, 'value': 20 } ] } },\n"
    "      'slots': {\n"
    "        'body': { 'attachment': [ { 'time': 0.5, 'name': null }, { 'time': 0.75, 'name': 'head' } ],\n"
    "                  'rgba': [ { 'color': 'ff000080' }, { 'time': 1, 'color': '00ff00ff' } ],\n"
    "                  'alpha': [ { 'value': 0.5 } ] },\n"
    "        'arm': { 'rgb': [ { 'color': '00ff00' } ], 'alpha': [ { 'value': 0.25 } ],\n"
    "                 'rgb2': [ { 'light': 'ff0000', 'dark': '00ff00' }, { 'time': 0.5, 'light': '0000ff', 'dark': '000000' } ] },\n"
    "        'glow': { 'rgba2': [ { 'light': 'ff000080', 'dark': '0000ff' } ] } },\n"
    "      'ik': { 'arm-ik': [ { 'mix': 0.5, 'softness': 4, 'bendPositive': false, 'compress': true, 'stretch': true,\n"
    "                            'curve': [0.25, 0.5, 0.75, 1, 0.25, 4, 0.75, 8] }, { 'time': 1, 'softness': 8 } ] },\n"
    "      'transform': { 'follow': [ { 'mixRotate': 1, 'mixX': 0.5 } ] },\n"
    "      'path': { 'along': { 'position': [ { 'value': 2 } ], 'spacing': [ { 'value': 3 } ],\n"
    "                           'mix': [ { 'mixRotate': 0.5, 'mixX': 0.25 } ] } },\n"
    "      'physics': { 'hair': { 'inertia': [ { 'value': 0.5 } ], 'strength': [ { 'value': 1 } ],\n"
    "                             'damping': [ { 'value': 2 } ], 'mass': [ { 'value': 3 } ], 'wind': [ { 'value': 4 } ],\n"
    "                             'gravity': [ { 'value': 5 } ], 'mix': [ { 'value': 6 } ] },\n"
    "                   '': { 'reset': [ { 'time': 0.5 } ] } },\n"
    "      'attachments': { 'default': {\n"
    "        'arm': { 'arm': { 'deform': [ { 'offset': 1, 'vertices': [1, 2, 3], 'curve': [0.25, 0.1, 0.75, 0.9] },\n"
    "                                      { 'time': 1 } ] } },\n"
    "        'cape': { 'cape': { 'deform': [ { 'offset': 2, 'vertices': [7, 8] } ] } },\n"
    "        'fx': { 'flame': { 'sequence': [ { 'mode': 'loop', 'index': 1, 'delay': 0.1 },\n"
    "                                         { 'time': 0.5, 'mode': 'pingpongReverse' } ] } } } },\n"
    "      'drawOrder': [ { 'time': 0.5, 'offsets': [ { 'slot': 'glow', 'offset': -3 }, { 'slot': 'body', 'offset': 2 } ] },\n"
    "                     { 'time': 1 } ],\n"
    "      'events': [ { 'time': 0.25, 'name': 'step' },\n"
    "                  { 'time': 0.5, 'name': 'step', 'int': 7, 'float': 1.5, 'string': 'right', 'volume': 0.5,\n"
    "                    'balance': 0.25 },\n"
    "                  { 'time': 0.75, 'name': 'hit' } ] },\n"
    "    'old': { 'deform': { 'default': { 'arm': { 'arm': [ { 'time': 0.5, 'vertices': [1, 1] } ] } } } },\n"
    "    'idle/loop': { 'bones': { 'root': { 'rotate': [ { 'value': 0 } ] } } } } }\n";

static const char *RIG_ATLAS =
    "\n"
    "rig.png\n"
    "\tsize: 32, 16\n"
    "\tformat: RGBA8888\n"
    "\tfilter: Linear, Linear\n"
    "head\n"
    "\tbounds: 0, 0, 4, 3\n"
    "arm\n"
    "\tbounds: 8, 0, 3, 5\n"
    "\trotate: 90\n"
    "hat\n"
    "\tbounds: 16, 0, 4, 4\n"
    "\toffsets: 1, 2, 7, 8\n"
    "cape\n"
    "\tbounds: 24, 0, 3, 4\n"
    "\toffsets: 2, 1, 6, 6\n"
    "\trotate: 90\n"
    "flame01\n"
    "\tbounds: 0, 8, 2, 2\n"
    "flame02\n"
    "\tbounds: 4, 8, 2, 2\n"
    "spare\n"
    "\tbounds: 8, 8, 3, 3\n"
    "\tsplit: 1, 1, 1, 1\n"
    "\n"
    "rig2.png\n"
    "\tsize: 8, 8\n"
    "\tpma: true\n"
    "\tscale: 0.5\n"
    "glow\n"
    "\tbounds: 0, 0, 4, 4\n";

/* The straight page: every pixel says where it is. */
static void page1_pixel(int x, int y, uint8_t *p)
{
    p[0] = (uint8_t)(x * 7 + 1), p[1] = (uint8_t)(y * 13 + 2), p[2] = 200, p[3] = 255;
}

/* The premultiplied page, holding floor(c * a / 255) like Spine's: straight (200, 100, 50) at
 * alphas 255, 128 and 0. */
static void page2_pixel(int x, int y, uint8_t *p)
{
    int a = x < 2 ? 255 : y < 2 ? 128 : 0;
    p[0] = (uint8_t)(200 * a / 255), p[1] = (uint8_t)(100 * a / 255), p[2] = (uint8_t)(50 * a / 255), p[3] = (uint8_t)a;
    if (a == 0) p[0] = 9; /* junk colour under zero alpha */
}

static void write_page(const char *path, int w, int h, void (*px)(int, int, uint8_t *))
{
    mf_image img;
    mf_diag d;
    assert_int_equal(mf_image_alloc(&img, w, h), MF_OK);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) px(x, y, img.rgba + ((size_t)y * (size_t)w + (size_t)x) * 4);
    assert_int_equal(mf_png_save(&img, path, &d), MF_OK);
    mf_image_free(&img);
}

/* A folder under the test's temporary folder with rig.json (text), rig.atlas and the pages. */
static const char *make_input(const char *name, const char *json, const char *atlas)
{
    static char dir[8][4096];
    static int next;
    char *d = dir[next++ & 7];
    snprintf(d, 4096, "%s", tu_tmp(name));
    mkdir(d, 0777);
    char path[4200];
    char *j = q(json);
    snprintf(path, sizeof path, "%s/rig.json", d);
    assert_int_equal(tu_write(path, j), 0);
    free(j);
    if (atlas) {
        snprintf(path, sizeof path, "%s/rig.atlas", d);
        assert_int_equal(tu_write(path, atlas), 0);
        snprintf(path, sizeof path, "%s/rig.png", d);
        write_page(path, 32, 16, page1_pixel);
        snprintf(path, sizeof path, "%s/rig2.png", d);
        write_page(path, 8, 8, page2_pixel);
    }
    return d;
}

static const char *good_dir;   /* inputs of the good rig */
static char good_out[4200];    /* its import */

static int setup(void **state)
{
    (void)state;
    good_dir = make_input("good", RIG_JSON, RIG_ATLAS);
    snprintf(good_out, sizeof good_out, "%s/out", tu_tmp("good"));
    return 0;
}

static char *out_path(const char *rel)
{
    static char buf[4][4400];
    static int next;
    char *b = buf[next++ & 3];
    snprintf(b, 4400, "%s/%s", good_out, rel);
    return b;
}

static void import_good(void)
{
    static bool done;
    if (done) return;
    char *out = NULL;
    int rc = tu_mfe(&out, "skel import-spine '%s/rig.json' --out '%s'", good_dir, good_out);
    if (rc != 0) print_error("%s\n", out);
    assert_int_equal(rc, 0);
    assert_contains(out, "bones 9, slots 10, skins 2, attachments 11, constraints 5, events 2");
    assert_contains(out, "clips 3");
    assert_contains(out, "images 8");
    assert_contains(out, "import report:");
    free(out);
    done = true;
}

static mf_skeleton *load_good(void)
{
    import_good();
    mf_skeleton *sk = NULL;
    mf_diag d;
    assert_int_equal(mf_skeleton_load(out_path("rig.mskel"), &sk, &d), MF_OK);
    return sk;
}

static mf_clip *load_clip(const char *name)
{
    import_good();
    char rel[200];
    snprintf(rel, sizeof rel, "rig.clips/%s.manim", name);
    mf_clip *clip = NULL;
    mf_diag d;
    char msg[1200];
    if (mf_clip_load(out_path(rel), &clip, &d) != MF_OK) {
        mf_diag_format(&d, msg, sizeof msg);
        print_error("%s\n", msg);
        fail();
    }
    return clip;
}

static const mf_timeline *find_tl(const mf_clip *clip, mf_timeline_kind kind, const char *target)
{
    for (int32_t i = 0; i < clip->timeline_count; i++) {
        const mf_timeline *tl = &clip->timelines[i];
        if (tl->kind == kind && (!target || (tl->target && strcmp(tl->target, target) == 0))) return tl;
    }
    print_error("no %s timeline for %s\n", mf_timeline_kind_name(kind), target ? target : "-");
    fail();
    return NULL;
}

#define assert_near(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-4)

/* ---------------------------------------------------------------- the rig */

static void test_bones_flip_y_rotation_and_shear(void **state)
{
    (void)state;
    mf_skeleton *sk = load_good();
    assert_int_equal(sk->bone_count, 9);
    const mf_bone *body = &sk->bones[mf_skeleton_find_bone(sk, "body")];
    assert_near(body->x, 10), assert_near(body->y, -20), assert_near(body->rot, -30);
    assert_near(body->sx, 2), assert_near(body->sy, 1), assert_near(body->shx, -5), assert_near(body->shy, 4);
    assert_near(body->length, 50);
    assert_int_equal(body->color, 0xff0000ffu);
    const mf_bone *upper = &sk->bones[mf_skeleton_find_bone(sk, "upper")];
    assert_near(upper->rot, 45);
    assert_int_equal(upper->inherit, MF_INHERIT_NO_SCALE);
    const mf_bone *tail = &sk->bones[mf_skeleton_find_bone(sk, "tail")];
    assert_true(tail->skin_required);
    assert_int_equal(tail->inherit, MF_INHERIT_ONLY_TRANSLATION); /* 4.0/4.1's "transform" key */
    assert_near(sk->fps, 24);
    mf_skeleton_free(sk);
}

static void test_slots_keep_colour_dark_and_blend(void **state)
{
    (void)state;
    mf_skeleton *sk = load_good();
    const mf_slot *body = &sk->slots[0];
    assert_string_equal(body->name, "body");
    assert_string_equal(body->attachment, "head");
    assert_int_equal(body->color, 0xff8040c0u);
    assert_true(body->has_dark);
    assert_int_equal(body->dark >> 8, 0x102030u);
    assert_int_equal(body->blend, MF_BLEND_ADDITIVE);
    assert_int_equal(sk->slots[mf_skeleton_find_slot(sk, "fx")].blend, MF_BLEND_SCREEN);
    assert_int_equal(sk->slots[mf_skeleton_find_slot(sk, "glow")].blend, MF_BLEND_MULTIPLY);
    assert_false(sk->slots[1].has_dark);
    mf_skeleton_free(sk);
}

static void test_constraints_keep_every_setting(void **state)
{
    (void)state;
    mf_skeleton *sk = load_good();
    assert_int_equal(sk->ik_count, 2);
    const mf_ik_constraint *ik = &sk->ik[0];
    assert_string_equal(ik->name, "arm-ik");
    assert_int_equal(ik->bone_count, 2);
    assert_int_equal(ik->bend, 1); /* bendPositive false, mirrored */
    assert_near(ik->mix, 0.5), assert_near(ik->softness, 4);
    assert_true(ik->compress && ik->stretch && ik->uniform);
    assert_int_equal(ik->order, 2);
    assert_int_equal(sk->ik[1].bend, -1); /* Spine's default bendPositive true */
    assert_true(sk->ik[1].skin_required);
    assert_int_equal(sk->ik[1].order, 0); /* Spine's default order 0 comes first */
    const mf_transform_constraint *tf = &sk->transform[0];
    assert_near(tf->offset_rot, -10), assert_near(tf->offset_x, 3), assert_near(tf->offset_y, -4);
    assert_near(tf->offset_sx, 0.5), assert_near(tf->offset_sy, 0.25), assert_near(tf->offset_shy, -6);
    assert_near(tf->mix_rotate, 0.5), assert_near(tf->mix_x, 0.25), assert_near(tf->mix_y, 0.25); /* mixY = mixX */
    assert_near(tf->mix_scale_x, 0.75), assert_near(tf->mix_scale_y, 0.75), assert_near(tf->mix_shear_y, 0);
    assert_true(tf->local && tf->relative);
    assert_int_equal(tf->order, 1);
    const mf_path_constraint *pc = &sk->path[0];
    assert_int_equal(pc->target, mf_skeleton_find_slot(sk, "path"));
    assert_int_equal(pc->position_mode, MF_POSITION_FIXED);
    assert_int_equal(pc->spacing_mode, MF_SPACING_PERCENT);
    assert_int_equal(pc->rotate_mode, MF_ROTATE_CHAIN_SCALE);
    assert_near(pc->offset_rot, -15), assert_near(pc->position, 5), assert_near(pc->spacing, 0.5);
    assert_near(pc->mix_rotate, 0.5), assert_near(pc->mix_x, 0.25), assert_near(pc->mix_y, 0.25);
    const mf_physics_constraint *ph = &sk->physics[0];
    assert_near(ph->x, 0.5), assert_near(ph->y, 0), assert_near(ph->rotate, 1), assert_near(ph->limit, 1000);
    assert_near(ph->step, 1.0 / 30), assert_near(ph->inertia, 0.5), assert_near(ph->strength, 80);
    assert_near(ph->damping, 0.9), assert_near(ph->mass, 2), assert_near(ph->wind, 3), assert_near(ph->gravity, 5);
    assert_near(ph->mix, 0.75);
    assert_true(ph->wind_global);
    assert_false(ph->gravity_global);
    const mf_event_def *ev = &sk->events[mf_skeleton_find_event(sk, "step")];
    assert_int_equal(ev->int_value, 3), assert_near(ev->float_value, 0.5);
    assert_string_equal(ev->string_value, "left"), assert_string_equal(ev->audio, "step.ogg");
    assert_near(ev->volume, 0.8), assert_near(ev->balance, -0.5);
    mf_skeleton_free(sk);
}

static const mf_attachment *att(const mf_skeleton *sk, const char *skin, const char *slot, const char *name)
{
    const mf_attachment *a =
        mf_skin_find_attachment(&sk->skins[mf_skeleton_find_skin(sk, skin)], mf_skeleton_find_slot(sk, slot), name);
    assert_non_null(a);
    return a;
}

static void test_every_attachment_type(void **state)
{
    (void)state;
    mf_skeleton *sk = load_good();
    const mf_attachment *a = att(sk, "default", "body", "head");
    assert_int_equal(a->type, MF_ATTACH_REGION);
    assert_near(a->x, 1), assert_near(a->y, -2), assert_near(a->rot, -90), assert_near(a->sx, 2);
    assert_near(a->width, 8), assert_near(a->height, 6);
    assert_int_equal(a->color, 0xffffff80u);
    a = att(sk, "default", "arm", "arm");
    assert_int_equal(a->type, MF_ATTACH_MESH);
    const float xy[] = {0, 0, 10, 0, 10, 20, 0, 20}, uvs[] = {0, 0, 1, 0, 1, 1, 0, 1};
    for (int i = 0; i < 8; i++) assert_near(a->vertices.xy[i], xy[i]), assert_near(a->uvs[i], uvs[i]);
    assert_int_equal(a->hull, 4);
    assert_int_equal(a->edge_count, 4);
    const int32_t edges[] = {0, 1, 1, 2, 2, 3, 3, 0}; /* Spine's float indices halved */
    for (int i = 0; i < 8; i++) assert_int_equal(a->edges[i], edges[i]);
    a = att(sk, "default", "cape", "cape");
    assert_null(a->vertices.xy);
    assert_int_equal(a->vertices.bone_count, 3);
    assert_string_equal(sk->bones[a->vertices.bones[0]].name, "body");
    assert_string_equal(sk->bones[a->vertices.bones[1]].name, "upper");
    assert_string_equal(sk->bones[a->vertices.bones[2]].name, "hair");
    assert_int_equal(a->vertices.first[3], 4);
    const mf_influence *f = a->vertices.infl;
    assert_int_equal(f[0].bone, 0), assert_near(f[0].weight, 1), assert_near(f[0].x, 5), assert_near(f[0].y, -6);
    assert_int_equal(f[2].bone, 1), assert_near(f[2].weight, 0.75), assert_near(f[2].x, 3), assert_near(f[2].y, -4);
    assert_int_equal(f[3].bone, 2), assert_near(f[3].y, 2);
    a = att(sk, "default", "fx", "flame");
    assert_int_equal(a->sequence.count, 2), assert_int_equal(a->sequence.start, 1);
    assert_int_equal(a->sequence.digits, 2), assert_int_equal(a->sequence.setup, 1);
    assert_string_equal(a->image, "flame");
    a = att(sk, "default", "hat", "hat");
    assert_string_equal(a->image, "hat"); /* "path" wins over "name" */
    assert_string_equal(a->display_name, "hat-alias"); /* Spine's own name, beside the key */
    a = att(sk, "default", "clip", "clip");
    assert_int_equal(a->type, MF_ATTACH_CLIPPING);
    assert_int_equal(a->end_slot, mf_skeleton_find_slot(sk, "hat"));
    assert_near(a->vertices.xy[5], -10);
    a = att(sk, "default", "path", "path");
    assert_int_equal(a->type, MF_ATTACH_PATH);
    assert_true(a->closed);
    assert_false(a->constant_speed);
    assert_int_equal(a->length_count, 2);
    assert_near(a->vertices.xy[3], -1);
    a = att(sk, "default", "spawn", "spawn");
    assert_int_equal(a->type, MF_ATTACH_POINT);
    assert_near(a->x, 3), assert_near(a->y, -4), assert_near(a->rot, -20);
    assert_string_equal(a->display_name, "spawn-point");
    a = att(sk, "default", "hitbox", "hitbox");
    assert_int_equal(a->type, MF_ATTACH_BOUNDING_BOX);
    assert_near(a->vertices.xy[5], 4);
    assert_null(a->display_name); /* "name" equal to the key: none kept */
    assert_null(att(sk, "default", "body", "head")->display_name);
    /* the second skin: skin bones and constraints, and a linked mesh into the default skin */
    const mf_skin *red = &sk->skins[mf_skeleton_find_skin(sk, "red")];
    assert_int_equal(red->bone_count, 1);
    assert_string_equal(sk->bones[red->bones[0]].name, "tail");
    assert_int_equal(red->constraint_count, 1);
    assert_int_equal(red->constraints[0].kind, MF_CONSTRAINT_IK);
    a = att(sk, "red", "arm", "arm");
    assert_int_equal(a->type, MF_ATTACH_LINKED_MESH);
    assert_string_equal(a->parent, "arm");
    assert_int_equal(a->parent_skin, mf_skeleton_find_skin(sk, "default"));
    assert_false(a->deform);
    assert_string_equal(a->image, "head");
    mf_skeleton_free(sk);
}

/* ---------------------------------------------------------------- clips */

static double cubic(const double q[4], double s)
{
    double u = 1 - s;
    return u * u * u * q[0] + 3 * u * u * s * q[1] + 3 * u * s * s * q[2] + s * s * s * q[3];
}

/* The value of an absolute bezier (x: times, y: values) at time t. */
static double bezier_at(const double x[4], const double y[4], double t)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (cubic(x, mid) < t) lo = mid;
        else hi = mid;
    }
    return cubic(y, (lo + hi) / 2);
}

/* The value of a normalised .manim segment from (t0, v0) to (t1, v1) at time t. */
static double curve_at(const mf_curve *cu, double t0, double t1, double v0, double v1, double t)
{
    const double x[4] = {t0, t0 + cu->cx1 * (t1 - t0), t0 + cu->cx2 * (t1 - t0), t1};
    const double y[4] = {v0, v0 + cu->cy1 * (v1 - v0), v0 + cu->cy2 * (v1 - v0), v1};
    return bezier_at(x, y, t);
}

static void test_bone_timelines(void **state)
{
    (void)state;
    mf_clip *c = load_clip("all");
    assert_near(c->length, 1);
    assert_near(c->fps, 24);
    const mf_timeline *tl = find_tl(c, MF_TL_ROTATE, "body");
    assert_near(tl->v[0], -10), assert_near(tl->v[1], -50);
    /* [0.25, 10, 0.75, 40] from 10 to 50 over 0..1 s → x as is, y (cy - 10) / 40 */
    assert_int_equal(tl->curves[0].type, MF_CURVE_BEZIER);
    assert_near(tl->curves[0].cx1, 0.25), assert_near(tl->curves[0].cy1, 0);
    assert_near(tl->curves[0].cx2, 0.75), assert_near(tl->curves[0].cy2, 0.75);
    tl = find_tl(c, MF_TL_TRANSLATE, "body");
    assert_near(tl->v[0], 1), assert_near(tl->v[1], -2), assert_near(tl->v[2], 3), assert_near(tl->v[3], -4);
    assert_int_equal(tl->curves[0].type, MF_CURVE_STEPPED);
    assert_near(find_tl(c, MF_TL_TRANSLATE_X, "body")->v[0], 5);
    assert_near(find_tl(c, MF_TL_TRANSLATE_Y, "body")->v[0], -6);
    tl = find_tl(c, MF_TL_SCALE, "body");
    assert_near(tl->v[0], 2), assert_near(tl->v[1], 1), assert_near(tl->v[2], 1), assert_near(tl->v[3], 3);
    assert_near(find_tl(c, MF_TL_SCALE_X, "body")->v[0], 2);
    assert_near(find_tl(c, MF_TL_SCALE_Y, "body")->v[0], 1);
    tl = find_tl(c, MF_TL_SHEAR, "body");
    assert_near(tl->v[0], -10), assert_near(tl->v[1], -20);
    assert_near(find_tl(c, MF_TL_SHEAR_X, "body")->v[0], -5);
    assert_near(find_tl(c, MF_TL_SHEAR_Y, "body")->v[0], -6);
    tl = find_tl(c, MF_TL_INHERIT, "body");
    assert_int_equal(tl->iv[0], MF_INHERIT_NO_ROTATION_OR_REFLECTION);
    assert_int_equal(tl->iv[1], MF_INHERIT_NORMAL);
    /* 20 → 20 with a bulge down to ~11: split where it peaks, and the shape is kept */
    tl = find_tl(c, MF_TL_ROTATE, "upper");
    assert_int_equal(tl->key_count, 3);
    assert_true(tl->t[1] > 0.4 && tl->t[1] < 0.45);
    assert_true(tl->v[1] > -11.2 && tl->v[1] < -11.0);
    const double spine[4] = {20, 20, 0, 20}, spine_t[4] = {0, 0.25, 0.5, 0.5};
    for (int k = 1; k < 20; k++) {
        double t = 0.5 * k / 20.0;
        double want = -bezier_at(spine_t, spine, t); /* flipped */
        int seg = t < tl->t[1] ? 0 : 1;
        assert_int_equal(tl->curves[seg].type, MF_CURVE_BEZIER);
        double got = curve_at(&tl->curves[seg], tl->t[seg], tl->t[seg + 1], tl->v[seg], tl->v[seg + 1], t);
        if (fabs(got - want) > 2e-3) print_error("t %g: %g, want %g\n", t, got, want);
        assert_true(fabs(got - want) <= 2e-3);
    }
    mf_clip_free(c);
}

static void test_slot_timelines(void **state)
{
    (void)state;
    mf_clip *c = load_clip("all");
    const mf_timeline *tl = find_tl(c, MF_TL_ATTACHMENT, "body");
    assert_null(tl->names[0]);
    assert_string_equal(tl->names[1], "head");
    tl = find_tl(c, MF_TL_RGBA, "body");
    assert_near(tl->v[0], 1), assert_near(tl->v[3], 128 / 255.0), assert_near(tl->v[5], 1);
    assert_near(find_tl(c, MF_TL_ALPHA, "body")->v[0], 0.5);
    tl = find_tl(c, MF_TL_RGB, "arm");
    assert_near(tl->v[0], 0), assert_near(tl->v[1], 1);
    /* rgb2 → rgba2 with the slot's setup alpha (1) */
    tl = find_tl(c, MF_TL_RGBA2, "arm");
    const float want[] = {1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0};
    for (int i = 0; i < 14; i++) assert_near(tl->v[i], want[i]);
    tl = find_tl(c, MF_TL_RGBA2, "glow");
    assert_near(tl->v[3], 128 / 255.0), assert_near(tl->v[6], 1);
    tl = find_tl(c, MF_TL_SEQUENCE, "fx");
    assert_int_equal(tl->iv[0], MF_SEQ_LOOP), assert_int_equal(tl->iv[1], 1), assert_near(tl->v[0], 0.1);
    assert_int_equal(tl->iv[2], MF_SEQ_PINGPONG_REVERSE), assert_int_equal(tl->iv[3], 0);
    mf_clip_free(c);
}

static void test_constraint_timelines(void **state)
{
    (void)state;
    mf_clip *c = load_clip("all");
    const mf_timeline *tl = find_tl(c, MF_TL_IK, "arm-ik");
    assert_int_equal(tl->columns, MF_IK_COL_MIX | MF_IK_COL_SOFTNESS | MF_IK_COL_BEND | MF_IK_COL_COMPRESS |
                                      MF_IK_COL_STRETCH);
    assert_near(tl->v[2], 1), assert_near(tl->v[3], 8); /* the second key: Spine's defaults mix 1 */
    assert_int_equal(tl->iv[0], 1), assert_int_equal(tl->iv[1], 1), assert_int_equal(tl->iv[2], 1);
    assert_int_equal(tl->iv[3], -1), assert_int_equal(tl->iv[4], 0), assert_int_equal(tl->iv[5], 0);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(tl->curves[k].type, MF_CURVE_BEZIER);
        assert_near(tl->curves[k].cy1, 0), assert_near(tl->curves[k].cy2, 1);
    }
    tl = find_tl(c, MF_TL_TRANSFORM, "follow");
    assert_int_equal(tl->columns, 63u);
    const float tf[] = {1, 0.5, 0.5, 1, 1, 1};
    for (int i = 0; i < 6; i++) assert_near(tl->v[i], tf[i]);
    assert_near(find_tl(c, MF_TL_PATH_POSITION, "along")->v[0], 2);
    assert_near(find_tl(c, MF_TL_PATH_SPACING, "along")->v[0], 3);
    tl = find_tl(c, MF_TL_PATH_MIX, "along");
    assert_near(tl->v[0], 0.5), assert_near(tl->v[1], 0.25), assert_near(tl->v[2], 0.25);
    const mf_timeline_kind phys[] = {MF_TL_PHYSICS_INERTIA, MF_TL_PHYSICS_STRENGTH, MF_TL_PHYSICS_DAMPING,
                                     MF_TL_PHYSICS_MASS, MF_TL_PHYSICS_WIND, MF_TL_PHYSICS_GRAVITY, MF_TL_PHYSICS_MIX};
    const float pv[] = {0.5, 1, 2, 3, 4, 5, 6};
    for (int i = 0; i < 7; i++) assert_near(find_tl(c, phys[i], "hair")->v[0], pv[i]);
    tl = find_tl(c, MF_TL_PHYSICS_RESET, "");
    assert_near(tl->t[0], 0.5);
    mf_clip_free(c);
}

static void test_deform_draw_order_and_event_timelines(void **state)
{
    (void)state;
    mf_clip *c = load_clip("all");
    const mf_timeline *tl = NULL;
    for (int32_t i = 0; i < c->timeline_count; i++)
        if (c->timelines[i].kind == MF_TL_DEFORM && strcmp(c->timelines[i].attachment, "arm") == 0) tl = &c->timelines[i];
    assert_non_null(tl);
    assert_string_equal(tl->skin, "default");
    assert_int_equal(tl->deform[0].offset, 1);
    assert_int_equal(tl->deform[0].count, 3);
    assert_near(tl->deform[0].v[0], -1), assert_near(tl->deform[0].v[1], 2), assert_near(tl->deform[0].v[2], -3);
    assert_int_equal(tl->deform[1].count, 0);
    assert_near(tl->curves[0].cx1, 0.25), assert_near(tl->curves[0].cy1, 0.1), assert_near(tl->curves[0].cy2, 0.9);
    for (int32_t i = 0; i < c->timeline_count; i++)
        if (c->timelines[i].kind == MF_TL_DEFORM && strcmp(c->timelines[i].attachment, "cape") == 0) tl = &c->timelines[i];
    assert_int_equal(tl->deform[0].offset, 2);
    assert_near(tl->deform[0].v[0], 7), assert_near(tl->deform[0].v[1], -8);
    tl = find_tl(c, MF_TL_DRAW_ORDER, NULL);
    assert_int_equal(tl->draw_order[0].move_count, 2);
    assert_string_equal(tl->draw_order[0].moves[0].slot, "glow");
    assert_int_equal(tl->draw_order[0].moves[0].delta, -3);
    assert_int_equal(tl->draw_order[0].moves[1].delta, 2);
    assert_int_equal(tl->draw_order[1].move_count, 0);
    tl = find_tl(c, MF_TL_EVENT, NULL);
    assert_int_equal(tl->key_count, 3);
    assert_false(tl->events[0].has_int || tl->events[0].has_float || tl->events[0].has_string);
    assert_true(tl->events[1].has_int && tl->events[1].has_float && tl->events[1].has_string);
    assert_int_equal(tl->events[1].int_value, 7), assert_near(tl->events[1].float_value, 1.5);
    assert_string_equal(tl->events[1].string_value, "right");
    assert_near(tl->events[1].volume, 0.5), assert_near(tl->events[1].balance, 0.25);
    assert_string_equal(tl->events[2].name, "hit");
    mf_clip_free(c);
    /* Spine 4.0's top-level "deform" group */
    c = load_clip("old");
    tl = find_tl(c, MF_TL_DEFORM, "arm");
    assert_near(tl->deform[0].v[0], 1), assert_near(tl->deform[0].v[1], -1);
    mf_clip_free(c);
}

static void test_report_lists_what_did_not_map(void **state)
{
    (void)state;
    import_good();
    char *report = tu_read(out_path("import-report.txt"), NULL);
    assert_non_null(report);
    assert_contains(report, "[unknown] bones[1].foo: bone key \"foo\" is not a Spine 4.0-4.2 key this importer knows");
    assert_contains(report, "[curve] animations.all.bones.upper.rotate[0].curve: a value stays the same over this "
                            "segment but its curve bulges: a key is added at 0.4265 s");
    assert_contains(report, "[name] animations.idle/loop: animation \"idle/loop\" is written as clip \"idle_loop\"");
    assert_contains(report, "[path] skeleton.audio: the audio folder \"./audio/\" is not kept");
    assert_contains(report, "page \"rig2.png\" has scale 0.5");
    assert_contains(report, "[timeline] animations.all.slots.arm.rgb2");
    free(report);
    mf_clip *c = load_clip("idle_loop");
    mf_clip_free(c);
}

/* ---------------------------------------------------------------- images */

static mf_image load_image(const char *name)
{
    char rel[200];
    snprintf(rel, sizeof rel, "images/%s.png", name);
    mf_image img;
    mf_diag d;
    if (mf_png_load(out_path(rel), &img, &d) != MF_OK) {
        print_error("no %s\n", rel);
        fail();
    }
    return img;
}

static void assert_pixel(const mf_image *img, int x, int y, int r, int g, int b, int a)
{
    const uint8_t *p = img->rgba + ((size_t)y * (size_t)img->width + (size_t)x) * 4;
    if (p[0] != r || p[1] != g || p[2] != b || p[3] != a) {
        print_error("pixel %d,%d: %d %d %d %d, expected %d %d %d %d\n", x, y, p[0], p[1], p[2], p[3], r, g, b, a);
        fail();
    }
}

/* A pixel of the straight page at (px, py). */
static void assert_from_page(const mf_image *img, int x, int y, int px, int py)
{
    uint8_t p[4];
    page1_pixel(px, py, p);
    assert_pixel(img, x, y, p[0], p[1], p[2], p[3]);
}

static void test_regions_unpack_unrotated_and_untrimmed(void **state)
{
    (void)state;
    import_good();
    mf_image img = load_image("head");
    assert_int_equal(img.width, 4), assert_int_equal(img.height, 3);
    assert_from_page(&img, 0, 0, 0, 0), assert_from_page(&img, 3, 2, 3, 2);
    mf_image_free(&img);
    /* arm (3 x 5) is stored turned: its top row runs down the left column of the 5 x 3 block */
    img = load_image("arm");
    assert_int_equal(img.width, 3), assert_int_equal(img.height, 5);
    assert_from_page(&img, 0, 0, 8, 2);
    assert_from_page(&img, 2, 0, 8, 0);
    assert_from_page(&img, 0, 4, 12, 2);
    assert_from_page(&img, 2, 4, 12, 0);
    mf_image_free(&img);
    /* hat: 4 x 4 packed pixels in a 7 x 8 original, 1 stripped on the left and 2 at the bottom */
    img = load_image("hat");
    assert_int_equal(img.width, 7), assert_int_equal(img.height, 8);
    assert_pixel(&img, 0, 0, 0, 0, 0, 0);
    assert_pixel(&img, 0, 2, 0, 0, 0, 0);
    assert_from_page(&img, 1, 2, 16, 0);
    assert_from_page(&img, 4, 5, 19, 3);
    assert_pixel(&img, 5, 5, 0, 0, 0, 0);
    assert_pixel(&img, 4, 6, 0, 0, 0, 0);
    mf_image_free(&img);
    /* cape: rotated and trimmed, 3 x 4 packed in 6 x 6, 2 stripped on the left and 1 at the bottom */
    img = load_image("cape");
    assert_int_equal(img.width, 6), assert_int_equal(img.height, 6);
    assert_from_page(&img, 2, 1, 24, 2);
    assert_from_page(&img, 4, 1, 24, 0);
    assert_from_page(&img, 2, 4, 27, 2);
    assert_pixel(&img, 1, 1, 0, 0, 0, 0);
    assert_pixel(&img, 2, 5, 0, 0, 0, 0);
    assert_pixel(&img, 2, 0, 0, 0, 0, 0);
    mf_image_free(&img);
    /* sequence frames and a region no attachment uses */
    img = load_image("flame02");
    assert_from_page(&img, 1, 1, 5, 9);
    mf_image_free(&img);
    img = load_image("spare");
    assert_int_equal(img.width, 3);
    mf_image_free(&img);
}

static void test_premultiplied_page_is_unpremultiplied(void **state)
{
    (void)state;
    import_good();
    mf_image img = load_image("glow");
    assert_pixel(&img, 0, 0, 200, 100, 50, 255);
    assert_pixel(&img, 2, 0, 200, 100, 50, 128);
    assert_pixel(&img, 2, 2, 0, 0, 0, 0);
    mf_image_free(&img);
}

/* ---------------------------------------------------------------- files */

static bool same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = tu_read(a, &la), *y = tu_read(b, &lb);
    bool same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x), free(y);
    return same;
}

static int leftovers(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) n++;
    if (d) closedir(d);
    return n;
}

static void test_import_twice_and_into_an_existing_folder(void **state)
{
    (void)state;
    import_good();
    char dir[4200], path[4400];
    snprintf(dir, sizeof dir, "%s/again", tu_tmp("good"));
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/keep.txt", dir);
    assert_int_equal(tu_write(path, "mine\n"), 0);
    snprintf(path, sizeof path, "%s/rig.mskel", dir);
    assert_int_equal(tu_write(path, "old\n"), 0);
    char *out = NULL;
    assert_int_equal(tu_mfe(&out, "skel import-spine '%s/rig.json' --out '%s'", good_dir, dir), 0);
    free(out);
    const char *files[] = {"rig.mskel", "rig.clips/all.manim", "rig.clips/old.manim", "rig.clips/idle_loop.manim",
                           "images/head.png", "images/cape.png", "images/glow.png", "import-report.txt"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char a[4400], b[4400];
        snprintf(a, sizeof a, "%s/%s", good_out, files[i]);
        snprintf(b, sizeof b, "%s/%s", dir, files[i]);
        if (!same_file(a, b)) print_error("%s differs\n", files[i]);
        assert_true(same_file(a, b));
    }
    snprintf(path, sizeof path, "%s/keep.txt", dir);
    char *keep = tu_read(path, NULL);
    assert_string_equal(keep, "mine\n");
    free(keep);
    assert_int_equal(leftovers(tu_tmp("good"), ".again.import-"), 0);
}

/* ---------------------------------------------------------------- bad input */

/* Runs the import of dir/rig.json (or file) into dir/out, which holds keep.txt and an old
 * rig.mskel; checks exit 2, the exact message, and that out is untouched. */
static void expect_failure(const char *dir, const char *input, const char *extra, const char *message)
{
    char out_dir[4200], path[4400], want[2000];
    snprintf(out_dir, sizeof out_dir, "%s/out", dir);
    mkdir(out_dir, 0777);
    snprintf(path, sizeof path, "%s/keep.txt", out_dir);
    assert_int_equal(tu_write(path, "mine\n"), 0);
    snprintf(path, sizeof path, "%s/rig.mskel", out_dir);
    assert_int_equal(tu_write(path, "old\n"), 0);
    char *out = NULL;
    int rc = tu_mfe(&out, "skel import-spine '%s' %s --out '%s'", input, extra, out_dir);
    snprintf(want, sizeof want, "mfe: %s\n", message);
    if (rc != 2 || strcmp(out, want) != 0) print_error("exit %d\n  got:  %s  want: %s", rc, out, want);
    assert_int_equal(rc, 2);
    assert_string_equal(out, want);
    free(out);
    char *mskel = tu_read(path, NULL);
    assert_string_equal(mskel, "old\n");
    free(mskel);
    snprintf(path, sizeof path, "%s/images", out_dir);
    struct stat st;
    assert_int_not_equal(stat(path, &st), 0);
    assert_int_equal(leftovers(dir, ".out.import-"), 0);
}

static void bad_json(const char *name, const char *from, const char *to, const char *where_message)
{
    char *json = replace(RIG_JSON, from, to);
    const char *dir = make_input(name, json, RIG_ATLAS);
    free(json);
    char input[4200], msg[3000];
    snprintf(input, sizeof input, "%s/rig.json", dir);
    char *m = q(where_message);
    snprintf(msg, sizeof msg, "%s: %s", input, m);
    free(m);
    expect_failure(dir, input, "", msg);
}

/* Spine's example exports are NAME-pro.json / NAME-ess.json beside one NAME.atlas. */
static void test_edition_suffix_finds_the_shared_atlas(void **state)
{
    (void)state;
    const char *d = make_input("edition", RIG_JSON, RIG_ATLAS);
    char from[4200], to[4200];
    snprintf(from, sizeof from, "%s/rig.json", d);
    snprintf(to, sizeof to, "%s/rig-pro.json", d);
    assert_int_equal(rename(from, to), 0);
    char *out = NULL;
    int rc = tu_mfe(&out, "skel import-spine '%s' --out '%s/out'", to, d);
    if (rc != 0) print_error("%s\n", out);
    assert_int_equal(rc, 0);
    free(out);
    snprintf(to, sizeof to, "%s/rig-ess.json", d);
    snprintf(from, sizeof from, "%s/rig-pro.json", d);
    assert_int_equal(rename(from, to), 0);
    snprintf(from, sizeof from, "%s/rig.atlas", d);
    assert_int_equal(unlink(from), 0);
    rc = tu_mfe(&out, "skel import-spine '%s' --out '%s/out2'", to, d);
    assert_int_equal(rc, 2);
    assert_contains(out, "rig-ess.atlas: cannot open");
    free(out);
}

static void test_binary_export_is_refused(void **state)
{
    (void)state;
    const char *dir = make_input("binary", "{}", NULL);
    char path[4200], msg[4400];
    snprintf(path, sizeof path, "%s/rig.skel", dir);
    assert_int_equal(tu_write(path, "\x01\x02skel\x03"), 0);
    snprintf(msg, sizeof msg, "%s: binary Spine exports are not read: export JSON from Spine", path);
    expect_failure(dir, path, "", msg);
    /* binary data named .json gets the same answer */
    snprintf(path, sizeof path, "%s/rig.json", dir);
    assert_int_equal(tu_write(path, "\x07\x02\x10skel data"), 0);
    snprintf(msg, sizeof msg, "%s: binary Spine exports are not read: export JSON from Spine", path);
    expect_failure(dir, path, "", msg);
}

static void test_missing_atlas_and_page(void **state)
{
    (void)state;
    const char *dir = make_input("noatlas", RIG_JSON, NULL);
    char input[4200], msg[9000];
    snprintf(input, sizeof input, "%s/rig.json", dir);
    snprintf(msg, sizeof msg,
             "%s/rig.atlas: cannot open: No such file or directory (the atlas beside the JSON; name another with "
             "--atlas)",
             dir);
    expect_failure(dir, input, "", msg);
    snprintf(msg, sizeof msg, "%s/other.atlas: cannot open: No such file or directory", dir);
    char extra[4400];
    snprintf(extra, sizeof extra, "--atlas '%s/other.atlas'", dir);
    expect_failure(dir, input, extra, msg);
    char *atlas = replace(RIG_ATLAS, "rig2.png", "gone.png");
    dir = make_input("nopage", RIG_JSON, atlas);
    free(atlas);
    snprintf(input, sizeof input, "%s/rig.json", dir);
    snprintf(msg, sizeof msg, "%s/rig.atlas: line 26: page \"gone.png\": cannot open: No such file or directory", dir);
    expect_failure(dir, input, "", msg);
}

static void test_region_missing_from_the_atlas(void **state)
{
    (void)state;
    char *json = replace(RIG_JSON, "'path': 'hat'", "'path': 'hatt'");
    const char *dir = make_input("noregion", json, RIG_ATLAS);
    free(json);
    char input[4200], msg[9000];
    snprintf(input, sizeof input, "%s/rig.json", dir);
    snprintf(msg, sizeof msg,
             "%s: skins[0].attachments.hat.hat: image \"hatt\" is not in the atlas %s/rig.atlas (did you mean "
             "\"hat\"?)",
             input, dir);
    expect_failure(dir, input, "", msg);
}

static void test_malformed_json_and_bad_references(void **state)
{
    (void)state;
    bad_json("malformed", "'bones': [\n", "'bones': [ [,\n", "line 3, column 15: malformed JSON");
    bad_json("slotbone", "{ 'name': 'body', 'bone': 'body',", "{ 'name': 'body', 'bone': 'bdy',",
             "slots[0].bone: unknown bone 'bdy' (did you mean 'body'?)");
    bad_json("parent", "{ 'name': 'lower', 'parent': 'upper',", "{ 'name': 'lower', 'parent': 'uper',",
             "bones[3].parent: unknown bone 'uper' (did you mean 'upper'?)");
    bad_json("skinslot", "'hitbox': { 'hitbox': {", "'hitbx': { 'hitbox': {",
             "skins[0].attachments.hitbx: unknown slot 'hitbx' (did you mean 'hitbox'?)");
    bad_json("animbone", "'upper': { 'rotate'", "'uper': { 'rotate'",
             "animations.all.bones.uper: unknown bone 'uper' (did you mean 'upper'?)");
    bad_json("animslot", "'glow': { 'rgba2'", "'glw': { 'rgba2'",
             "animations.all.slots.glw: unknown slot 'glw' (did you mean 'glow'?)");
    bad_json("drawslot", "{ 'slot': 'glow', 'offset': -3 }", "{ 'slot': 'glo', 'offset': -3 }",
             "animations.all.drawOrder[0].offsets[0].slot: unknown slot 'glo' (did you mean 'glow'?)");
    bad_json("ikname", "'ik': { 'arm-ik': [", "'ik': { 'arm-ikk': [",
             "animations.all.ik.arm-ikk: unknown ik constraint 'arm-ikk' (did you mean 'arm-ik'?)");
    bad_json("event", "'name': 'hit' }", "'name': 'hot' }",
             "animations.all.events[2].name: unknown event 'hot' (did you mean 'hit'?)");
    bad_json("v3", "'spine': '4.2.22'", "'spine': '3.8.99'",
             "skeleton.spine: Spine 3.8.99 exports are not read: export JSON from Spine 4.0 or later");
    bad_json("curve", "'curve': [0.25, 10, 0.75, 40]", "'curve': [0.25, 10, 0.75]",
             "animations.all.bones.body.rotate[0].curve: 3 numbers: expected 4 (4 per value)");
    bad_json("triangles", "'triangles': [0, 1, 2, 2, 3, 0]", "'triangles': [0, 1, 2, 2, 3, 9]",
             "skins[0].attachments.arm.arm.triangles[5]: index 9 out of range (4)");
    bad_json("linked", "'parent': 'arm', 'timelines'", "'parent': 'amr', 'timelines'",
             "skins[1].attachments.arm.arm.parent: unknown mesh 'amr' in slot 'arm' of skin 'default'");
    bad_json("deform", "'offset': 1, 'vertices': [1, 2, 3]", "'offset': 7, 'vertices': [1, 2, 3]",
             "animations.all.attachments.default.arm.arm.deform[0].vertices: offset 7 + 3 floats runs past the 8 "
             "floats of the attachment");
    bad_json("time", "{ 'time': 0.5, 'x': 3, 'y': 4 }", "{ 'time': -0.5, 'x': 3, 'y': 4 }",
             "animations.all.bones.body.translate[1].time: a key time must not be negative (-0.5)");
}

/* ---------------------------------------------------------------- the readers */

static void test_atlas_reader(void **state)
{
    (void)state;
    /* the older libgdx keys */
    const char *old = "page.png\nsize: 64,32\nformat: RGBA8888\nfilter: Nearest,Nearest\nrepeat: none\n"
                      "walk\n  rotate: true\n  xy: 2, 3\n  size: 5, 6\n  orig: 9, 8\n  offset: 1, 2\n  index: 3\n";
    mf_atlas *at = NULL;
    mf_diag d;
    assert_int_equal(mf_atlas_parse(old, strlen(old), "old.atlas", &at, &d), MF_OK);
    assert_int_equal(at->page_count, 1);
    assert_int_equal(at->region_count, 1);
    const mf_atlas_region *g = &at->regions[0];
    assert_int_equal(g->degrees, 90), assert_int_equal(g->x, 2), assert_int_equal(g->y, 3);
    assert_int_equal(g->width, 5), assert_int_equal(g->height, 6), assert_int_equal(g->orig_width, 9);
    assert_int_equal(g->offset_y, 2), assert_int_equal(g->index, 3);
    assert_ptr_equal(mf_atlas_find(at, "walk03"), g); /* a name plus its index */
    assert_ptr_equal(mf_atlas_find(at, "walk3"), g);
    assert_null(mf_atlas_find(at, "walk4"));
    mf_atlas_free(at);
    /* errors name the line */
    const struct {
        const char *text, *message;
    } bad[] = {
        {"p.png\nsize: 8, 8\na\n  bounds: 1, 2, x, 4\n", "a.atlas: line 4: bad bounds \"1, 2, x, 4\": expected 4 integers"},
        {"p.png\nsize: 8, 8\na\n  bounds: 6, 6, 4, 4\n", "a.atlas: line 3: region \"a\" lies outside its page \"p.png\" (8x8)"},
        {"p.png\na\n  rotate: 45\n  bounds: 0, 0, 1, 1\n", "a.atlas: line 3: bad rotate \"45\": expected true, false, 0, 90, 180 or 270"},
        {"p.png\na\n  index: 1\n", "a.atlas: line 2: region \"a\" has no bounds"},
        {"p.png\na\n  bounds: 0, 0, 4, 4\n  offsets: 1, 1, 4, 4\n",
         "a.atlas: line 2: region \"a\": the packed 4x4 pixels at offset 1, 1 do not fit the original 4x4"},
        {"", "a.atlas: no pages: not a Spine atlas"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char msg[1200];
        assert_int_not_equal(mf_atlas_parse(bad[i].text, strlen(bad[i].text), "a.atlas", &at, &d), MF_OK);
        assert_null(at);
        mf_diag_format(&d, msg, sizeof msg);
        assert_string_equal(msg, bad[i].message);
    }
}

static void test_png_reader_errors(void **state)
{
    (void)state;
    mf_image img;
    mf_diag d;
    char msg[1200];
    assert_int_equal(mf_png_decode("GIF89a....", 10, "x.png", &img, &d), MF_ERR_INVALID);
    mf_diag_format(&d, msg, sizeof msg);
    assert_string_equal(msg, "x.png: not a PNG file (no PNG signature)");
    const unsigned char truncated[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H'};
    assert_int_equal(mf_png_decode(truncated, sizeof truncated, "t.png", &img, &d), MF_ERR_INVALID);
    mf_diag_format(&d, msg, sizeof msg);
    assert_contains(msg, "t.png: header: corrupt PNG");
    /* a round trip keeps every pixel */
    mf_image a;
    assert_int_equal(mf_image_alloc(&a, 3, 2), MF_OK);
    for (int i = 0; i < 24; i++) a.rgba[i] = (uint8_t)(i * 11);
    void *png;
    size_t len;
    assert_int_equal(mf_png_encode(&a, &png, &len, &d), MF_OK);
    assert_int_equal(mf_png_decode(png, len, "r.png", &img, &d), MF_OK);
    assert_memory_equal(img.rgba, a.rgba, 24);
    free(png);
    mf_image_free(&a);
    mf_image_free(&img);
}

static void test_convert_in_memory(void **state)
{
    (void)state;
    char *json = q(RIG_JSON);
    mf_spine_rig *rig = NULL;
    mf_diag d;
    assert_int_equal(mf_spine_convert(json, strlen(json), "rig.json", "rig", &rig, &d), MF_OK);
    assert_int_equal(rig->clip_count, 3);
    assert_string_equal(rig->clips[0]->name, "all");
    assert_string_equal(rig->clips[2]->name, "idle_loop");
    /* every image the rig draws, sequence frames spelled out, sorted */
    const char *images[] = {"arm", "cape", "flame01", "flame02", "glow", "hat", "head"};
    assert_int_equal(rig->image_count, 7);
    for (int i = 0; i < 7; i++) assert_string_equal(rig->images[i], images[i]);
    assert_string_equal(rig->image_where[2], "skins[0].attachments.fx.flame");
    assert_true(rig->report_count >= 5);
    assert_true(strncmp(rig->skeleton->uid, "skl_", 4) == 0);
    assert_string_equal(rig->clips[0]->skeleton_uid, rig->skeleton->uid);
    mf_spine_rig_free(rig);
    free(json);
}

/* A vertex may have as many influences as Spine allows; past MF_MAX_INFLUENCES the heaviest
 * are kept, their weights scaled to the vertex's sum, and the report says so. */
static void test_influences_over_the_cap_keep_the_heaviest(void **state)
{
    (void)state;
    enum { N = MF_MAX_INFLUENCES + 2 }; /* vertex 0: N influences; vertex 1: exactly the cap */
    char json[8192];
    int o = snprintf(json, sizeof json, "{ \"bones\": [ { \"name\": \"root\" }");
    for (int b = 0; b < N; b++) o += snprintf(json + o, sizeof json - (size_t)o, ", { \"name\": \"b%d\", \"parent\": \"root\" }", b);
    o += snprintf(json + o, sizeof json - (size_t)o,
                  " ], \"slots\": [ { \"name\": \"s\", \"bone\": \"root\", \"attachment\": \"m\" } ],"
                  " \"skins\": [ { \"name\": \"default\", \"attachments\": { \"s\": { \"m\": { \"type\": \"mesh\","
                  " \"uvs\": [0, 0, 1, 0, 1, 1], \"triangles\": [0, 1, 2], \"hull\": 3, \"vertices\": [ %d", N);
    /* vertex 0: bone b weighs (b + 1) / sum, so the two lightest (b0, b1) go */
    for (int b = 0; b < N; b++) o += snprintf(json + o, sizeof json - (size_t)o, ", %d, %d, 0, %g", b + 1, b, (b + 1) / 1000.0);
    o += snprintf(json + o, sizeof json - (size_t)o, ", %d", MF_MAX_INFLUENCES);
    for (int b = 0; b < MF_MAX_INFLUENCES; b++)
        o += snprintf(json + o, sizeof json - (size_t)o, ", %d, 1, 0, %g", b + 1, 1.0 / MF_MAX_INFLUENCES);
    o += snprintf(json + o, sizeof json - (size_t)o, ", 1, 1, 5, 5, 1 ] } } } } ] }");
    assert_true(o < (int)sizeof json);
    mf_spine_rig *rig = NULL;
    mf_diag d;
    assert_int_equal(mf_spine_convert(json, strlen(json), "many.json", "many", &rig, &d), MF_OK);
    const mf_attachment *a = &rig->skeleton->skins[0].attachments[0];
    assert_int_equal(a->vertices.count, 3);
    assert_int_equal(a->vertices.first[1] - a->vertices.first[0], MF_MAX_INFLUENCES);
    assert_int_equal(a->vertices.first[2] - a->vertices.first[1], MF_MAX_INFLUENCES);
    double sum = 0, kept = 0;
    for (int b = 0; b < N; b++) sum += (b + 1) / 1000.0;
    for (int b = 2; b < N; b++) kept += (b + 1) / 1000.0;
    for (int j = 0; j < MF_MAX_INFLUENCES; j++) {
        const mf_influence *f = &a->vertices.infl[a->vertices.first[0] + j];
        int bone = (int)(strtol(rig->skeleton->bones[a->vertices.bones[f->bone]].name + 1, NULL, 10));
        assert_true(bone >= 2); /* b0 and b1, the lightest, dropped */
        assert_float_equal(f->weight, (bone + 1) / 1000.0 * sum / kept, 1e-6);
        assert_float_equal(f->x, bone, 1e-6);
    }
    bool reported = false;
    for (int32_t i = 0; i < rig->report_count; i++)
        reported |= strstr(rig->report[i], "1 vertices have more than") != NULL;
    assert_true(reported);
    mf_spine_rig_free(rig);
}

/* Spine 4.3 keeps constraints in one typed list, in update order. */
static void test_spine_43_constraint_list(void **state)
{
    (void)state;
    char *json = q("{ 'skeleton': { 'spine': '4.3.01' },\n"
                   "  'bones': [ { 'name': 'root' }, { 'name': 'a', 'parent': 'root' }, { 'name': 'b', 'parent': 'a' },\n"
                   "             { 'name': 't', 'parent': 'root' }, { 'name': 'h', 'parent': 'root' } ],\n"
                   "  'constraints': [ { 'type': 'physics', 'name': 'ph', 'bone': 'h', 'rotate': 1 },\n"
                   "                   { 'type': 'slider', 'name': 'sl' },\n"
                   "                   { 'type': 'ik', 'name': 'leg', 'bones': ['a', 'b'], 'target': 't' } ],\n"
                   "  'animations': { 'a': { 'ik': { 'leg': [ { 'mix': 0 } ] } } } }");
    mf_spine_rig *rig = NULL;
    mf_diag d;
    assert_int_equal(mf_spine_convert(json, strlen(json), "new.json", "new", &rig, &d), MF_OK);
    free(json);
    const mf_skeleton *sk = rig->skeleton;
    assert_int_equal(sk->ik_count, 1);
    assert_int_equal(sk->physics_count, 1);
    assert_int_equal(sk->physics[0].order, 0); /* the list order is the update order */
    assert_int_equal(sk->ik[0].order, 1);
    bool reported = false;
    for (int32_t i = 0; i < rig->report_count; i++)
        reported |= strstr(rig->report[i], "[unsupported] constraints[1]: slider constraints are not something mfanim "
                                           "has: not imported") != NULL;
    assert_true(reported);
    mf_spine_rig_free(rig);
}

/* A JSON object may repeat a key; a repeated attachment or timeline is refused, never written twice. */
static void test_repeated_keys_are_refused(void **state)
{
    (void)state;
    const struct {
        const char *json, *message;
    } cases[] = {
        {"{ 'bones': [ { 'name': 'root' } ], 'slots': [ { 'name': 's', 'bone': 'root' } ],\n"
         "  'skins': [ { 'name': 'default', 'attachments': { 's': { 'a': { 'width': 1, 'height': 1 },\n"
         "                                                         'a': { 'width': 2, 'height': 2 } } } } ] }",
         "r.json: skins[0].attachments.s.a: duplicate attachment \"a\" in slot \"s\""},
        {"{ 'bones': [ { 'name': 'root' } ], 'animations': { 'x': { 'bones': { 'root': {\n"
         "  'rotate': [ { 'value': 1 } ], 'rotate': [ { 'value': 2 } ] } } } } }",
         "r.json: animations.x.bones.root.rotate: a second rotate timeline for the same target"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *json = q(cases[i].json), msg[1200];
        mf_spine_rig *rig = NULL;
        mf_diag d;
        assert_int_equal(mf_spine_convert(json, strlen(json), "r.json", "r", &rig, &d), MF_ERR_INVALID);
        assert_null(rig);
        mf_diag_format(&d, msg, sizeof msg);
        assert_string_equal(msg, cases[i].message);
        free(json);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bones_flip_y_rotation_and_shear),
        cmocka_unit_test(test_slots_keep_colour_dark_and_blend),
        cmocka_unit_test(test_constraints_keep_every_setting),
        cmocka_unit_test(test_every_attachment_type),
        cmocka_unit_test(test_bone_timelines),
        cmocka_unit_test(test_slot_timelines),
        cmocka_unit_test(test_constraint_timelines),
        cmocka_unit_test(test_deform_draw_order_and_event_timelines),
        cmocka_unit_test(test_report_lists_what_did_not_map),
        cmocka_unit_test(test_regions_unpack_unrotated_and_untrimmed),
        cmocka_unit_test(test_premultiplied_page_is_unpremultiplied),
        cmocka_unit_test(test_import_twice_and_into_an_existing_folder),
        cmocka_unit_test(test_binary_export_is_refused),
        cmocka_unit_test(test_missing_atlas_and_page),
        cmocka_unit_test(test_region_missing_from_the_atlas),
        cmocka_unit_test(test_malformed_json_and_bad_references),
        cmocka_unit_test(test_atlas_reader),
        cmocka_unit_test(test_png_reader_errors),
        cmocka_unit_test(test_convert_in_memory),
        cmocka_unit_test(test_spine_43_constraint_list),
        cmocka_unit_test(test_influences_over_the_cap_keep_the_heaviest),
        cmocka_unit_test(test_repeated_keys_are_refused),
        cmocka_unit_test(test_edition_suffix_finds_the_shared_atlas),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
