/* The contact sheet: frames of a clip drawn by the software renderer, with cairo for the
 * overlays (onion, bones, bounds), the labels, the timeline strip and the header. */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_build.h"
#include "mf/mf_check.h"
#include "mf/mf_geometry.h"
#include "mf/mf_render.h"
#include "mf/mf_rig.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/suggest.h"

/* fontconfig (under cairo's text) keeps allocations it never frees; LeakSanitizer builds are
 * told so here, beside the only user of cairo's fonts, instead of in every test's options. */
#if defined(__SANITIZE_ADDRESS__)
#define MF_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MF_LSAN 1
#endif
#endif
#ifdef MF_LSAN
const char *__lsan_default_suppressions(void);
__attribute__((used)) const char *__lsan_default_suppressions(void) { return "leak:libfontconfig.so\n"; }
#endif

#define MAX_FRAMES 64
#define HEADER_H 58
#define ROW_H 14
#define LABEL_W 190
#define MAX_ROWS 40

typedef struct sheet {
    mf_rig rig;
    const mf_clip *clip;
    void *blob;
    mf_skel_data data;
    mf_skin_cache *skins;
    mf_pose *pose;
    mf_draw_list *dl;
    int32_t clip_index;
    mf_image *images;
    const mf_image **pages;
    int32_t page_count;
    char skin_label[256];
} sheet;

static void pose_at(sheet *s, float t)
{
    mf_pose_reset(s->pose);
    mf_pose_sample(s->pose, &(mf_clip_sample){.clip = s->clip_index, .time = t, .prev_time = t, .weight = 1});
    mf_pose_update_world(s->pose);
    mf_draw_list_build(s->dl, s->pose);
}

static const char *skin_name_at(const void *ctx, int i)
{
    const mf_skel_data *d = ctx;
    return mf_skel_data_string(d, d->skins[i].name);
}

static const char *clip_name_at(const void *ctx, int i) { return ((const mf_rig *)ctx)->clips[i]->name; }

static mf_result setup(sheet *s, const char *rig_path, const mf_sheet_options *opt, mf_diag *diag)
{
    mf_result r = mf_rig_load(rig_path, &s->rig, diag);
    if (r != MF_OK) return r;
    int32_t ci = opt->clip ? mf_rig_find_clip(&s->rig, opt->clip) : -1;
    if (ci < 0) {
        char sfx[200];
        mf_suggest_suffix(sfx, sizeof sfx,
                          opt->clip ? mf_suggest(opt->clip, s->rig.clip_count, clip_name_at, &s->rig) : NULL);
        mf_diag_set(diag, rig_path, "", "no clip \"%s\"%s (the rig has %d clip%s)", opt->clip ? opt->clip : "", sfx,
                    (int)s->rig.clip_count, s->rig.clip_count == 1 ? "" : "s");
        return MF_ERR_ARGUMENT;
    }
    s->clip = s->rig.clips[ci];
    size_t size = 0;
    if ((r = mf_build_skeleton(s->rig.sk, (const mf_clip *const *)s->rig.clips, s->rig.clip_count, &s->blob, &size,
                               diag)) != MF_OK ||
        (r = mf_skel_data_load(s->blob, size, &s->data, diag)) != MF_OK)
        return r;
    s->clip_index = mf_skel_data_find_clip(&s->data, s->clip->name);
    if ((r = mf_skin_cache_create(&s->data, NULL, &s->skins)) != MF_OK ||
        (r = mf_pose_create(&s->data, NULL, &s->pose, diag)) != MF_OK ||
        (r = mf_draw_list_create(&s->data, NULL, &s->dl)) != MF_OK)
        return r;
    int32_t list[64], n = 0;
    if (opt->skins) {
        for (int32_t i = 0; i < opt->skin_count && n < 64; i++) {
            int32_t k = mf_skel_data_find_skin(&s->data, opt->skins[i]);
            if (k < 0) {
                char sfx[200];
                mf_suggest_suffix(sfx, sizeof sfx, mf_suggest(opt->skins[i], s->data.skin_count, skin_name_at, &s->data));
                mf_diag_set(diag, rig_path, "", "no skin \"%s\"%s", opt->skins[i], sfx);
                return MF_ERR_ARGUMENT;
            }
            list[n++] = k;
        }
    } else {
        /* the default skin alone often lacks the body (Spine's skin rigs): show the first other one */
        for (int32_t i = 0; i < s->data.skin_count && !n; i++)
            if (strcmp(skin_name_at(&s->data, i), "default") != 0) list[n++] = i;
    }
    for (int32_t i = 0; i < n; i++)
        snprintf(s->skin_label + strlen(s->skin_label), sizeof s->skin_label - strlen(s->skin_label), "%s%s",
                 i ? "+" : "", skin_name_at(&s->data, list[i]));
    if (n && (r = mf_pose_set_skins(s->pose, s->skins, list, n, diag)) != MF_OK) return r;
    /* pages: every image by name from import.images */
    s->page_count = s->data.image_count;
    s->images = calloc((size_t)s->page_count + 1, sizeof *s->images);
    s->pages = calloc((size_t)s->page_count + 1, sizeof *s->pages);
    if (!s->images || !s->pages) return MF_ERR_NOMEM;
    char dir[1024];
    mf_path_dir(rig_path, dir, sizeof dir);
    const char *img = s->rig.sk->import.images ? s->rig.sk->import.images : "images/";
    for (int32_t i = 0; i < s->page_count; i++) {
        char path[2400];
        size_t l = strlen(img);
        snprintf(path, sizeof path, "%s%s%s%s.png", img[0] == '/' ? "" : dir, img, l && img[l - 1] == '/' ? "" : "/",
                 mf_skel_data_string(&s->data, s->data.images[i].name));
        mf_diag ignore;
        if (mf_png_load(path, &s->images[i], &ignore) == MF_OK) s->pages[i] = &s->images[i];
    }
    return MF_OK;
}

