/* The PSD reader on files written by ImageMagick and GIMP (tests/data/psd/make.sh): layers,
 * names, groups, bounds, visibility, opacity, blend, pixels against the source PNGs, 16 → 8
 * bits, raw and RLE; ZIP refused naming the layer; malformed files with exact located errors. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "mf/mf_png.h"
#include "mf/mf_psd.h"

static mf_psd *load(const char *rel)
{
    mf_psd *psd = NULL;
    mf_diag d;
    mf_result r = mf_psd_load(tu_src(rel), &psd, &d);
    if (r != MF_OK) fail_msg("%s: %s %s", rel, d.where, d.message);
    return psd;
}

static const mf_psd_layer *find(const mf_psd *p, const char *name)
{
    for (int32_t i = 0; i < p->layer_count; i++)
        if (strcmp(p->layers[i].name, name) == 0) return &p->layers[i];
    fail_msg("no layer \"%s\"", name);
    return NULL;
}

/* The layer's pixels equal the PNG's: alpha everywhere, colour where alpha > 0. */
static void assert_pixels(const mf_psd_layer *l, const char *png)
{
    mf_image img;
    mf_diag d;
    assert_int_equal(mf_png_load(tu_src(png), &img, &d), MF_OK);
    assert_int_equal(l->width, img.width);
    assert_int_equal(l->height, img.height);
    for (int32_t i = 0; i < img.width * img.height; i++) {
        assert_int_equal(l->rgba[i * 4 + 3], img.rgba[i * 4 + 3]);
        if (img.rgba[i * 4 + 3])
            for (int c = 0; c < 3; c++) assert_int_equal(l->rgba[i * 4 + c], img.rgba[i * 4 + c]);
    }
    mf_image_free(&img);
}

static void check_im(const char *rel, int depth)
{
    mf_psd *p = load(rel);
    assert_non_null(p);
    assert_int_equal(p->width, 40);
    assert_int_equal(p->height, 32);
    assert_int_equal(p->depth, depth);
    assert_int_equal(p->layer_count, 3);
    const char *names[] = {"body", "head", "arm [bone]"};
    const int lt[3][4] = {{15, 12, 10, 14}, {14, 2, 12, 10}, {25, 14, 4, 9}};
    for (int i = 0; i < 3; i++) {
        const mf_psd_layer *l = &p->layers[i];
        assert_string_equal(l->name, names[i]);
        assert_int_equal(l->kind, MF_PSD_PIXEL);
        assert_int_equal(l->parent, -1);
        assert_int_equal(l->left, lt[i][0]);
        assert_int_equal(l->top, lt[i][1]);
        assert_int_equal(l->width, lt[i][2]);
        assert_int_equal(l->height, lt[i][3]);
        assert_true(l->visible);
        assert_int_equal(l->opacity, 255);
        assert_string_equal(l->blend, "norm");
    }
    assert_pixels(&p->layers[0], "tests/data/psd/src/body.png");
    assert_pixels(&p->layers[1], "tests/data/psd/src/head.png");
    assert_pixels(&p->layers[2], "tests/data/psd/src/arm.png");
    mf_psd_free(p);
}

static void test_imagemagick_8bit_rle(void **state) { (void)state, check_im("tests/data/psd/im_rgb8_rle.psd", 8); }
static void test_imagemagick_8bit_raw(void **state) { (void)state, check_im("tests/data/psd/im_rgb8_raw.psd", 8); }
static void test_imagemagick_16bit_rle(void **state) { (void)state, check_im("tests/data/psd/im_rgb16_rle.psd", 16); }
static void test_imagemagick_16bit_raw(void **state) { (void)state, check_im("tests/data/psd/im_rgb16_raw.psd", 16); }

