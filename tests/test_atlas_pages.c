/* End to end: a rig with images → mf_build_file → page PNGs and a build whose uvs point at the
 * right pixels. Every packed image's rectangle on its page holds the source image's trimmed
 * pixels (alpha everywhere, colour where visible); a region's quad uvs span exactly its
 * rectangle; each mesh vertex's page uv lands on the source pixel its image uv named. The
 * images are small enough, and the page (32) small enough, that the rig takes several pages. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mf/mf_build.h"
#include "mf/mf_png.h"
#include "mf/mf_skel_data.h"

/* Images: name, size and the opaque box (x0, y0, x1, y1 exclusive); pixels outside it are
 * transparent; inside, the colour encodes the position and a few pixels are half transparent. */
typedef struct src_image {
    const char *name;
    int32_t w, h, x0, y0, x1, y1;
} src_image;

static const src_image IMAGES[] = {
    {"arm", 40, 30, 5, 7, 25, 20},  /* trimmed to 20x13 at (5, 7) */
    {"badge", 17, 9, 0, 0, 17, 9},  /* not trimmed */
    {"cloth", 32, 32, 8, 8, 24, 24}, /* a mesh: kept to its uvs' bounds */
};
#define IMAGE_COUNT 3

static void pixel_of(const src_image *s, int32_t x, int32_t y, uint8_t out[4])
{
    bool in = x >= s->x0 && x < s->x1 && y >= s->y0 && y < s->y1;
    out[0] = (uint8_t)(x * 7 + s->w);
    out[1] = (uint8_t)(y * 11 + s->h);
    out[2] = (uint8_t)(x * y + 3);
    out[3] = !in ? 0 : (x + y) % 5 == 0 ? 128 : 255;
}

static void write_images(const char *dir)
{
    for (int i = 0; i < IMAGE_COUNT; i++) {
        const src_image *s = &IMAGES[i];
        mf_image img;
        assert_int_equal(mf_image_alloc(&img, s->w, s->h), MF_OK);
        for (int32_t y = 0; y < s->h; y++)
            for (int32_t x = 0; x < s->w; x++) pixel_of(s, x, y, img.rgba + 4 * ((size_t)y * s->w + x));
        char path[1300];
        snprintf(path, sizeof path, "%s/%s.png", dir, s->name);
        mf_diag d;
        assert_int_equal(mf_png_save(&img, path, &d), MF_OK);
        mf_image_free(&img);
    }
}

/* cloth's vertices at pixel centres of its opaque box: (8,8) (23,8) (23,23) (8,23) (15,15) */
static const char *RIG =
    "{\"format\":1,\"uid\":\"skl_000000000042\",\"type\":\"Skeleton\","
    "\"import\":{\"images\":\"images/\",\"pageSize\":32,\"padding\":2},"
    "\"bones\":[{\"name\":\"root\"}],"
    "\"slots\":[{\"name\":\"a\",\"bone\":\"root\",\"attachment\":\"arm\"},"
    "{\"name\":\"b\",\"bone\":\"root\",\"attachment\":\"badge\"},"
    "{\"name\":\"c\",\"bone\":\"root\",\"attachment\":\"cloth\"}],"
    "\"skins\":[{\"name\":\"default\",\"attachments\":["
    "{\"slot\":\"a\",\"name\":\"arm\",\"type\":\"Region\",\"width\":40,\"height\":30},"
    "{\"slot\":\"b\",\"name\":\"badge\",\"type\":\"Region\",\"width\":17,\"height\":9},"
    "{\"slot\":\"c\",\"name\":\"cloth\",\"type\":\"Mesh\","
    "\"uvs\":[0.265625,0.265625,0.734375,0.265625,0.734375,0.734375,0.265625,0.734375,0.484375,0.484375],"
    "\"vertices\":[0,0,15,0,15,15,0,15,7,7],"
    "\"triangles\":[0,1,4,1,2,4,2,3,4,3,0,4],\"hull\":4}]}]}";

static const src_image *source(const char *name)
{
    for (int i = 0; i < IMAGE_COUNT; i++)
        if (strcmp(IMAGES[i].name, name) == 0) return &IMAGES[i];
    return NULL;
}

