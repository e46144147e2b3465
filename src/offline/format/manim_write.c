/* The canonical .manim writer: fixed key order, each timeline on one line, so that a one-key edit
 * changes one line. The clip is not modified: the writer walks a sorted copy of the order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clip_internal.h"
#include "util/buf.h"
#include "util/files.h"

static const char *const INHERIT_NAMES[] = {"Normal", "OnlyTranslation", "NoRotationOrReflection", "NoScale",
                                            "NoScaleOrReflection"};

static void indent(mf_buf *b, int n)
{
    for (int i = 0; i < n; i++) mf_buf_puts(b, "  ");
}

static void key(mf_buf *b, int ind, const char *k)
{
    indent(b, ind);
    mf_buf_string(b, k ? k : "");
    mf_buf_puts(b, ": ");
}

static void sep(mf_buf *b, int i) { mf_buf_puts(b, i ? ", " : ""); }

static void numbers(mf_buf *b, const float *v, int32_t n, int32_t stride)
{
    mf_buf_putc(b, '[');
    for (int32_t i = 0; i < n; i++) {
        sep(b, i);
        mf_buf_number(b, v[(size_t)i * (size_t)stride]);
    }
    mf_buf_putc(b, ']');
}

static unsigned to8(float f)
{
    if (!(f > 0)) return 0;
    if (f >= 1) return 255;
    return (unsigned)lroundf(f * 255.0f);
}

static void color(mf_buf *b, const float *c, int n)
{
    mf_buf_puts(b, "\"#");
    for (int k = 0; k < n; k++) mf_buf_printf(b, "%02x", to8(c[k]));
    mf_buf_putc(b, '"');
}

static void curve(mf_buf *b, const mf_curve *c)
{
    if (c->type == MF_CURVE_STEPPED) {
        mf_buf_puts(b, "\"stepped\"");
    } else if (c->type == MF_CURVE_BEZIER) {
        const float p[4] = {c->cx1, c->cy1, c->cx2, c->cy2};
        numbers(b, p, 4, 1);
    } else {
        mf_buf_puts(b, "\"linear\"");
    }
}

static bool curve_eq(const mf_curve *a, const mf_curve *b)
{
    if (a->type != b->type) return false;
    return a->type != MF_CURVE_BEZIER ||
           (a->cx1 == b->cx1 && a->cy1 == b->cy1 && a->cx2 == b->cx2 && a->cy2 == b->cy2);
}

/* `, "curve": [...]`, left out when every segment and component is linear. */
static void curves(mf_buf *b, const mf_timeline *tl)
{
    int32_t segs = tl->key_count - 1, comps = tl->comps > 0 ? tl->comps : 1;
    if (segs <= 0 || !tl->curves) return;
    bool linear = true;
    for (int32_t i = 0; i < segs * comps && linear; i++) linear = tl->curves[i].type == MF_CURVE_LINEAR;
    if (linear) return;
    mf_buf_puts(b, ", \"curve\": [");
    for (int32_t s = 0; s < segs; s++) {
        sep(b, s);
        const mf_curve *seg = tl->curves + (size_t)s * (size_t)comps;
        bool shared = true;
        for (int32_t k = 1; k < comps && shared; k++) shared = curve_eq(&seg[0], &seg[k]);
        if (shared) {
            curve(b, &seg[0]);
            continue;
        }
        mf_buf_putc(b, '[');
        for (int32_t k = 0; k < comps; k++) {
            sep(b, k);
            curve(b, &seg[k]);
        }
        mf_buf_putc(b, ']');
    }
    mf_buf_putc(b, ']');
}

static void sequence_key(mf_buf *b, const int32_t *iv, float delay)
{
    mf_buf_puts(b, "{ \"mode\": ");
    mf_buf_string(b, mf_sequence_mode_name((mf_sequence_mode)iv[0]));
    if (iv[1] != 0) mf_buf_printf(b, ", \"index\": %d", (int)iv[1]);
    if (delay != 0) {
        mf_buf_puts(b, ", \"delay\": ");
        mf_buf_number(b, delay);
    }
    mf_buf_puts(b, " }");
}

