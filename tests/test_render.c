/* The software renderer on tiny synthetic triangles: bilinear sampling, two-colour tint, the
 * four blend modes, the fill rule and the scissor, against values worked out by hand. */
#include "testutil.h"

#include <string.h>

#include "mf/mf_render.h"

static const uint16_t QUAD[6] = {0, 1, 2, 0, 2, 3};

/* A w×h canvas cleared to a straight colour, and a full-canvas quad drawn with tex and paint. */
static void draw_full(mf_canvas *cv, int32_t w, int32_t h, const float bg[4], const mf_image *tex, const mf_paint *p)
{
    assert_int_equal(mf_canvas_create(cv, w, h), MF_OK);
    mf_canvas_clear(cv, bg);
    float xy[8] = {0, 0, (float)w, 0, (float)w, (float)h, 0, (float)h};
    float uv[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    mf_render_triangles(cv, tex, xy, uv, 4, QUAD, 6, p);
}

static void solid(mf_image *img, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    assert_int_equal(mf_image_alloc(img, 2, 2), MF_OK);
    for (int i = 0; i < 4; i++) img->rgba[4 * i] = r, img->rgba[4 * i + 1] = g, img->rgba[4 * i + 2] = b, img->rgba[4 * i + 3] = a;
}

static void pixel_is(const mf_canvas *cv, int x, int y, float r, float g, float b, float a)
{
    const float *p = cv->px + 4 * (y * cv->width + x);
    assert_float_equal(p[0], r, 1e-5);
    assert_float_equal(p[1], g, 1e-5);
    assert_float_equal(p[2], b, 1e-5);
    assert_float_equal(p[3], a, 1e-5);
}

static void normal_blend_premultiplies_straight_pages(void **state)
{
    (void)state;
    mf_image tex;
    solid(&tex, 204, 102, 51, 128); /* 0.8, 0.4, 0.2 at alpha 128/255 */
    mf_canvas cv;
    draw_full(&cv, 4, 4, (float[4]){1, 1, 1, 1}, &tex, &(mf_paint){MF_BLEND_NORMAL, {1, 1, 1, 1}, {0}, false});
    float a = 128.0f / 255.0f;
    /* out = src·a + dst·(1 − a) */
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) pixel_is(&cv, x, y, 0.8f * a + (1 - a), 0.4f * a + (1 - a), 0.2f * a + (1 - a), 1);
    /* straight RGBA8 out: 0.8·0.50196 + 0.49804 = 0.89961 → 229 */
    mf_image out;
    assert_int_equal(mf_canvas_to_image(&cv, &out), MF_OK);
    assert_int_equal(out.rgba[0], 229);
    assert_int_equal(out.rgba[3], 255);
    mf_image_free(&out);
    mf_canvas_free(&cv);
    /* on transparency: premultiplied inside, straight again in the image */
    draw_full(&cv, 2, 2, (float[4]){0, 0, 0, 0}, &tex, &(mf_paint){MF_BLEND_NORMAL, {1, 1, 1, 1}, {0}, false});
    pixel_is(&cv, 1, 1, 0.8f * a, 0.4f * a, 0.2f * a, a);
    assert_int_equal(mf_canvas_to_image(&cv, &out), MF_OK);
    assert_int_equal(out.rgba[0], 204);
    assert_int_equal(out.rgba[1], 102);
    assert_int_equal(out.rgba[3], 128);
    mf_image_free(&out);
    mf_canvas_free(&cv);
    mf_image_free(&tex);
}

