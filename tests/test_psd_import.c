/* PSD → rig: slots, bones, skins, trimmed images and tags on GIMP's file; re-import after the
 * artist edited the PSD keeps a hand-made mesh and moves what moved; a failed import leaves the
 * folder as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "mf/mf_png.h"
#include "mf/mf_psd.h"
#include "mf/mf_skeleton.h"

static const char *import(const char *psd, const char *dir, const char *name, mf_psd_import_summary *s)
{
    mf_diag d;
    mf_psd_import_options o = {.name = name};
    mf_result r = mf_psd_import(tu_src(psd), dir, &o, s, &d);
    if (r != MF_OK) fail_msg("%s: %s: %s", d.file, d.where, d.message);
    return dir;
}

static mf_skeleton *rig(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.mskel", dir, name);
    mf_skeleton *sk = NULL;
    mf_diag d;
    if (mf_skeleton_load(path, &sk, &d) != MF_OK) fail_msg("%s: %s", d.where, d.message);
    return sk;
}

static const mf_attachment *att(const mf_skeleton *sk, const char *skin, const char *slot, const char *name)
{
    int32_t si = mf_skeleton_find_skin(sk, skin), sl = mf_skeleton_find_slot(sk, slot);
    assert_true(si >= 0 && sl >= 0);
    const mf_attachment *a = mf_skin_find_attachment(&sk->skins[si], sl, name);
    if (!a) fail_msg("no attachment %s/%s/%s", skin, slot, name);
    return a;
}

/* images/REL.png is the source PNG trimmed to its alpha bounds (ox, oy = the trim offset). */
static void assert_trimmed(const char *dir, const char *rel, const char *src, int ox, int oy, int w, int h)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/images/%s.png", dir, rel);
    mf_image out, in;
    mf_diag d;
    assert_int_equal(mf_png_load(path, &out, &d), MF_OK);
    assert_int_equal(mf_png_load(tu_src(src), &in, &d), MF_OK);
    assert_int_equal(out.width, w);
    assert_int_equal(out.height, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const uint8_t *a = out.rgba + ((size_t)y * w + x) * 4, *b = in.rgba + ((size_t)(y + oy) * in.width + x + ox) * 4;
            assert_int_equal(a[3], b[3]);
            if (b[3]) assert_memory_equal(a, b, 3);
        }
    mf_image_free(&out);
    mf_image_free(&in);
}