static void event_key(mf_buf *b, const mf_event_key *e)
{
    mf_buf_puts(b, "{ \"name\": ");
    mf_buf_string(b, e->name ? e->name : "");
    if (e->has_int) mf_buf_printf(b, ", \"int\": %d", (int)e->int_value);
    if (e->has_float) {
        mf_buf_puts(b, ", \"float\": ");
        mf_buf_number(b, e->float_value);
    }
    if (e->has_string) {
        mf_buf_puts(b, ", \"string\": ");
        mf_buf_string(b, e->string_value ? e->string_value : "");
    }
    if (e->has_volume) {
        mf_buf_puts(b, ", \"volume\": ");
        mf_buf_number(b, e->volume);
    }
    if (e->has_balance) {
        mf_buf_puts(b, ", \"balance\": ");
        mf_buf_number(b, e->balance);
    }
    mf_buf_puts(b, " }");
}

static void draw_order_key(mf_buf *b, const mf_draw_order_key *k)
{
    mf_buf_putc(b, '[');
    for (int32_t i = 0; i < k->move_count; i++) {
        sep(b, i);
        mf_buf_putc(b, '[');
        mf_buf_string(b, k->moves[i].slot ? k->moves[i].slot : "");
        mf_buf_printf(b, ", %d]", (int)k->moves[i].delta);
    }
    mf_buf_putc(b, ']');
}

/* One key's value in the kind's natural form. */
static void value(mf_buf *b, const mf_timeline *tl, int32_t i)
{
    const float *v = tl->v ? tl->v + (size_t)i * (size_t)tl->comps : NULL;
    const int32_t *iv = tl->iv ? tl->iv + (size_t)i * (size_t)tl->icomps : NULL;
    switch (tl->kind) {
    case MF_TL_INHERIT: mf_buf_string(b, INHERIT_NAMES[iv[0]]); break;
    case MF_TL_ATTACHMENT:
        if (tl->names[i]) mf_buf_string(b, tl->names[i]);
        else mf_buf_puts(b, "null");
        break;
    case MF_TL_RGBA: color(b, v, 4); break;
    case MF_TL_RGB: color(b, v, 3); break;
    case MF_TL_RGBA2:
        mf_buf_putc(b, '[');
        color(b, v, 4);
        mf_buf_puts(b, ", ");
        color(b, v + 4, 3);
        mf_buf_putc(b, ']');
        break;
    case MF_TL_SEQUENCE: sequence_key(b, iv, v[0]); break;
    case MF_TL_DRAW_ORDER: draw_order_key(b, &tl->draw_order[i]); break;
    case MF_TL_EVENT: event_key(b, &tl->events[i]); break;
    case MF_TL_DEFORM: numbers(b, tl->deform[i].v, tl->deform[i].count, 1); break;
    default:
        if (tl->comps == 1) mf_buf_number(b, v[0]);
        else numbers(b, v, tl->comps, 1);
    }
}

static void int_column(mf_buf *b, const char *name, const int32_t *iv, int32_t n, int32_t stride, bool boolean)
{
    mf_buf_printf(b, ", \"%s\": [", name);
    for (int32_t i = 0; i < n; i++) {
        sep(b, i);
        int32_t x = iv[(size_t)i * (size_t)stride];
        if (boolean) mf_buf_puts(b, x ? "true" : "false");
        else mf_buf_printf(b, "%d", (int)x);
    }
    mf_buf_putc(b, ']');
}

/* ik / transform: the columns the file keys, in their fixed order. */
static void columns(mf_buf *b, const mf_timeline *tl)
{
    static const char *const ik[] = {"mix", "softness", "bend", "compress", "stretch"};
    static const char *const tf[] = {"mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY"};
    int ncols = tl->kind == MF_TL_IK ? 5 : 6;
    for (int c = 0; c < ncols; c++) {
        if (!(tl->columns & (1u << c))) continue;
        if (tl->kind == MF_TL_IK && c >= 2) {
            int_column(b, ik[c], tl->iv + (c - 2), tl->key_count, 3, c > 2);
        } else {
            mf_buf_printf(b, ", \"%s\": ", tl->kind == MF_TL_IK ? ik[c] : tf[c]);
            numbers(b, tl->v + c, tl->key_count, tl->comps);
        }
    }
}

/* The timeline object on one line. */
static void timeline(mf_buf *b, const mf_timeline *tl)
{
    mf_buf_puts(b, "{ \"t\": ");
    numbers(b, tl->t, tl->key_count, 1);
    if (tl->kind == MF_TL_IK || tl->kind == MF_TL_TRANSFORM) {
        columns(b, tl);
    } else if (tl->kind != MF_TL_PHYSICS_RESET) {
        if (tl->kind == MF_TL_DEFORM) {
            bool any = false;
            for (int32_t i = 0; i < tl->key_count; i++) any |= tl->deform[i].offset != 0;
            if (any) {
                mf_buf_puts(b, ", \"offset\": [");
                for (int32_t i = 0; i < tl->key_count; i++) mf_buf_printf(b, "%s%d", i ? ", " : "", (int)tl->deform[i].offset);
                mf_buf_putc(b, ']');
            }
        }
        mf_buf_puts(b, ", \"v\": [");
        for (int32_t i = 0; i < tl->key_count; i++) {
            sep(b, i);
            value(b, tl, i);
        }
        mf_buf_putc(b, ']');
    }
    if (mf_clip_kind_has_curve(tl->kind)) curves(b, tl);
    mf_buf_puts(b, " }");
}