static void teardown(sheet *s)
{
    for (int32_t i = 0; s->images && i < s->page_count; i++) mf_image_free(&s->images[i]);
    free(s->images);
    free(s->pages);
    mf_draw_list_destroy(s->dl);
    mf_pose_destroy(s->pose);
    mf_skin_cache_destroy(s->skins);
    free(s->blob);
    if (s->rig.sk) mf_rig_free(&s->rig);
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* N times across the clip, or its distinct key times when it has fewer. */
static int32_t frame_times(const mf_clip *clip, int32_t want, float *out)
{
    float keys[512];
    int32_t n = 0;
    for (int32_t i = 0; i < clip->timeline_count; i++)
        for (int32_t k = 0; k < clip->timelines[i].key_count && n < 512; k++)
            if (clip->timelines[i].t[k] <= clip->length + 1e-4f) keys[n++] = clip->timelines[i].t[k];
    qsort(keys, (size_t)n, sizeof *keys, cmp_float);
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++)
        if (!m || keys[i] - keys[m - 1] > 1e-4f) keys[m++] = keys[i];
    /* a loop's last key repeats its first */
    if (clip->loop != MF_LOOP_NONE && m > 1 && fabsf(keys[m - 1] - clip->length) < 1e-4f && keys[0] < 1e-4f) m--;
    if (m > 0 && m < want) {
        memcpy(out, keys, (size_t)m * sizeof *out);
        return m;
    }
    bool loop = clip->loop != MF_LOOP_NONE;
    for (int32_t i = 0; i < want; i++)
        out[i] = want == 1 ? 0 : clip->length * (float)i / (float)(loop ? want : want - 1);
    return want;
}

/* ---- cairo helpers ---- */

static void colour(cairo_t *cr, uint32_t rgb, double a)
{
    cairo_set_source_rgba(cr, ((rgb >> 16) & 255) / 255.0, ((rgb >> 8) & 255) / 255.0, (rgb & 255) / 255.0, a);
}

static void text(cairo_t *cr, double x, double y, double size, bool bold, const char *s)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, s);
}

/* The canvas (premultiplied float) into a cairo ARGB32 surface (premultiplied, native endian). */
static void canvas_to_surface(const mf_canvas *c, cairo_surface_t *surf)
{
    cairo_surface_flush(surf);
    unsigned char *data = cairo_image_surface_get_data(surf);
    int stride = cairo_image_surface_get_stride(surf);
    for (int32_t y = 0; y < c->height; y++) {
        uint32_t *row = (uint32_t *)(void *)(data + (size_t)y * (size_t)stride);
        for (int32_t x = 0; x < c->width; x++) {
            const float *p = c->px + 4 * ((size_t)y * c->width + x);
            uint32_t v[4];
            for (int k = 0; k < 4; k++) v[k] = (uint32_t)lrintf(fminf(fmaxf(p[k], 0), 1) * 255.0f);
            for (int k = 0; k < 3; k++) v[k] = v[k] > v[3] ? v[3] : v[k];
            row[x] = v[3] << 24 | v[0] << 16 | v[1] << 8 | v[2];
        }
    }
    cairo_surface_mark_dirty(surf);
}

