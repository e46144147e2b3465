/* The mannequin example's art: the committed PNGs in examples/mannequin/images/ must be exactly
 * what tools/gen-art draws, and the rig must place every image at its real size. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spng.h>

#include "gen_art.h"
#include "mf/mf_skeleton.h"

#define IMAGES "examples/mannequin/images"

/* Decodes a PNG file to straight RGBA8; NULL (with a message printed) on failure. */
static uint8_t *decode(const char *path, int *w, int *h)
{
    size_t len = 0;
    char *data = tu_read(path, &len);
    if (!data) {
        print_error("%s: cannot read\n", path);
        return NULL;
    }
    spng_ctx *ctx = spng_ctx_new(0);
    struct spng_ihdr ihdr;
    size_t size = 0;
    uint8_t *px = NULL;
    int rc = spng_set_png_buffer(ctx, data, len);
    if (!rc) rc = spng_get_ihdr(ctx, &ihdr);
    if (!rc) rc = spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &size);
    if (!rc) {
        px = malloc(size);
        rc = spng_decode_image(ctx, px, size, SPNG_FMT_RGBA8, 0);
    }
    spng_ctx_free(ctx);
    free(data);
    if (rc) {
        print_error("%s: %s\n", path, spng_strerror(rc));
        free(px);
        return NULL;
    }
    *w = (int)ihdr.width;
    *h = (int)ihdr.height;
    return px;
}

/* Compares a decoded file with a fresh rendering, naming the first differing pixel. */
static void assert_same_pixels(const char *path, const mf_art_image *img)
{
    int w = 0, h = 0;
    uint8_t *px = decode(path, &w, &h);
    assert_non_null(px);
    if (w != img->width || h != img->height) {
        print_error("%s: %dx%d, the generator draws %dx%d\n", path, w, h, img->width, img->height);
        fail();
    }
    long differ = 0, first = -1;
    for (long i = 0; i < (long)w * h; i++)
        if (memcmp(px + i * 4, img->rgba + i * 4, 4) != 0) {
            if (first < 0) first = i;
            differ++;
        }
    if (differ) {
        const uint8_t *a = px + first * 4, *b = img->rgba + first * 4;
        print_error("%s: %ld pixels differ; first at (%ld, %ld): file #%02x%02x%02x%02x, "
                    "generator #%02x%02x%02x%02x (regenerate: mf_gen_art " IMAGES ")\n",
                    path, differ, first % w, first / w, a[0], a[1], a[2], a[3], b[0], b[1], b[2],
                    b[3]);
    }
    free(px);
    assert_int_equal(differ, 0);
}

static void committed_images_match_the_generator(void **state)
{
    (void)state;
    assert_true(mf_art_part_count() >= 10);
    for (int i = 0; i < mf_art_part_count(); i++) {
        mf_art_image img;
        assert_int_equal(mf_art_render(i, &img), 0);
        char rel[256];
        snprintf(rel, sizeof rel, IMAGES "/%s.png", mf_art_part_name(i));
        assert_same_pixels(tu_src(rel), &img);
        mf_art_image_free(&img);
    }
}

static void generator_writes_every_part_as_png(void **state)
{
    (void)state;
    char err[512] = "";
    if (mf_art_generate(tu_tmpdir(), err, sizeof err) != 0) print_error("%s\n", err);
    assert_string_equal(err, "");
    for (int i = 0; i < mf_art_part_count(); i++) {
        mf_art_image img;
        assert_int_equal(mf_art_render(i, &img), 0);
        char name[128];
        snprintf(name, sizeof name, "%s.png", mf_art_part_name(i));
        assert_same_pixels(tu_tmp(name), &img);
        mf_art_image_free(&img);
    }
}

static void generator_reports_an_unwritable_folder(void **state)
{
    (void)state;
    char err[512] = "";
    assert_int_not_equal(mf_art_generate(tu_tmp("missing/folder"), err, sizeof err), 0);
    assert_contains(err, "missing/folder/shadow.png: cannot write");
    mf_art_image img;
    assert_int_equal(mf_art_render(-1, &img), -1);
    assert_int_equal(mf_art_render(mf_art_part_count(), &img), -1);
    assert_null(mf_art_part_name(mf_art_part_count()));
}