/* Checks what the writer relies on, so that a model built in code cannot crash it. */
static bool timeline_ok(const mf_timeline *tl, const char **why)
{
    mf_timeline_kind k = tl->kind;
    *why = NULL;
    if ((int)k < 0 || k >= MF_TL_KIND_COUNT) *why = "unknown timeline kind";
    else if (tl->key_count < 1 || !tl->t) *why = "a timeline needs at least one key";
    else if (tl->comps != mf_timeline_kind_comps(k) || tl->icomps != mf_timeline_kind_icomps(k))
        *why = "comps/icomps do not match the kind";
    else if ((tl->comps && !tl->v) || (tl->icomps && !tl->iv)) *why = "missing value array";
    else if (k == MF_TL_ATTACHMENT && !tl->names) *why = "missing names";
    else if (k == MF_TL_DRAW_ORDER && !tl->draw_order) *why = "missing draw order keys";
    else if (k == MF_TL_EVENT && !tl->events) *why = "missing event keys";
    else if (k == MF_TL_DEFORM && (!tl->deform || !tl->skin || !tl->attachment)) *why = "incomplete deform";
    else if (k != MF_TL_DRAW_ORDER && k != MF_TL_EVENT && !tl->target) *why = "missing target";
    for (int32_t i = 0; !*why && i < tl->key_count; i++) {
        if (k == MF_TL_INHERIT && (tl->iv[i] < 0 || tl->iv[i] >= 5)) *why = "inherit mode out of range";
        if (k == MF_TL_SEQUENCE && (tl->iv[i * 2] < 0 || tl->iv[i * 2] >= MF_SEQ_MODE_COUNT))
            *why = "sequence mode out of range";
        if (k == MF_TL_DEFORM && tl->deform[i].count > 0 && !tl->deform[i].v) *why = "missing deform values";
        if (k == MF_TL_DRAW_ORDER && tl->draw_order[i].move_count > 0 && !tl->draw_order[i].moves)
            *why = "missing draw order moves";
    }
    return *why == NULL;
}

static void header(mf_buf *b, const mf_clip *c)
{
    mf_buf_puts(b, "{\n");
    mf_buf_printf(b, "  \"format\": %d,\n  \"uid\": ", (int)c->format);
    mf_buf_string(b, c->uid);
    mf_buf_puts(b, ",\n  \"type\": \"SkeletonClip\",\n  \"skeleton\": { \"uid\": ");
    mf_buf_string(b, c->skeleton_uid);
    if (c->skeleton_path) {
        mf_buf_puts(b, ", \"path\": ");
        mf_buf_string(b, c->skeleton_path);
    }
    mf_buf_puts(b, " },\n  \"length\": ");
    mf_buf_number(b, c->length);
    mf_buf_puts(b, ",\n  \"fps\": ");
    mf_buf_number(b, c->fps);
    mf_buf_puts(b, ",\n  \"loop\": ");
    mf_buf_string(b, mf_loop_mode_name(c->loop));
}

/* The name of a timeline at nesting level `level` of its group; level `levels` is the key of
 * the timeline itself (kind, constraint or attachment name). */
static const char *level_name(const mf_timeline *tl, int level, int levels)
{
    if (tl->kind == MF_TL_DEFORM) return level == 0 ? tl->skin : level == 1 ? tl->target : tl->attachment;
    if (level == levels) return levels == 0 ? tl->target : mf_timeline_kind_name(tl->kind);
    return tl->target;
}

static bool same(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : "") == 0; }

/* Writes the group's timelines tls[order[lo..hi)] as `levels` levels of nested objects (target;
 * deform: skin, slot), each timeline on one line under its key. */