static mf_result save_surface(cairo_surface_t *surf, const char *path, mf_diag *diag)
{
    cairo_surface_flush(surf);
    int w = cairo_image_surface_get_width(surf), h = cairo_image_surface_get_height(surf);
    int stride = cairo_image_surface_get_stride(surf);
    const unsigned char *data = cairo_image_surface_get_data(surf);
    mf_image img;
    mf_result r = mf_image_alloc(&img, w, h);
    if (r != MF_OK) return mf_diag_set(diag, path, "", "out of memory"), r;
    for (int y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++) {
            uint32_t v = row[x], a = v >> 24;
            uint8_t *o = img.rgba + 4 * ((size_t)y * w + x);
            for (int k = 0; k < 3; k++) {
                uint32_t c = (v >> (16 - 8 * k)) & 255;
                o[k] = (uint8_t)(a ? (c * 255 + a / 2) / a : 0);
            }
            o[3] = (uint8_t)a;
        }
    }
    r = mf_png_save(&img, path, diag);
    mf_image_free(&img);
    return r;
}

/* ---- one frame ---- */

typedef struct cell {
    double x, y, w, h; /* on the sheet */
    float view[6];
} cell;

static void draw_bones(cairo_t *cr, const sheet *s, const cell *c)
{
    const mf_pose *p = s->pose;
    double k = c->view[0];
    cairo_set_line_width(cr, 1.4);
    for (int32_t b = 0; b < p->bone_count; b++) {
        if (!p->active[b]) continue;
        double x0 = c->view[0] * p->wx[b] + c->view[4], y0 = c->view[3] * p->wy[b] + c->view[5];
        double len = s->data.bones[b].length;
        double x1 = x0 + k * p->a[b] * len, y1 = y0 + k * p->c[b] * len;
        colour(cr, 0x2060e0, 0.75);
        if (len > 0) {
            cairo_move_to(cr, x0, y0);
            cairo_line_to(cr, x1, y1);
            cairo_stroke(cr);
        }
        cairo_arc(cr, x0, y0, 2.2, 0, 6.283185307179586);
        colour(cr, 0xffffff, 0.9);
        cairo_fill_preserve(cr);
        colour(cr, 0x2060e0, 0.9);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
        cairo_set_line_width(cr, 1.4);
    }
}

static void render_cell(sheet *s, mf_canvas *cv, cairo_t *cr, const cell *c, float t, float prev, float next,
                        bool onion, const char *label)
{
    mf_canvas_set_clip(cv, (int32_t)c->x, (int32_t)c->y, (int32_t)(c->x + c->w), (int32_t)(c->y + c->h));
    if (onion) { /* neighbours first, faded and coloured: earlier red, later green */
        pose_at(s, prev);
        mf_render_draw_list(cv, s->dl, s->pages, s->page_count, c->view, (float[4]){1, 0.45f, 0.45f, 0.28f});
        pose_at(s, next);
        mf_render_draw_list(cv, s->dl, s->pages, s->page_count, c->view, (float[4]){0.45f, 1, 0.45f, 0.28f});
    }
    pose_at(s, t);
    mf_render_draw_list(cv, s->dl, s->pages, s->page_count, c->view, NULL);
    (void)cr;
    (void)label;
}

static void overlay_cell(sheet *s, cairo_t *cr, const cell *c, float t, const char *label)
{
    pose_at(s, t);
    cairo_save(cr);
    cairo_rectangle(cr, c->x, c->y, c->w, c->h);
    cairo_clip(cr);
    float b[4];
    if (mf_pose_bounds(s->pose, b)) {
        double x0 = c->view[0] * b[0] + c->view[4], y0 = c->view[3] * b[1] + c->view[5];
        double x1 = c->view[0] * b[2] + c->view[4], y1 = c->view[3] * b[3] + c->view[5];
        double dash[2] = {4, 3};
        cairo_set_dash(cr, dash, 2, 0);
        cairo_set_line_width(cr, 1);
        colour(cr, 0xe08020, 0.9);
        cairo_rectangle(cr, floor(x0) + 0.5, floor(y0) + 0.5, ceil(x1 - x0), ceil(y1 - y0));
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    draw_bones(cr, s, c);
    colour(cr, 0x202020, 1);
    text(cr, c->x + 6, c->y + 15, 12, true, label);
    cairo_restore(cr);
    colour(cr, 0xb0b0b0, 1);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, c->x + 0.5, c->y + 0.5, c->w - 1, c->h - 1);
    cairo_stroke(cr);
}