static void test_gimp_groups(void **state)
{
    (void)state;
    mf_psd *p = load("tests/data/psd/gimp_rig.psd");
    assert_non_null(p);
    assert_int_equal(p->width, 48);
    assert_int_equal(p->height, 40);
    assert_int_equal(p->layer_count, 19);
    const mf_psd_layer *torso = find(p, "torso"), *arm_l = find(p, "arm_l [bone]"), *arm = find(p, "arm");
    assert_int_equal(torso->kind, MF_PSD_GROUP);
    assert_int_equal(torso->parent, -1);
    assert_int_equal(arm_l->kind, MF_PSD_GROUP);
    assert_ptr_equal(&p->layers[arm_l->parent], torso);
    assert_ptr_equal(&p->layers[arm->parent], arm_l);
    assert_ptr_equal(&p->layers[find(p, "body")->parent], torso);
    assert_false(find(p, "sketch")->visible);
    assert_false(find(p, "[skin] blue")->visible);
    assert_true(find(p, "[skin] red")->visible);
    const mf_psd_layer *glow = find(p, "glow");
    assert_int_equal(glow->opacity, 128);
    assert_string_equal(glow->blend, "scrn");
    assert_int_equal(mf_psd_blend_to_slot(glow->blend), 3);
    assert_int_equal(arm->left, 29);
    assert_int_equal(arm->top, 20);
    assert_pixels(arm, "tests/data/psd/src/arm.png");
    assert_pixels(find(p, "head [mesh]"), "tests/data/psd/src/head.png");
    assert_pixels(find(p, "eye_closed"), "tests/data/psd/src/eye_closed.png");
    /* GIMP keeps layer names unique: the second skin's "hat" is "hat #1" */
    assert_ptr_equal(&p->layers[find(p, "hat #1")->parent], find(p, "[skin] blue"));
    mf_psd_free(p);
}

static void test_zip_refused_with_layer_name(void **state)
{
    (void)state;
    mf_psd *p = NULL;
    mf_diag d;
    assert_int_equal(mf_psd_load(tu_src("tests/data/psd/im_zip.psd"), &p, &d), MF_ERR_UNSUPPORTED);
    assert_null(p);
    assert_contains(d.where, "channel image data, layer 0 \"body\"");
    assert_contains(d.message, "ZIP-compressed channel data");
}

/* ---- hand-made files for exact errors and 16-bit rounding */

typedef struct wb {
    uint8_t b[4096];
    size_t n;
} wb;
static void u8(wb *w, unsigned v) { w->b[w->n++] = (uint8_t)v; }
static void u16(wb *w, unsigned v) { u8(w, v >> 8), u8(w, v & 0xff); }
static void u32(wb *w, uint32_t v) { u16(w, v >> 16), u16(w, v & 0xffff); }
static void str(wb *w, const char *s) { memcpy(w->b + w->n, s, strlen(s)), w->n += strlen(s); }

static void header(wb *w, unsigned channels, unsigned h, unsigned wd, unsigned depth, unsigned mode)
{
    str(w, "8BPS");
    u16(w, 1);
    for (int i = 0; i < 6; i++) u8(w, 0);
    u16(w, channels), u32(w, h), u32(w, wd), u16(w, depth), u16(w, mode);
    u32(w, 0); /* colour mode data */
    u32(w, 0); /* image resources */
}

/* One 2x1 RGB layer named "px" at 16 bits, raw; returns the file. */
static void one_layer16(wb *w, const uint16_t rgb[2][3], bool bad_len)
{
    header(w, 3, 1, 2, 16, 3);
    size_t sec = w->n;
    u32(w, 0); /* layer & mask length, patched */
    size_t info = w->n;
    u32(w, 0); /* layer info length, patched */
    u16(w, 1);
    u32(w, 0), u32(w, 0), u32(w, 1), u32(w, 2); /* top left bottom right */
    u16(w, 3);
    for (int c = 0; c < 3; c++) u16(w, (unsigned)c), u32(w, bad_len && c == 2 ? 900 : 2 + 4);
    str(w, "8BIMnorm");
    u8(w, 255), u8(w, 0), u8(w, 0), u8(w, 0);
    u32(w, 4 + 4 + 4); /* extra: mask len, ranges len, name "px" padded to 4 */
    u32(w, 0), u32(w, 0);
    u8(w, 2), str(w, "px"), u8(w, 0);
    for (int c = 0; c < 3; c++) {
        u16(w, 0);
        u16(w, rgb[0][c]), u16(w, rgb[1][c]);
    }
    uint32_t il = (uint32_t)(w->n - info - 4);
    w->b[info] = (uint8_t)(il >> 24), w->b[info + 1] = (uint8_t)(il >> 16), w->b[info + 2] = (uint8_t)(il >> 8),
    w->b[info + 3] = (uint8_t)il;
    u32(w, 0); /* global mask */
    uint32_t sl = (uint32_t)(w->n - sec - 4);
    w->b[sec] = (uint8_t)(sl >> 24), w->b[sec + 1] = (uint8_t)(sl >> 16), w->b[sec + 2] = (uint8_t)(sl >> 8),
    w->b[sec + 3] = (uint8_t)sl;
}