/* Page pixel (px, py) against source pixel (sx, sy): alpha always, colour where visible. */
static void same_pixel(const mf_image *page, int32_t px, int32_t py, const src_image *s, int32_t sx, int32_t sy,
                       const char *what)
{
    assert_true(px >= 0 && py >= 0 && px < page->width && py < page->height);
    const uint8_t *p = page->rgba + 4 * ((size_t)py * page->width + px);
    uint8_t want[4];
    pixel_of(s, sx, sy, want);
    bool ok = p[3] == want[3] && (want[3] == 0 || memcmp(p, want, 3) == 0);
    if (!ok)
        fail_msg("%s: page (%d, %d) = %d %d %d %d, source %s (%d, %d) = %d %d %d %d", what, (int)px, (int)py, p[0], p[1],
                 p[2], p[3], s->name, (int)sx, (int)sy, want[0], want[1], want[2], want[3]);
}

static void pages_hold_the_source_pixels(void **state)
{
    (void)state;
    char dir[600], rig[700], out[700];
    snprintf(dir, sizeof dir, "%s", tu_tmp("pages/images"));
    assert_int_equal(mkdir(tu_tmp("pages"), 0755) == 0 || 1, 1);
    mkdir(dir, 0755);
    write_images(dir);
    snprintf(rig, sizeof rig, "%s", tu_tmp("pages/rig.mskel"));
    snprintf(out, sizeof out, "%s", tu_tmp("pages/rig.mskb"));
    assert_int_equal(tu_write(rig, RIG), 0);
    mf_build_options opt = {.no_cache = true};
    mf_build_report rep;
    mf_diag diag;
    mf_result r = mf_build_file_opt(rig, out, &opt, &rep, &diag);
    if (r != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    assert_int_equal(rep.images, 3);
    assert_int_equal(rep.pages, 2); /* padded: arm 24x17 over badge 21x13 on one 32 page, cloth 20x20 */
    mf_build_report_free(&rep);
    size_t size = 0;
    char *blob = tu_read(out, &size);
    assert_non_null(blob);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
    mf_image *pages = calloc((size_t)d.page_count, sizeof *pages);
    for (int32_t p = 0; p < d.page_count; p++) {
        char path[800];
        snprintf(path, sizeof path, "%s%s", tu_tmp("pages/rig"), mf_skel_data_string(&d, d.pages[p].name));
        assert_int_equal(mf_png_load(path, &pages[p], &diag), MF_OK);
        assert_int_equal(pages[p].width, d.pages[p].width);
        assert_int_equal(pages[p].height, d.pages[p].height);
    }
    /* every image's rectangle holds its trimmed pixels */
    for (int32_t i = 0; i < d.image_count; i++) {
        const mf_sd_image *im = &d.images[i];
        const src_image *s = source(mf_skel_data_string(&d, im->name));
        assert_non_null(s);
        assert_true(im->page >= 0 && im->page < d.page_count);
        assert_int_equal(im->orig_w, s->w);
        assert_int_equal(im->orig_h, s->h);
        for (int32_t y = 0; y < im->h; y++)
            for (int32_t x = 0; x < im->w; x++)
                same_pixel(&pages[im->page], im->x + x, im->y + y, s, im->trim_x + x, im->trim_y + y, "rectangle");
    }
    for (int32_t i = 0; i < d.image_count; i++) { /* the trim itself */
        const mf_sd_image *im = &d.images[i];
        const src_image *s = source(mf_skel_data_string(&d, im->name));
        if (s == &IMAGES[2]) continue; /* the mesh keeps its uvs' bounds, checked below */
        assert_int_equal(im->trim_x, s->x0), assert_int_equal(im->trim_y, s->y0);
        assert_int_equal(im->w, s->x1 - s->x0), assert_int_equal(im->h, s->y1 - s->y0);
    }
    /* attachments: region quads span their rectangle; mesh vertices land on their pixels */
    int32_t regions = 0, meshes = 0;
    for (int32_t a = 0; a < d.attachment_count; a++) {
        const mf_sd_attachment *at = &d.attachments[a];
        const mf_sd_image *im = &d.images[at->image];
        const mf_image *page = &pages[im->page];
        const src_image *s = source(mf_skel_data_string(&d, im->name));
        const float *uv = d.floats + at->uv_first;
        if (at->type == MF_SD_ATT_REGION) {
            float u0 = 9, v0 = 9, u1 = -9, v1 = -9;
            for (int32_t k = 0; k < at->vertex_count; k++) {
                u0 = fminf(u0, uv[2 * k]), u1 = fmaxf(u1, uv[2 * k]);
                v0 = fminf(v0, uv[2 * k + 1]), v1 = fmaxf(v1, uv[2 * k + 1]);
            }
            int32_t x0 = (int32_t)lroundf(u0 * page->width), y0 = (int32_t)lroundf(v0 * page->height);
            int32_t x1 = (int32_t)lroundf(u1 * page->width), y1 = (int32_t)lroundf(v1 * page->height);
            assert_int_equal(x0, im->x), assert_int_equal(y0, im->y);
            assert_int_equal(x1 - x0, im->w), assert_int_equal(y1 - y0, im->h);
            for (int32_t y = y0; y < y1; y++) /* sampled through the uvs, the trim added back */
                for (int32_t x = x0; x < x1; x++)
                    same_pixel(page, x, y, s, x - x0 + im->trim_x, y - y0 + im->trim_y, "region uv");
            regions++;
        } else if (at->type == MF_SD_ATT_MESH) {
            static const int32_t want[5][2] = {{8, 8}, {23, 8}, {23, 23}, {8, 23}, {15, 15}};
            assert_int_equal(at->vertex_count, 5);
            for (int32_t k = 0; k < 5; k++) {
                int32_t px = (int32_t)floorf(uv[2 * k] * page->width), py = (int32_t)floorf(uv[2 * k + 1] * page->height);
                same_pixel(page, px, py, s, want[k][0], want[k][1], "mesh uv");
                /* and the mapping is exact: the pixel centre */
                assert_true(fabsf(uv[2 * k] * page->width - (float)px - 0.5f) < 1e-3f);
            }
            meshes++;
        }
    }
    assert_int_equal(regions, 2);
    assert_int_equal(meshes, 1);
    for (int32_t p = 0; p < d.page_count; p++) mf_image_free(&pages[p]);
    free(pages);
    free(blob);
}

/* <name>_n.png normal maps pack into a second page set, each in its image's rectangle: here a
 * normal map is its image with the colour inverted (same alpha, so the same trim). */
static void normal_maps_share_the_rectangles(void **state)
{
    (void)state;
    char dir[600], rig[700], out[700];
    mkdir(tu_tmp("normals"), 0755);
    snprintf(dir, sizeof dir, "%s", tu_tmp("normals/images"));
    mkdir(dir, 0755);
    write_images(dir);
    for (int i = 0; i < IMAGE_COUNT; i++) {
        const src_image *s = &IMAGES[i];
        mf_image img;
        assert_int_equal(mf_image_alloc(&img, s->w, s->h), MF_OK);
        for (int32_t k = 0; k < s->w * s->h; k++) {
            uint8_t *px = img.rgba + 4 * (size_t)k;
            pixel_of(s, k % s->w, k / s->w, px);
            px[0] = (uint8_t)(255 - px[0]), px[1] = (uint8_t)(255 - px[1]), px[2] = (uint8_t)(255 - px[2]);
        }
        char path[1300];
        snprintf(path, sizeof path, "%s/%s_n.png", dir, s->name);
        mf_diag d;
        assert_int_equal(mf_png_save(&img, path, &d), MF_OK);
        mf_image_free(&img);
    }
    snprintf(rig, sizeof rig, "%s", tu_tmp("normals/rig.mskel"));
    snprintf(out, sizeof out, "%s", tu_tmp("normals/rig.mskb"));
    assert_int_equal(tu_write(rig, RIG), 0);
    mf_build_options opt = {.no_cache = true};
    mf_build_report rep;
    mf_diag diag;
    mf_result r = mf_build_file_opt(rig, out, &opt, &rep, &diag);
    if (r != MF_OK) fail_msg("%s: %s: %s", diag.file, diag.where, diag.message);
    mf_build_report_free(&rep);
    size_t size = 0;
    char *blob = tu_read(out, &size);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(blob, size, &d, &diag), MF_OK);
    for (int32_t i = 0; i < d.image_count; i++) {
        const mf_sd_image *im = &d.images[i];
        const src_image *s = source(mf_skel_data_string(&d, im->name));
        assert_true(d.pages[im->page].normal_name >= 0);
        char path[800];
        snprintf(path, sizeof path, "%s%s", tu_tmp("normals/rig"), mf_skel_data_string(&d, d.pages[im->page].normal_name));
        mf_image page;
        assert_int_equal(mf_png_load(path, &page, &diag), MF_OK);
        assert_int_equal(page.width, d.pages[im->page].width);
        for (int32_t y = 0; y < im->h; y++)
            for (int32_t x = 0; x < im->w; x++) {
                uint8_t want[4];
                pixel_of(s, im->trim_x + x, im->trim_y + y, want);
                const uint8_t *got = page.rgba + 4 * ((size_t)(im->y + y) * page.width + im->x + x);
                assert_int_equal(got[3], want[3]);
                if (want[3]) assert_int_equal(got[0], 255 - want[0]), assert_int_equal(got[2], 255 - want[2]);
            }
        mf_image_free(&page);
    }
    free(blob);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pages_hold_the_source_pixels),
        cmocka_unit_test(normal_maps_share_the_rectangles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