static void blend_modes(void **state)
{
    (void)state;
    mf_image white, grey;
    solid(&white, 255, 255, 255, 255);
    solid(&grey, 51, 51, 51, 255); /* 0.2 */
    mf_canvas cv;
    /* additive: ONE, ONE — a half-transparent white (premultiplied 0.5) onto 0.2 grey */
    draw_full(&cv, 2, 2, (float[4]){0.2f, 0.2f, 0.2f, 1}, &white, &(mf_paint){MF_BLEND_ADDITIVE, {1, 1, 1, 0.5f}, {0}, false});
    pixel_is(&cv, 0, 0, 0.7f, 0.7f, 0.7f, 1);
    mf_canvas_free(&cv);
    /* multiply: DST_COLOR, 1 − SRC_ALPHA — opaque 0.5 grey (light 0.5 on white) onto (0.5, 0.8, 1) */
    draw_full(&cv, 2, 2, (float[4]){0.5f, 0.8f, 1, 1}, &white, &(mf_paint){MF_BLEND_MULTIPLY, {0.5f, 0.5f, 0.5f, 1}, {0}, false});
    pixel_is(&cv, 1, 0, 0.25f, 0.4f, 0.5f, 1);
    mf_canvas_free(&cv);
    /* multiply at half alpha: src premult 0.25; 0.25·0.5 + 0.5·0.5 = 0.375 */
    draw_full(&cv, 2, 2, (float[4]){0.5f, 0.5f, 0.5f, 1}, &white, &(mf_paint){MF_BLEND_MULTIPLY, {0.5f, 0.5f, 0.5f, 0.5f}, {0}, false});
    pixel_is(&cv, 1, 1, 0.375f, 0.375f, 0.375f, 1);
    mf_canvas_free(&cv);
    /* screen: ONE, 1 − SRC_COLOR — 0.2 onto 0.5: 0.2 + 0.5·0.8 = 0.6 */
    draw_full(&cv, 2, 2, (float[4]){0.5f, 0.5f, 0.5f, 1}, &grey, &(mf_paint){MF_BLEND_SCREEN, {1, 1, 1, 1}, {0}, false});
    pixel_is(&cv, 0, 1, 0.6f, 0.6f, 0.6f, 1);
    mf_canvas_free(&cv);
    /* the function on its own, a transparent destination */
    float d[4] = {0, 0, 0, 0};
    mf_render_blend(d, (float[4]){0.3f, 0.2f, 0.1f, 0.5f}, MF_BLEND_NORMAL);
    assert_float_equal(d[0], 0.3f, 1e-6);
    assert_float_equal(d[3], 0.5f, 1e-6);
    mf_image_free(&white);
    mf_image_free(&grey);
}

static void two_colour_tint(void **state)
{
    (void)state;
    float out[4];
    /* rgb = (1 − tex) × dark + tex × light, then × alpha */
    mf_paint p = {MF_BLEND_NORMAL, {1, 0.5f, 1, 1}, {0.5f, 0, 0.25f}, true};
    mf_render_shade((float[4]){0.2f, 0.6f, 1, 1}, &p, out);
    assert_float_equal(out[0], 0.8f * 0.5f + 0.2f, 1e-6);
    assert_float_equal(out[1], 0.6f * 0.5f, 1e-6);
    assert_float_equal(out[2], 1, 1e-6);
    assert_float_equal(out[3], 1, 1e-6);
    /* half alpha (texel 0.5 × light 1): premultiplied */
    mf_render_shade((float[4]){0.2f, 0.6f, 1, 0.5f}, &p, out);
    assert_float_equal(out[0], 0.3f, 1e-6);
    assert_float_equal(out[3], 0.5f, 1e-6);
    /* no dark colour: plain light tint */
    p.has_dark = false;
    p.light[3] = 0.5f;
    mf_render_shade((float[4]){0.2f, 0.6f, 1, 1}, &p, out);
    assert_float_equal(out[0], 0.1f, 1e-6);
    assert_float_equal(out[1], 0.15f, 1e-6);
    assert_float_equal(out[3], 0.5f, 1e-6);
}

static void bilinear_sampling(void **state)
{
    (void)state;
    mf_image tex;
    assert_int_equal(mf_image_alloc(&tex, 2, 1), MF_OK);
    tex.rgba[3] = 255; /* black, then white */
    memset(tex.rgba + 4, 255, 4);
    float s[4];
    mf_render_sample(&tex, 0.5f, 0.5f, s); /* between the texel centres 0.25 and 0.75 */
    assert_float_equal(s[0], 0.5f, 1e-6);
    mf_render_sample(&tex, 0.375f, 0.5f, s);
    assert_float_equal(s[0], 0.25f, 1e-6);
    mf_render_sample(&tex, 0.1f, 0.5f, s); /* clamped to the edge texel */
    assert_float_equal(s[0], 0, 1e-6);
    mf_render_sample(&tex, 1.5f, -3, s);
    assert_float_equal(s[0], 1, 1e-6);
    assert_float_equal(s[3], 1, 1e-6);
    /* the rasteriser interpolates uvs: a 4-pixel-wide quad over it samples u = 0.125 … 0.875 */
    mf_canvas cv;
    draw_full(&cv, 4, 1, (float[4]){0, 0, 0, 0}, &tex, &(mf_paint){MF_BLEND_NORMAL, {1, 1, 1, 1}, {0}, false});
    pixel_is(&cv, 0, 0, 0, 0, 0, 1);
    pixel_is(&cv, 1, 0, 0.25f, 0.25f, 0.25f, 1);
    pixel_is(&cv, 2, 0, 0.75f, 0.75f, 0.75f, 1);
    pixel_is(&cv, 3, 0, 1, 1, 1, 1);
    mf_canvas_free(&cv);
    mf_image_free(&tex);
}