static void test_16bit_rounding(void **state)
{
    (void)state;
    wb w = {0};
    const uint16_t rgb[2][3] = {{0x0000, 0x00ff, 0x0080}, {0x7fff, 0x8080, 0xffff}};
    one_layer16(&w, rgb, false);
    mf_psd *p = NULL;
    mf_diag d;
    assert_int_equal(mf_psd_parse(w.b, w.n, "t.psd", &p, &d), MF_OK);
    assert_int_equal(p->layer_count, 1);
    const uint8_t *px = p->layers[0].rgba;
    /* v * 255 / 65535 rounded: 0x00ff → 1, 0x0080 → 0, 0x7fff → 127 (127.498), 0x8080 → 128, 0xffff → 255 */
    assert_int_equal(px[0], 0);
    assert_int_equal(px[1], 1);
    assert_int_equal(px[2], 0);
    assert_int_equal(px[3], 255); /* no alpha channel: opaque */
    assert_int_equal(px[4], 127);
    assert_int_equal(px[5], 128);
    assert_int_equal(px[6], 255);
    mf_psd_free(p);
}

static void expect_error(const uint8_t *data, size_t n, mf_result code, const char *where, const char *message)
{
    mf_psd *p = NULL;
    mf_diag d;
    assert_int_equal(mf_psd_parse(data, n, "bad.psd", &p, &d), code);
    assert_null(p);
    assert_string_equal(d.file, "bad.psd");
    assert_string_equal(d.where, where);
    assert_string_equal(d.message, message);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_error((const uint8_t *)"8BPS\0\1", 6, MF_ERR_INVALID, "offset 0 (header)",
                 "truncated: the header needs 26 bytes, 6 left");
    wb w = {0};
    header(&w, 3, 1, 2, 8, 3);
    memcpy(w.b, "GIF8", 4);
    expect_error(w.b, w.n, MF_ERR_INVALID, "offset 0 (header)", "not a PSD file (no \"8BPS\" signature)");
    w = (wb){0};
    header(&w, 3, 1, 2, 8, 3);
    w.b[5] = 2;
    expect_error(w.b, w.n, MF_ERR_UNSUPPORTED, "offset 4 (header)",
                 "large document format (PSB) is not supported; save as PSD");
    w = (wb){0};
    header(&w, 3, 1, 2, 32, 3);
    expect_error(w.b, w.n, MF_ERR_UNSUPPORTED, "offset 22 (header)", "32 bits per channel is not supported (8 or 16)");
    w = (wb){0};
    header(&w, 4, 1, 2, 8, 4);
    expect_error(w.b, w.n, MF_ERR_UNSUPPORTED, "offset 24 (header)",
                 "colour mode 4 (CMYK) is not supported; convert the document to RGB");
    w = (wb){0};
    header(&w, 3, 1, 0, 8, 3);
    expect_error(w.b, w.n, MF_ERR_INVALID, "offset 14 (header)", "canvas 0 x 1 (expected 1 to 30000 a side)");
    /* a section length past the end */
    w = (wb){0};
    header(&w, 3, 1, 2, 8, 3);
    w.n -= 4;
    u32(&w, 5000);
    expect_error(w.b, w.n, MF_ERR_INVALID, "offset 30 (image resources)",
                 "section of 5000 bytes runs past the end of the file (0 left)");
    /* a large canvas with no merged image after the sections: refused before the canvas is
     * allocated and cleared (a fuzzer's 39-byte file took 10 s doing that) */
    w = (wb){0};
    header(&w, 4, 10000, 10000, 16, 3);
    u32(&w, 0); /* layer and mask info */
    expect_error(w.b, w.n, MF_ERR_INVALID, "offset 38 (merged image data)",
                 "truncated: the merged image's compression word needs 2 bytes, 0 left");
    u16(&w, 2);
    expect_error(w.b, w.n, MF_ERR_UNSUPPORTED, "offset 38 (merged image data)",
                 "ZIP-compressed merged image is not supported");
    w.n -= 2;
    u16(&w, 7);
    expect_error(w.b, w.n, MF_ERR_INVALID, "offset 38 (merged image data)",
                 "unknown compression 7 (expected 0 raw or 1 RLE)");
    /* a channel length past the layer data, named by layer */
    w = (wb){0};
    const uint16_t rgb[2][3] = {{0}};
    one_layer16(&w, rgb, true);
    expect_error(w.b, w.n, MF_ERR_INVALID, "offset 120 (channel image data, layer 0 \"px\")",
                 "channel 2 (id 2) of 900 bytes runs past the end of the layer data (6 left)");
    /* a large layer whose channels are all ZIP: refused at its first channel before the layer
     * is allocated and cleared (a fuzzer's 7 KB file spent 17 s under ASan doing that) */
    w = (wb){0};
    one_layer16(&w, rgb, false);
    size_t ch0 = w.n - 4 - 3 * 6; /* the three channels' data, then the global mask */
    for (int c = 0; c < 3; c++) w.b[ch0 + 6 * (size_t)c] = 0, w.b[ch0 + 6 * (size_t)c + 1] = 2;
    w.b[54] = 0x27, w.b[55] = 0x10, w.b[58] = 0x27, w.b[59] = 0x10; /* bottom, right: 10000 */
    char where[96];
    snprintf(where, sizeof where, "offset %zu (channel image data, layer 0 \"px\")", ch0);
    expect_error(w.b, w.n, MF_ERR_UNSUPPORTED, where,
                 "channel 0 (red): ZIP-compressed channel data (zip) is not supported; save the PSD with RLE or no "
                 "compression");
    /* cut inside the layer record */
    w = (wb){0};
    one_layer16(&w, rgb, false);
    mf_psd *p = NULL;
    mf_diag d;
    assert_int_not_equal(mf_psd_parse(w.b, 60, "cut.psd", &p, &d), MF_OK);
    assert_null(p);
    assert_contains(d.where, "offset ");
    /* every prefix of a real file fails cleanly or reads */
    size_t len = 0;
    char *real = tu_read(tu_src("tests/data/psd/gimp_rig.psd"), &len);
    assert_non_null(real);
    for (size_t n = 0; n < len; n += 7) {
        mf_result r = mf_psd_parse(real, n, "cut.psd", &p, &d);
        if (r == MF_OK) mf_psd_free(p);
        else assert_true(strncmp(d.where, "offset ", 7) == 0 && d.message[0]);
    }
    free(real);
}

static void test_group_markers_unbalanced(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *data = (uint8_t *)tu_read(tu_src("tests/data/psd/gimp_rig.psd"), &len);
    assert_non_null(data);
    /* turn the first "lsct" end marker (type 3) into a plain layer: its group loses its end */
    uint8_t *m = NULL;
    for (size_t i = 0; i + 12 <= len && !m; i++)
        if (memcmp(data + i, "lsct", 4) == 0 && data[i + 11] == 3) m = data + i;
    assert_non_null(m);
    m[11] = 0;
    mf_psd *p = NULL;
    mf_diag d;
    assert_int_equal(mf_psd_parse(data, len, "g.psd", &p, &d), MF_ERR_INVALID);
    assert_contains(d.where, "(channel image data, layer ");
    assert_string_equal(d.message, "a group record with no group end marker below it");
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_imagemagick_8bit_rle),  cmocka_unit_test(test_imagemagick_8bit_raw),
        cmocka_unit_test(test_imagemagick_16bit_rle), cmocka_unit_test(test_imagemagick_16bit_raw),
        cmocka_unit_test(test_gimp_groups),           cmocka_unit_test(test_zip_refused_with_layer_name),
        cmocka_unit_test(test_16bit_rounding),        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_group_markers_unbalanced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