/* The view that fits every frame's bounds (and its onion neighbours) into a cell. */
static void fit_view(sheet *s, const float *times, int32_t n, double w, double h, float view[6])
{
    float u[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY}, b[4];
    for (int32_t i = 0; i < n; i++) {
        pose_at(s, times[i]);
        if (!mf_pose_bounds(s->pose, b)) continue;
        u[0] = fminf(u[0], b[0]), u[1] = fminf(u[1], b[1]), u[2] = fmaxf(u[2], b[2]), u[3] = fmaxf(u[3], b[3]);
        for (int32_t k = 0; k < s->pose->bone_count; k++) { /* bones too: rigs with little art */
            u[0] = fminf(u[0], s->pose->wx[k]), u[1] = fminf(u[1], s->pose->wy[k]);
            u[2] = fmaxf(u[2], s->pose->wx[k]), u[3] = fmaxf(u[3], s->pose->wy[k]);
        }
    }
    if (!(u[2] > u[0])) u[0] = -100, u[2] = 100;
    if (!(u[3] > u[1])) u[1] = -100, u[3] = 100;
    double pad = 22, sx = (w - 2 * pad) / (u[2] - u[0]), sy = (h - 2 * pad - 12) / (u[3] - u[1]);
    double k = fmin(sx, sy);
    view[0] = (float)k, view[1] = 0, view[2] = 0, view[3] = (float)k;
    view[4] = (float)(w / 2 - k * (u[0] + u[2]) / 2);
    view[5] = (float)(h / 2 + 6 - k * (u[1] + u[3]) / 2);
}

/* ---- the strip and the header ---- */

static void timeline_label(const mf_timeline *tl, char *out, size_t n)
{
    if (tl->kind == MF_TL_DEFORM) snprintf(out, n, "deform %s/%s", tl->target ? tl->target : "", tl->attachment ? tl->attachment : "");
    else if (tl->target && tl->target[0]) snprintf(out, n, "%s %s", tl->target, mf_timeline_kind_name(tl->kind));
    else snprintf(out, n, "%s", mf_timeline_kind_name(tl->kind));
}