static void shared_edges_are_drawn_once(void **state)
{
    (void)state;
    /* a quad split along its diagonal, through pixel centres, at half alpha: every pixel is
     * covered exactly once (alpha 0.5, not 0 or 0.75) */
    mf_canvas cv;
    draw_full(&cv, 8, 8, (float[4]){0, 0, 0, 0}, NULL, &(mf_paint){MF_BLEND_NORMAL, {1, 1, 1, 0.5f}, {0}, false});
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) assert_float_equal(cv.px[4 * (y * 8 + x) + 3], 0.5f, 1e-6);
    /* a fan of four triangles around the centre, in both windings */
    mf_canvas_clear(&cv, (float[4]){0, 0, 0, 0});
    float xy[10] = {0, 0, 8, 0, 8, 8, 0, 8, 4, 4};
    uint16_t fan[12] = {0, 1, 4, 2, 1, 4, 2, 3, 4, 0, 4, 3};
    mf_render_triangles(&cv, NULL, xy, NULL, 5, fan, 12, &(mf_paint){MF_BLEND_NORMAL, {1, 1, 1, 0.5f}, {0}, false});
    for (int i = 0; i < 64; i++) assert_float_equal(cv.px[4 * i + 3], 0.5f, 1e-6);
    mf_canvas_free(&cv);
}

static void coverage_and_scissor(void **state)
{
    (void)state;
    mf_canvas cv;
    assert_int_equal(mf_canvas_create(&cv, 4, 4), MF_OK);
    /* the lower-left half of the canvas: centres with x < y are in, x == y on the diagonal (a
     * left edge here) are in, x > y out */
    float xy[6] = {0, 0, 4, 4, 0, 4};
    uint16_t tri[3] = {0, 1, 2};
    mf_paint white = {MF_BLEND_NORMAL, {1, 1, 1, 1}, {0}, false};
    mf_render_triangles(&cv, NULL, xy, NULL, 3, tri, 3, &white);
    int covered = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            float a = cv.px[4 * (y * 4 + x) + 3];
            if (x > y) assert_float_equal(a, 0, 0);
            if (x < y) assert_float_equal(a, 1, 0);
            covered += a > 0;
        }
    assert_true(covered == 6 || covered == 10); /* the diagonal belongs to one side only */
    /* scissor: only columns 1..2 of rows 0..1 */
    mf_canvas_clear(&cv, (float[4]){0, 0, 0, 0});
    mf_canvas_set_clip(&cv, 1, 0, 3, 2);
    float full[8] = {-10, -10, 20, -10, 20, 20, -10, 20};
    mf_render_triangles(&cv, NULL, full, NULL, 4, QUAD, 6, &white);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            assert_float_equal(cv.px[4 * (y * 4 + x) + 3], (x >= 1 && x < 3 && y < 2) ? 1 : 0, 0);
    /* out-of-range indices and degenerate triangles are skipped, never read */
    uint16_t bad[6] = {0, 1, 9, 0, 0, 0};
    mf_render_triangles(&cv, NULL, full, NULL, 4, bad, 6, &white);
    mf_canvas_free(&cv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(normal_blend_premultiplies_straight_pages),
        cmocka_unit_test(blend_modes),
        cmocka_unit_test(two_colour_tint),
        cmocka_unit_test(bilinear_sampling),
        cmocka_unit_test(shared_edges_are_drawn_once),
        cmocka_unit_test(coverage_and_scissor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
