/* Signed-distance shapes and coverage compositing; see raster.h for why only basic arithmetic
 * and sqrt appear here. */
#include "raster.h"

#include <math.h>
#include <stdlib.h>

int mf_art_canvas_init(mf_art_canvas *c, int w, int h)
{
    c->w = w;
    c->h = h;
    c->px = calloc((size_t)w * (size_t)h * 4, sizeof(double));
    return c->px != NULL;
}

void mf_art_canvas_free(mf_art_canvas *c)
{
    free(c->px);
    c->px = NULL;
}

static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }
static double len2(double x, double y) { return sqrt(x * x + y * y); }

static double sd_capsule(const mf_art_shape *s, double x, double y)
{
    double pax = x - s->ax, pay = y - s->ay;
    double bax = s->bx - s->ax, bay = s->by - s->ay;
    double bb = bax * bax + bay * bay;
    double h = bb > 0 ? clamp01((pax * bax + pay * bay) / bb) : 0;
    /* Radius interpolated along the axis: not an exact distance for a taper, but close to
     * one for the gentle tapers of limbs, which is all anti-aliasing needs. */
    return len2(pax - bax * h, pay - bay * h) - (s->r0 + (s->r1 - s->r0) * h);
}

static double sd_ellipse(const mf_art_shape *s, double x, double y)
{
    /* First-order distance estimate |p/r| (|p/r| - 1) / |p/r²|: exact on the boundary, which
     * is where the 1-pixel coverage ramp reads it. */
    double px = x - s->ax, py = y - s->ay;
    double k0 = len2(px / s->r0, py / s->r1);
    double k1 = len2(px / (s->r0 * s->r0), py / (s->r1 * s->r1));
    if (k1 == 0) return -(s->r0 < s->r1 ? s->r0 : s->r1);
    return k0 * (k0 - 1) / k1;
}

static double sd_rbox(const mf_art_shape *s, double x, double y)
{
    double qx = fabs(x - s->ax) - s->bx + s->r0;
    double qy = fabs(y - s->ay) - s->by + s->r0;
    double outside = len2(qx > 0 ? qx : 0, qy > 0 ? qy : 0);
    double inside = qx > qy ? qx : qy;
    return outside + (inside < 0 ? inside : 0) - s->r0;
}

static double sd_shape(const mf_art_shape *s, double x, double y)
{
    switch (s->kind) {
    case MF_ART_CAPSULE: return sd_capsule(s, x, y);
    case MF_ART_ELLIPSE: return sd_ellipse(s, x, y);
    case MF_ART_RBOX: return sd_rbox(s, x, y);
    }
    return 1e9;
}

/* Polynomial smooth minimum: blends the two distances where they are within k of each other. */
static double smin(double a, double b, double k)
{
    if (k <= 0) return a < b ? a : b;
    double h = clamp01(0.5 + 0.5 * (b - a) / k);
    return b + (a - b) * h - k * h * (1 - h);
}

double mf_art_sdf(const mf_art_shape *s, int n, double smooth, double x, double y)
{
    double d = 1e9;
    for (int i = 0; i < n; i++) {
        double di = sd_shape(&s[i], x, y);
        d = i == 0 ? di : smin(d, di, smooth);
    }
    return d;
}

/* Coverage of a pixel whose centre is at signed distance d: a 1-pixel linear ramp. */
static double coverage(double d) { return clamp01(0.5 - d); }

static void over(mf_art_canvas *c, int x, int y, double r, double g, double b, double a)
{
    if (a <= 0) return;
    double *p = c->px + ((size_t)y * (size_t)c->w + (size_t)x) * 4;
    double k = 1 - a;
    p[0] = r * a + p[0] * k;
    p[1] = g * a + p[1] * k;
    p[2] = b * a + p[2] * k;
    p[3] = a + p[3] * k;
}

static double chan(uint32_t rgb, int shift) { return (double)((rgb >> shift) & 0xffu) / 255.0; }

void mf_art_body(mf_art_canvas *c, const mf_art_shape *s, int n, double smooth,
                 const mf_art_style *st)
{
    for (int y = 0; y < c->h; y++) {
        for (int x = 0; x < c->w; x++) {
            double d = mf_art_sdf(s, n, smooth, x + 0.5, y + 0.5);
            if (d >= 0.5) continue;
            over(c, x, y, chan(st->outline, 16), chan(st->outline, 8), chan(st->outline, 0),
                 coverage(d));
            double inner = d + st->outline_width;
            double depth = clamp01(-inner / st->bevel);
            double ease = 1 - (1 - depth) * (1 - depth);
            double lit = st->edge_shade + (1 - st->edge_shade) * ease;
            over(c, x, y, chan(st->fill, 16) * lit, chan(st->fill, 8) * lit,
                 chan(st->fill, 0) * lit, coverage(inner));
        }
    }
}

void mf_art_flat(mf_art_canvas *c, const mf_art_shape *s, int n, uint32_t rgb, double alpha)
{
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            double d = mf_art_sdf(s, n, 0, x + 0.5, y + 0.5);
            over(c, x, y, chan(rgb, 16), chan(rgb, 8), chan(rgb, 0), alpha * coverage(d));
        }
}

void mf_art_soft(mf_art_canvas *c, const mf_art_shape *s, uint32_t rgb, double alpha, double soft)
{
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            double t = clamp01(-mf_art_sdf(s, 1, 0, x + 0.5, y + 0.5) / soft);
            over(c, x, y, chan(rgb, 16), chan(rgb, 8), chan(rgb, 0), alpha * t * t * (3 - 2 * t));
        }
}

static uint8_t to8(double v)
{
    double s = clamp01(v) * 255.0 + 0.5;
    return (uint8_t)s; /* truncation of a non-negative value = floor */
}

void mf_art_canvas_rgba8(const mf_art_canvas *c, uint8_t *out)
{
    size_t n = (size_t)c->w * (size_t)c->h;
    for (size_t i = 0; i < n; i++) {
        const double *p = c->px + i * 4;
        uint8_t a = to8(p[3]);
        out[i * 4 + 3] = a;
        for (int k = 0; k < 3; k++) out[i * 4 + k] = a ? to8(p[k] / p[3]) : 0;
    }
}