static void draw_strip(cairo_t *cr, const mf_clip *clip, double x, double y, double w, const float *times,
                       int32_t n, int32_t rows)
{
    double x0 = x + LABEL_W, x1 = x + w - 10;
    double len = clip->length > 0 ? clip->length : 1;
    colour(cr, 0x202020, 1);
    text(cr, x, y + 11, 11, true, "timelines");
    char buf[64];
    for (int i = 0; i <= 4; i++) { /* time axis */
        double tt = len * i / 4, px = x0 + (x1 - x0) * tt / len;
        mf_format_number(buf, sizeof buf, (float)(round(tt * 1000) / 1000));
        colour(cr, 0x606060, 1);
        text(cr, px - 8, y + 11, 10, false, buf);
    }
    y += ROW_H + 2;
    double top = y;
    int32_t shown = clip->timeline_count < rows ? clip->timeline_count : rows;
    for (int32_t i = 0; i <= shown; i++) {
        bool events = i == shown;
        const mf_timeline *tl = NULL;
        if (events) {
            for (int32_t k = 0; k < clip->timeline_count; k++)
                if (clip->timelines[k].kind == MF_TL_EVENT) tl = &clip->timelines[k];
        } else tl = &clip->timelines[i];
        if (!tl && events) break;
        if (tl->kind == MF_TL_EVENT && !events) continue;
        if (i % 2 == 0) {
            colour(cr, 0xf2f2f2, 1);
            cairo_rectangle(cr, x, y, w, ROW_H);
            cairo_fill(cr);
        }
        char label[200];
        timeline_label(tl, label, sizeof label);
        colour(cr, events ? 0xa02080 : 0x303030, 1);
        text(cr, x + 4, y + 10.5, 10, events, label);
        for (int32_t k = 0; k < tl->key_count; k++) {
            double px = x0 + (x1 - x0) * tl->t[k] / len;
            if (events) {
                colour(cr, 0xa02080, 1);
                cairo_move_to(cr, px, y + 2), cairo_line_to(cr, px + 4, y + 7), cairo_line_to(cr, px, y + 12),
                    cairo_line_to(cr, px - 4, y + 7), cairo_close_path(cr);
                cairo_fill(cr);
                const char *nm = tl->events[k].name ? tl->events[k].name : "";
                /* a name that would run off the sheet's right edge goes left of its mark */
                cairo_text_extents_t ext;
                cairo_set_font_size(cr, 9);
                cairo_text_extents(cr, nm, &ext);
                text(cr, px + 6 + ext.x_advance > x1 + 12 ? px - 6 - ext.x_advance : px + 6, y + 10.5, 9, false, nm);
            } else {
                colour(cr, tl->t[k] > clip->length + 1e-4f ? 0xd02020 : 0x2060e0, 1);
                cairo_rectangle(cr, px - 1.5, y + 3, 3, ROW_H - 6);
                cairo_fill(cr);
            }
        }
        y += ROW_H;
    }
    if (clip->timeline_count > rows) {
        snprintf(buf, sizeof buf, "… and %d more timelines", (int)(clip->timeline_count - rows));
        colour(cr, 0x606060, 1);
        text(cr, x + 4, y + 10.5, 10, false, buf);
        y += ROW_H;
    }
    /* the frames of the sheet as vertical lines */
    for (int32_t i = 0; i < n; i++) {
        double px = x0 + (x1 - x0) * times[i] / len;
        colour(cr, 0xe08020, 0.7);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, floor(px) + 0.5, top), cairo_line_to(cr, floor(px) + 0.5, y);
        cairo_stroke(cr);
    }
    colour(cr, 0x808080, 1);
    cairo_move_to(cr, x0 + 0.5, top), cairo_line_to(cr, x0 + 0.5, y);
    cairo_move_to(cr, x1 + 0.5, top), cairo_line_to(cr, x1 + 0.5, y);
    cairo_stroke(cr);
}

static int32_t strip_rows(const mf_clip *clip)
{
    int32_t n = clip->timeline_count, events = 0;
    for (int32_t i = 0; i < n; i++) events += clip->timelines[i].kind == MF_TL_EVENT;
    int32_t shown = n - events < MAX_ROWS ? n - events : MAX_ROWS;
    return shown + events + (n - events > MAX_ROWS);
}

static void draw_header(cairo_t *cr, const sheet *s, const char *rig_path, const mf_check_report *rep, bool checked,
                        double w)
{
    colour(cr, 0x283040, 1);
    cairo_rectangle(cr, 0, 0, w, HEADER_H);
    cairo_fill(cr);
    char stem[256], line[700], len[40];
    mf_path_stem(rig_path, stem, sizeof stem);
    mf_format_number(len, sizeof len, s->clip->length);
    snprintf(line, sizeof line, "%s  ·  %s", stem, s->clip->name);
    colour(cr, 0xffffff, 1);
    text(cr, 10, 22, 16, true, line);
    snprintf(line, sizeof line, "length %s s   loop %s   fps %g   %d timelines   %d bones   %d slots%s%s", len,
             mf_loop_mode_name(s->clip->loop), (double)s->clip->fps, (int)s->clip->timeline_count,
             (int)s->data.bone_count, (int)s->data.slot_count, s->skin_label[0] ? "   skin " : "", s->skin_label);
    colour(cr, 0xd0d8e8, 1);
    text(cr, 10, 40, 11, false, line);
    if (!checked) snprintf(line, sizeof line, "check: not run");
    else if (!rep->count) snprintf(line, sizeof line, "check: ok, nothing to report");
    else {
        snprintf(line, sizeof line, "check: %d error%s, %d warning%s", (int)rep->errors, rep->errors == 1 ? "" : "s",
                 (int)rep->warnings, rep->warnings == 1 ? "" : "s");
        for (int32_t i = 0; i < rep->count && i < 2; i++)
            snprintf(line + strlen(line), sizeof line - strlen(line), "%s %s %s", i ? ";" : " —",
                     mf_check_kind_name(rep->items[i].kind), rep->items[i].subject);
    }
    colour(cr, !checked || rep->errors ? 0xff8080 : rep->warnings ? 0xffd070 : 0x90e090, 1);
    text(cr, 10, 53, 10, false, line);
}