/* Every part leaves a transparent border: nothing the rasteriser drew was cut off, and
 * something opaque was drawn. */
static void parts_fit_inside_their_images(void **state)
{
    (void)state;
    for (int i = 0; i < mf_art_part_count(); i++) {
        mf_art_image img;
        assert_int_equal(mf_art_render(i, &img), 0);
        int opaque = 0;
        for (int y = 0; y < img.height; y++)
            for (int x = 0; x < img.width; x++) {
                uint8_t a = img.rgba[((size_t)y * (size_t)img.width + (size_t)x) * 4 + 3];
                bool edge = x == 0 || y == 0 || x == img.width - 1 || y == img.height - 1;
                if (edge && a != 0) {
                    print_error("%s: alpha %d at the border (%d, %d)\n", mf_art_part_name(i), a,
                                x, y);
                    fail();
                }
                if (a == 255) opaque++;
            }
        /* the shadow is translucent by design; every body part has a solid middle */
        if (strcmp(mf_art_part_name(i), "shadow") != 0) assert_true(opaque > 20);
        mf_art_image_free(&img);
    }
}

static int find_part(const char *name)
{
    for (int i = 0; i < mf_art_part_count(); i++)
        if (strcmp(mf_art_part_name(i), name) == 0) return i;
    return -1;
}

/* No stray PNG in the images folder: each one is a part the generator makes. */
static void images_folder_holds_only_generated_parts(void **state)
{
    (void)state;
    DIR *dir = opendir(tu_src(IMAGES));
    assert_non_null(dir);
    int pngs = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".png") != 0) continue;
        char stem[256];
        snprintf(stem, sizeof stem, "%.*s", (int)(n - 4), e->d_name);
        if (find_part(stem) < 0) {
            print_error(IMAGES "/%s: not drawn by tools/gen-art\n", e->d_name);
            fail();
        }
        pngs++;
    }
    closedir(dir);
    assert_int_equal(pngs, mf_art_part_count());
}

/* The rig's attachments name generated images and use their real pixel sizes. */
static void rig_places_each_image_at_its_size(void **state)
{
    (void)state;
    mf_skeleton *sk = NULL;
    mf_diag diag;
    if (mf_skeleton_load(tu_src("examples/mannequin/mannequin.mskel"), &sk, &diag) != MF_OK) {
        char msg[1024];
        mf_diag_format(&diag, msg, sizeof msg);
        print_error("%s\n", msg);
        fail();
    }
    int used[64] = {0};
    int regions = 0, meshes = 0;
    for (int32_t s = 0; s < sk->skin_count; s++) {
        for (int32_t a = 0; a < sk->skins[s].attachment_count; a++) {
            const mf_attachment *att = &sk->skins[s].attachments[a];
            if (att->type != MF_ATTACH_REGION && att->type != MF_ATTACH_MESH) continue;
            const char *image = att->image ? att->image : att->name;
            int part = find_part(image);
            if (part < 0) {
                print_error("attachment %s uses image \"%s\", which tools/gen-art does not draw\n",
                            att->name, image);
                fail();
            }
            used[part] = 1;
            mf_art_image img;
            assert_int_equal(mf_art_render(part, &img), 0);
            assert_float_equal(att->width, (float)img.width, 0);
            assert_float_equal(att->height, (float)img.height, 0);
            mf_art_image_free(&img);
            if (att->type == MF_ATTACH_REGION) regions++;
            else meshes++;
        }
    }
    assert_int_equal(meshes, 1);
    assert_true(regions >= 15);
    for (int i = 0; i < mf_art_part_count(); i++) {
        if (!used[i]) print_error("image %s is not used by the rig\n", mf_art_part_name(i));
        assert_true(used[i]);
    }
    mf_skeleton_free(sk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(committed_images_match_the_generator),
        cmocka_unit_test(generator_writes_every_part_as_png),
        cmocka_unit_test(generator_reports_an_unwritable_folder),
        cmocka_unit_test(parts_fit_inside_their_images),
        cmocka_unit_test(images_folder_holds_only_generated_parts),
        cmocka_unit_test(rig_places_each_image_at_its_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