static void test_first_import(void **state)
{
    (void)state;
    const char *dir = tu_tmp("first");
    mf_psd_import_summary s;
    import("tests/data/psd/gimp_rig.psd", dir, NULL, &s);
    assert_false(s.reimport);
    assert_string_equal(s.name, "gimp_rig");
    mf_skeleton *sk = rig(dir, "gimp_rig");
    /* groups → bones: torso (group), arm_l ([bone] group) under it; root first */
    assert_int_equal(sk->bone_count, 3);
    assert_string_equal(sk->bones[0].name, "root");
    int32_t torso = mf_skeleton_find_bone(sk, "torso"), arm_l = mf_skeleton_find_bone(sk, "arm_l");
    assert_int_equal(sk->bones[arm_l].parent, torso);
    /* the torso bone sits at the centre of what it shows (canvas 20..33 x 18..31 → 26, 25),
     * relative to the origin at the canvas's bottom centre (24, 40) */
    assert_float_equal(sk->bones[torso].x, 2, 0);
    assert_float_equal(sk->bones[torso].y, -15, 0);
    /* slots in draw order (bottom first), [ignore] and hidden layers left out */
    const char *slots[] = {"body", "arm", "legs", "head", "eyes", "hat", "glow"};
    assert_int_equal(sk->slot_count, 7);
    for (int i = 0; i < 7; i++) assert_string_equal(sk->slots[i].name, slots[i]);
    assert_int_equal(mf_skeleton_find_slot(sk, "backdrop"), -1);
    assert_int_equal(mf_skeleton_find_slot(sk, "sketch"), -1);
    assert_int_equal(sk->slots[mf_skeleton_find_slot(sk, "body")].bone, torso);
    assert_int_equal(sk->slots[mf_skeleton_find_slot(sk, "arm")].bone, arm_l);
    /* body: trimmed 8 x 12 at canvas (20, 19): centre (24, 25) → torso space (-2, 0) */
    const mf_attachment *body = att(sk, "default", "body", "body");
    assert_int_equal(body->type, MF_ATTACH_REGION);
    assert_float_equal(body->x, -2, 0);
    assert_float_equal(body->y, 0, 0);
    assert_float_equal(body->width, 8, 0);
    assert_float_equal(body->height, 12, 0);
    assert_trimmed(dir, "body", "tests/data/psd/src/body.png", 1, 1, 8, 12);
    assert_trimmed(dir, "arm", "tests/data/psd/src/arm.png", 0, 0, 4, 9);
    /* [slot] group: both layers in one slot, the visible one is the setup attachment */
    int32_t eyes = mf_skeleton_find_slot(sk, "eyes");
    assert_string_equal(sk->slots[eyes].attachment, "eye_open");
    att(sk, "default", "eyes", "eye_closed");
    /* [skin] groups: one slot "hat", an attachment per skin, images in a folder per skin */
    assert_int_equal(sk->skin_count, 3);
    assert_float_equal(att(sk, "red", "hat", "hat")->width, 4, 0);
    assert_string_equal(att(sk, "blue", "hat", "hat")->image, "blue/hat");
    assert_trimmed(dir, "red/hat", "tests/data/psd/src/hat_red.png", 1, 0, 4, 4);
    /* opacity → attachment alpha, Screen blend → slot blend */
    assert_int_equal(att(sk, "default", "glow", "glow")->color, 0xffffff80u);
    assert_int_equal(sk->slots[mf_skeleton_find_slot(sk, "glow")].blend, MF_BLEND_SCREEN);
    /* [merge]: both legs in one image */
    const mf_attachment *legs = att(sk, "default", "legs", "legs");
    assert_float_equal(legs->width, 8, 0);
    assert_float_equal(legs->height, 7, 0);
    /* [mesh]: a Mesh from the auto-mesh module; [normal]: head_n.png with head's size */
    const mf_attachment *head = att(sk, "default", "head", "head");
    assert_int_equal(head->type, MF_ATTACH_MESH);
    assert_true(head->triangle_count > 0);
    char path[1024];
    mf_image n;
    mf_diag d;
    snprintf(path, sizeof path, "%s/images/head_n.png", dir);
    assert_int_equal(mf_png_load(path, &n, &d), MF_OK);
    assert_int_equal(n.width, 9);
    assert_int_equal(n.height, 9);
    mf_image_free(&n);
    snprintf(path, sizeof path, "%s/gimp_rig.psdmap.json", dir);
    char *map = tu_read(path, NULL);
    assert_non_null(map);
    assert_contains(map, "\"layer\": \"torso/arm_l/arm\", \"image\": \"arm\"");
    free(map);
    snprintf(path, sizeof path, "%s/import-report.txt", dir);
    char *rep = tu_read(path, NULL);
    assert_non_null(rep);
    assert_contains(rep, "ignored: \"backdrop\" ([ignore])");
    assert_contains(rep, "skipped: hidden layer \"torso/sketch\"");
    free(rep);
    free(s.report);
    mf_skeleton_free(sk);
}