mf_result mf_render_sheet(const char *rig_path, const mf_sheet_options *opt, const char *out_png, mf_diag *diag)
{
    mf_diag_clear(diag);
    sheet s;
    memset(&s, 0, sizeof s);
    mf_result r = setup(&s, rig_path, opt, diag);
    if (r != MF_OK) {
        teardown(&s);
        return r;
    }
    bool single = opt->frame_time >= 0;
    float times[MAX_FRAMES];
    int32_t n = 1;
    if (single) times[0] = fminf(opt->frame_time, s.clip->length);
    else n = frame_times(s.clip, opt->frames > 0 ? (opt->frames < MAX_FRAMES ? opt->frames : MAX_FRAMES) : 8, times);
    int32_t cw = opt->width > 0 ? opt->width : single ? 640 : 240;
    int32_t ch = opt->height > 0 ? opt->height : single ? cw : cw;
    int32_t cols = single ? 1 : (n < 4 ? n : 4), rows = (n + cols - 1) / cols;
    int32_t sheet_w = cols * cw > 560 ? cols * cw : 560;
    int32_t strip_h = (strip_rows(s.clip) + 2) * ROW_H + 14;
    int32_t sheet_h = HEADER_H + rows * ch + strip_h;
    if ((int64_t)sheet_w * sheet_h > MF_PNG_MAX_PIXELS || sheet_w > MF_PNG_MAX_SIDE || sheet_h > MF_PNG_MAX_SIDE) {
        mf_diag_set(diag, out_png, "", "a %dx%d sheet is too large; use a smaller --size or fewer --frames",
                    (int)sheet_w, (int)sheet_h);
        teardown(&s);
        return MF_ERR_ARGUMENT;
    }
    mf_check_report rep = {0};
    mf_diag cd;
    bool checked = mf_check_file(rig_path, s.clip->name, &rep, &cd) == MF_OK;

    mf_canvas cv;
    if ((r = mf_canvas_create(&cv, sheet_w, sheet_h)) != MF_OK) {
        mf_diag_set(diag, out_png, "", "out of memory for a %dx%d sheet", (int)sheet_w, (int)sheet_h);
        mf_check_report_free(&rep);
        teardown(&s);
        return r;
    }
    mf_canvas_clear(&cv, (float[4]){1, 1, 1, 1});
    float view[6];
    fit_view(&s, times, n, cw, ch, view);
    cell cells[MAX_FRAMES];
    float step = s.clip->length / (float)(n > 1 ? n : 8);
    for (int32_t i = 0; i < n; i++) {
        cell *c = &cells[i];
        c->x = (i % cols) * cw, c->y = HEADER_H + (i / cols) * ch, c->w = cw, c->h = ch;
        memcpy(c->view, view, sizeof view);
        c->view[4] += (float)c->x, c->view[5] += (float)c->y;
        /* neighbours: the sheet's previous and next frames (a single frame: ± an eighth of the clip) */
        float prev = n > 1 ? times[(i + n - 1) % n] : fmaxf(times[i] - step, 0);
        float next = n > 1 ? times[(i + 1) % n] : fminf(times[i] + step, s.clip->length);
        render_cell(&s, &cv, NULL, c, times[i], prev, next, s.clip->length > 0, NULL);
    }
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, sheet_w, sheet_h);
    cairo_t *cr = cairo_create(surf);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
        mf_diag_set(diag, out_png, "", "cairo: %s", cairo_status_to_string(cairo_status(cr)));
        r = MF_ERR_NOMEM;
    } else {
        canvas_to_surface(&cv, surf);
        for (int32_t i = 0; i < n; i++) {
            char label[64], t[40];
            mf_format_number(t, sizeof t, (float)(round(times[i] * 1000) / 1000));
            snprintf(label, sizeof label, "t = %s s", t);
            overlay_cell(&s, cr, &cells[i], times[i], label);
        }
        draw_header(cr, &s, rig_path, &rep, checked, sheet_w);
        draw_strip(cr, s.clip, 8, HEADER_H + rows * ch + 8, sheet_w - 16, times, n, MAX_ROWS);
        r = save_surface(surf, out_png, diag);
    }
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
    mf_canvas_free(&cv);
    mf_check_report_free(&rep);
    teardown(&s);
    return r;
}