static void group(mf_buf *b, const mf_timeline *tls, const int32_t *order, int32_t lo, int32_t hi, int levels)
{
    int open = 0; /* nesting levels currently open */
    for (int32_t i = lo; i < hi; i++) {
        const mf_timeline *tl = &tls[order[i]], *prev = i > lo ? &tls[order[i - 1]] : NULL;
        int common = 0; /* levels shared with the previous timeline */
        while (prev && common < open && same(level_name(tl, common, levels), level_name(prev, common, levels)))
            common++;
        for (; open > common; open--) {
            mf_buf_putc(b, '\n');
            indent(b, open + 1);
            mf_buf_putc(b, '}');
        }
        if (prev) mf_buf_putc(b, ',');
        mf_buf_putc(b, '\n');
        for (; open < levels; open++) {
            key(b, open + 2, level_name(tl, open, levels));
            mf_buf_puts(b, "{\n");
        }
        key(b, levels + 2, level_name(tl, levels, levels));
        timeline(b, tl);
    }
    for (; open > 0; open--) {
        mf_buf_putc(b, '\n');
        indent(b, open + 1);
        mf_buf_putc(b, '}');
    }
}

mf_result mf_clip_write(const mf_clip *clip, char **out, size_t *len, mf_diag *diag)
{
    if (out) *out = NULL;
    if (len) *len = 0;
    if (!clip || !out) {
        mf_diag_set(diag, "", "", "bad argument");
        return MF_ERR_ARGUMENT;
    }
    const char *name = clip->name ? clip->name : "";
    if (!clip->uid || !clip->skeleton_uid) {
        mf_diag_set(diag, name, clip->uid ? "skeleton.uid" : "uid", "missing uid");
        return MF_ERR_INVALID;
    }
    if ((int)clip->loop < 0 || clip->loop > MF_LOOP_PINGPONG) {
        mf_diag_set(diag, name, "loop", "loop mode out of range");
        return MF_ERR_INVALID;
    }
    int32_t n = clip->timeline_count > 0 && clip->timelines ? clip->timeline_count : 0;
    for (int32_t i = 0; i < n; i++) {
        const char *why;
        if (!timeline_ok(&clip->timelines[i], &why)) {
            mf_diag_set(diag, name, "", "timeline %d (%s): %s", (int)i,
                        mf_timeline_kind_name(clip->timelines[i].kind), why);
            return MF_ERR_INVALID;
        }
    }
    int32_t *order = mf_clip_sorted_order(clip);
    if (!order) {
        mf_diag_set(diag, name, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    for (int32_t i = 1; i < n; i++) {
        const mf_timeline *a = &clip->timelines[order[i - 1]], *b = &clip->timelines[order[i]];
        if (mf_clip_timeline_cmp(a, b) == 0) {
            mf_diag_set(diag, name, mf_clip_group_name(mf_clip_kind_group(b->kind)), "two %s timelines for \"%s\"",
                        mf_timeline_kind_name(b->kind), b->target ? b->target : "");
            free(order);
            return MF_ERR_INVALID;
        }
    }
    mf_buf b = {0};
    header(&b, clip);
    for (int32_t lo = 0; lo < n;) {
        mf_clip_group g = mf_clip_kind_group(clip->timelines[order[lo]].kind);
        int32_t hi = lo + 1;
        while (hi < n && mf_clip_kind_group(clip->timelines[order[hi]].kind) == g) hi++;
        mf_buf_puts(&b, ",\n  ");
        mf_buf_string(&b, mf_clip_group_name(g));
        mf_buf_puts(&b, ": ");
        if (g == MF_GROUP_DRAW_ORDER || g == MF_GROUP_EVENTS) {
            timeline(&b, &clip->timelines[order[lo]]);
        } else {
            int levels = g == MF_GROUP_DEFORM ? 2 : g == MF_GROUP_IK || g == MF_GROUP_TRANSFORM ? 0 : 1;
            mf_buf_putc(&b, '{');
            group(&b, clip->timelines, order, lo, hi, levels);
            mf_buf_puts(&b, "\n  }");
        }
        lo = hi;
    }
    mf_buf_puts(&b, "\n}\n");
    free(order);
    char *text = mf_buf_take(&b, len);
    if (!text) {
        mf_diag_set(diag, name, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    *out = text;
    return MF_OK;
}

mf_result mf_clip_save(const mf_clip *clip, const char *path, mf_diag *diag)
{
    if (!path) {
        mf_diag_set(diag, "", "", "bad argument");
        return MF_ERR_ARGUMENT;
    }
    char *text;
    size_t len;
    mf_result res = mf_clip_write(clip, &text, &len, diag);
    if (res != MF_OK) {
        if (diag) snprintf(diag->file, sizeof diag->file, "%s", path);
        return res;
    }
    res = mf_write_file_atomic(path, text, len, diag);
    free(text);
    return res;
}