static void test_reimport_keeps_mesh_and_moves(void **state)
{
    (void)state;
    const char *dir = tu_tmp("again");
    mf_psd_import_summary s;
    import("tests/data/psd/gimp_rig.psd", dir, "hero", &s);
    free(s.report);
    /* a rigger replaces the head's traced mesh by a hand-made quad and moves the torso bone */
    mf_skeleton *sk = rig(dir, "hero");
    int32_t hs = mf_skeleton_find_slot(sk, "head");
    mf_attachment *head = (mf_attachment *)att(sk, "default", "head", "head");
    static float quad[8] = {-5, -34, 5, -34, 5, -24, -5, -24};
    static float uvs[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    static int32_t tris[6] = {0, 1, 2, 0, 2, 3};
    head->vertices.count = head->uv_count = 4;
    head->vertices.xy = quad;
    head->uvs = uvs;
    head->triangle_count = 2;
    head->triangles = tris;
    head->hull = 4;
    head->edge_count = 0;
    head->edges = NULL;
    sk->bones[mf_skeleton_find_bone(sk, "torso")].rot = 90;
    char path[1024];
    mf_diag d;
    snprintf(path, sizeof path, "%s/hero.mskel", dir);
    assert_int_equal(mf_skeleton_save(sk, path, &d), MF_OK);
    mf_skeleton_free(sk);
    (void)hs;

    import("tests/data/psd/gimp_rig_v2.psd", dir, "hero", &s);
    assert_true(s.reimport);
    assert_int_equal(s.added, 1);     /* tail */
    assert_int_equal(s.removed, 1);   /* glow */
    assert_int_equal(s.updated, 2);   /* body repainted, head's normal map re-cut */
    assert_int_equal(s.moved, 2);     /* head and its normal map */
    assert_contains(s.report, "removed: layer \"glow\" is no longer in the PSD");
    assert_contains(s.report, "added: layer \"tail\" → slot \"tail\"");
    assert_contains(s.report, "moved: layer \"head\" by (3, -2) px");
    free(s.report);

    sk = rig(dir, "hero");
    head = (mf_attachment *)att(sk, "default", "head", "head");
    /* the hand-made quad is kept and moved by the layer's delta (+3, -2) */
    assert_int_equal(head->vertices.count, 4);
    assert_int_equal(head->triangle_count, 2);
    assert_float_equal(head->vertices.xy[0], -2, 1e-4);
    assert_float_equal(head->vertices.xy[1], -36, 1e-4);
    assert_float_equal(head->vertices.xy[4], 8, 1e-4);
    /* the rig's own edit stays; the removed layer's slot and image stay */
    assert_float_equal(sk->bones[mf_skeleton_find_bone(sk, "torso")].rot, 90, 0);
    assert_true(mf_skeleton_find_slot(sk, "glow") >= 0);
    snprintf(path, sizeof path, "%s/images/glow.png", dir);
    mf_image img;
    assert_int_equal(mf_png_load(path, &img, &d), MF_OK);
    mf_image_free(&img);
    /* the new layer is a new slot above hat (its neighbour below in the PSD) */
    int32_t tail = mf_skeleton_find_slot(sk, "tail");
    assert_int_equal(tail, mf_skeleton_find_slot(sk, "hat") + 1);
    const mf_attachment *t = att(sk, "default", "tail", "tail");
    assert_float_equal(t->x, 14.5f - 24, 0); /* canvas centre (14.5, 27.5), origin (24, 40) */
    assert_float_equal(t->y, 27.5f - 40, 0);
    /* body.png was repainted (inverted colours) */
    snprintf(path, sizeof path, "%s/images/body.png", dir);
    assert_int_equal(mf_png_load(path, &img, &d), MF_OK);
    assert_int_equal(img.rgba[0], 255 - 40);
    mf_image_free(&img);
    mf_skeleton_free(sk);
}

static void test_failed_import_leaves_folder(void **state)
{
    (void)state;
    const char *dir = tu_tmp("keep");
    mf_psd_import_summary s;
    import("tests/data/psd/gimp_rig.psd", dir, "im_zip", &s);
    free(s.report);
    char path[1024];
    snprintf(path, sizeof path, "%s/im_zip.mskel", dir);
    size_t before_len = 0, after_len = 0;
    char *before = tu_read(path, &before_len);
    mf_diag d;
    mf_psd_import_options o = {.name = "im_zip"};
    assert_int_equal(mf_psd_import(tu_src("tests/data/psd/im_zip.psd"), dir, &o, &s, &d), MF_ERR_UNSUPPORTED);
    assert_contains(d.where, "layer 0 \"body\"");
    char *after = tu_read(path, &after_len);
    assert_int_equal(before_len, after_len);
    assert_memory_equal(before, after, before_len);
    free(before), free(after);
    /* no rig here but a map-less one: refused with a clear message */
    const char *odd = tu_tmp("odd");
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p %s && cp %s %s/gimp_rig.mskel", odd, path, odd);
    assert_int_equal(tu_run(cmd, NULL), 0);
    assert_int_equal(mf_psd_import(tu_src("tests/data/psd/gimp_rig.psd"), odd, NULL, &s, &d), MF_ERR_INVALID);
    assert_contains(d.message, "gimp_rig.psdmap.json is missing");
    /* a map that points outside the images folder is refused, located */
    snprintf(cmd, sizeof cmd, "sed -i 's|\"image\": \"body\"|\"image\": \"../../evil\"|' %s/im_zip.psdmap.json", dir);
    assert_int_equal(tu_run(cmd, NULL), 0);
    assert_int_equal(mf_psd_import(tu_src("tests/data/psd/gimp_rig.psd"), dir, &o, &s, &d), MF_ERR_INVALID);
    assert_string_equal(d.where, "layers[0].image");
    assert_string_equal(d.message, "image \"../../evil\" must stay inside the images folder");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_import),
        cmocka_unit_test(test_reimport_keeps_mesh_and_moves),
        cmocka_unit_test(test_failed_import_leaves_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
