/* Path constraints: bones placed along the world-space cubic beziers of a Path attachment, by
 * position (fixed or percent), spacing (length, fixed, percent, proportional) and rotation
 * (tangent, chain, chain-scale), with mixes. Constant-speed paths measure arc lengths into
 * scratch arrays sized at create; others use the attachment's stored curve lengths. */
#include "pose_atan.h"
#include "pose_cmath.h"
#include "pose_internal.h"

#define EPS 0.00001
enum { NONE = -1, BEFORE = -2, AFTER = -3 };

/* World points [first, first + count) (in floats, x y pairs) of the path into out + at. */
static void path_world(const mf_pose *p, int32_t slot, int32_t att, int32_t first, int32_t count,
                       float *out, int32_t at)
{
    for (int32_t f = 0; f < count; f += 2) {
        float x, y;
        mf_pose_world_vertex(p, slot, att, (first + f) / 2, &x, &y);
        out[at + f] = x, out[at + f + 1] = y;
    }
}

static void add_before(double pos, const float *w, int32_t i, float *out, int32_t o)
{
    double x1 = w[i], y1 = w[i + 1], r = mf_atan2(w[i + 3] - y1, w[i + 2] - x1), cs, sn;
    mf_sincos_d(r, &cs, &sn);
    out[o] = (float)(x1 + pos * cs), out[o + 1] = (float)(y1 + pos * sn), out[o + 2] = (float)r;
}

static void add_after(double pos, const float *w, int32_t i, float *out, int32_t o)
{
    double x1 = w[i + 2], y1 = w[i + 3], r = mf_atan2(y1 - w[i + 1], x1 - w[i]), cs, sn;
    mf_sincos_d(r, &cs, &sn);
    out[o] = (float)(x1 + pos * cs), out[o + 1] = (float)(y1 + pos * sn), out[o + 2] = (float)r;
}

/* The point at parameter t of a cubic bezier, with its tangent angle when asked. */
static void add_curve(double t, const double *c, float *out, int32_t o, bool tangents)
{
    double x1 = c[0], y1 = c[1], cx1 = c[2], cy1 = c[3], cx2 = c[4], cy2 = c[5], x2 = c[6], y2 = c[7];
    if (t < EPS || t != t) {
        out[o] = (float)x1, out[o + 1] = (float)y1, out[o + 2] = (float)mf_atan2(cy1 - y1, cx1 - x1);
        return;
    }
    double tt = t * t, ttt = tt * t, u = 1 - t, uu = u * u, uuu = uu * u, ut = u * t;
    double ut3 = ut * 3, uut3 = u * ut3, utt3 = ut3 * t;
    double x = x1 * uuu + cx1 * uut3 + cx2 * utt3 + x2 * ttt;
    double y = y1 * uuu + cy1 * uut3 + cy2 * utt3 + y2 * ttt;
    out[o] = (float)x, out[o + 1] = (float)y;
    if (tangents) {
        if (t < 0.001) out[o + 2] = (float)mf_atan2(cy1 - y1, cx1 - x1);
        else
            out[o + 2] = (float)mf_atan2(y - (y1 * uu + cy1 * ut * 2 + cy2 * tt),
                                      x - (x1 * uu + cx1 * ut * 2 + cx2 * tt));
    }
}

static void load_curve(const float *w, int32_t i, double *c)
{
    for (int32_t k = 0; k < 8; k++) c[k] = w[i + k];
}

/* Arc length of a bezier by forward differencing in `steps` equal parameter steps; lengths
 * (when not NULL) get the cumulative length after each step. */
static double bezier_length(const double *c, int32_t steps, float *lengths)
{
    double h = 1.0 / steps;
    double x1 = c[0], y1 = c[1], cx1 = c[2], cy1 = c[3], cx2 = c[4], cy2 = c[5], x2 = c[6], y2 = c[7];
    double tmpx = (x1 - cx1 * 2 + cx2) * 3 * h * h, tmpy = (y1 - cy1 * 2 + cy2) * 3 * h * h;
    double dddx = ((cx1 - cx2) * 3 - x1 + x2) * 6 * h * h * h;
    double dddy = ((cy1 - cy2) * 3 - y1 + y2) * 6 * h * h * h;
    double ddx = tmpx * 2 + dddx, ddy = tmpy * 2 + dddy;
    double dx = (cx1 - x1) * 3 * h + tmpx + dddx / 6, dy = (cy1 - y1) * 3 * h + tmpy + dddy / 6;
    double len = 0;
    for (int32_t s = 0; s < steps; s++) {
        len += sqrt(dx * dx + dy * dy);
        if (lengths) lengths[s] = (float)len;
        dx += ddx, dy += ddy;
        ddx += dddx, ddy += dddy;
    }
    return len;
}

static float *world_positions(mf_pose *p, int32_t k, int32_t slot, int32_t att, int32_t spaces_count,
                              bool tangents)
{
    const mf_skel_data *d = p->data;
    const mf_sd_path *pc = &d->path[k];
    const mf_sd_attachment *at = &d->attachments[att];
    mf_pose_scratch *sc = p->scratch;
    float *out = sc->positions, *world = sc->world, *spaces = sc->spaces;
    double position = p->path_position[k];
    bool closed = (at->flags & MF_SD_ATT_CLOSED) != 0;
    int32_t verts = at->vertex_count * 2, curve_count = verts / 6, prev_curve = NONE;
    double c[8];
    if (!(at->flags & MF_SD_ATT_CONSTANT_SPEED)) {
        const float *lengths = d->floats + at->lengths_first;
        curve_count -= closed ? 1 : 2;
        if (curve_count < 0 || curve_count >= at->lengths_count) return NULL;
        double path_len = lengths[curve_count];
        if (pc->position_mode == 1) position *= path_len;
        double mul = pc->spacing_mode == 2 ? path_len : pc->spacing_mode == 3 ? path_len / spaces_count : 1;
        for (int32_t i = 0, o = 0, curve = 0; i < spaces_count; i++, o += 3) {
            double space = spaces[i] * mul;
            position += space;
            double pos = position;
            if (closed) {
                pos = fmod(pos, path_len);
                if (pos < 0) pos += path_len;
                curve = 0;
            } else if (pos < 0) {
                if (prev_curve != BEFORE) {
                    prev_curve = BEFORE;
                    path_world(p, slot, att, 2, 4, world, 0);
                }
                add_before(pos, world, 0, out, o);
                continue;
            } else if (pos > path_len) {
                if (prev_curve != AFTER) {
                    prev_curve = AFTER;
                    path_world(p, slot, att, verts - 6, 4, world, 0);
                }
                add_after(pos - path_len, world, 0, out, o);
                continue;
            }
            for (;; curve++) {
                double len = lengths[curve];
                if (pos > len && curve < curve_count) continue;
                if (curve == 0) pos = len > 0 ? pos / len : 0;
                else {
                    double prev = lengths[curve - 1];
                    pos = len > prev ? (pos - prev) / (len - prev) : 0;
                }
                break;
            }
            if (curve != prev_curve) {
                prev_curve = curve;
                if (closed && curve == curve_count) {
                    path_world(p, slot, att, verts - 4, 4, world, 0);
                    path_world(p, slot, att, 0, 4, world, 4);
                } else
                    path_world(p, slot, att, curve * 6 + 2, 8, world, 0);
            }
            load_curve(world, 0, c);
            add_curve(pos, c, out, o, tangents || (i > 0 && space == 0));
        }
        return out;
    }
    /* constant speed: measure the curves */
    if (closed) {
        verts += 2;
        path_world(p, slot, att, 2, verts - 4, world, 0);
        path_world(p, slot, att, 0, 2, world, verts - 4);
        world[verts - 2] = world[0], world[verts - 1] = world[1];
    } else {
        curve_count--;
        verts -= 4;
        path_world(p, slot, att, 2, verts, world, 0);
    }
    if (curve_count <= 0 || curve_count > sc->path_curves_cap) return NULL;
    float *curves = sc->curves;
    double path_len = 0;
    for (int32_t i = 0, w = 0; i < curve_count; i++, w += 6) {
        load_curve(world, w, c);
        path_len += bezier_length(c, 4, NULL);
        curves[i] = (float)path_len;
    }
    if (pc->position_mode == 1) position *= path_len;
    double mul = pc->spacing_mode == 2 ? path_len : pc->spacing_mode == 3 ? path_len / spaces_count : 1;
    float *seg = sc->segments;
    double curve_len = 0;
    for (int32_t i = 0, o = 0, curve = 0, segment = 0; i < spaces_count; i++, o += 3) {
        double space = spaces[i] * mul;
        position += space;
        double pos = position;
        if (closed) {
            pos = fmod(pos, path_len);
            if (pos < 0) pos += path_len;
            curve = 0;
            segment = 0;
        } else if (pos < 0) {
            add_before(pos, world, 0, out, o);
            continue;
        } else if (pos > path_len) {
            add_after(pos - path_len, world, verts - 4, out, o);
            continue;
        }
        for (;; curve++) {
            double len = curves[curve];
            if (pos > len && curve < curve_count - 1) continue;
            if (curve == 0) pos = len > 0 ? pos / len : 0;
            else {
                double prev = curves[curve - 1];
                pos = len > prev ? (pos - prev) / (len - prev) : 0;
            }
            break;
        }
        load_curve(world, curve * 6, c);
        if (curve != prev_curve) {
            prev_curve = curve;
            curve_len = bezier_length(c, MF_PATH_SEGMENTS, seg);
            segment = 0;
        }
        pos *= curve_len;
        for (;; segment++) {
            double len = seg[segment];
            if (pos > len && segment < MF_PATH_SEGMENTS - 1) continue;
            if (segment == 0) pos = len > 0 ? pos / len : 0;
            else {
                double prev = seg[segment - 1];
                pos = segment + (len > prev ? (pos - prev) / (len - prev) : 0);
            }
            break;
        }
        add_curve(pos * 0.1, c, out, o, tangents || (i > 0 && space == 0));
    }
    return out;
}

void mf_pose_apply_path(mf_pose *p, int32_t k)
{
    const mf_skel_data *d = p->data;
    const mf_sd_path *pc = &d->path[k];
    double mix_rot = p->path_mix[3 * k], mix_x = p->path_mix[3 * k + 1], mix_y = p->path_mix[3 * k + 2];
    if (mix_rot == 0 && mix_x == 0 && mix_y == 0) return;
    int32_t slot = pc->target, att = p->attachment[slot];
    if (att < 0 || d->attachments[att].type != MF_SD_ATT_PATH) return;
    mf_pose_scratch *sc = p->scratch;
    int32_t bone_count = pc->bone_count;
    if (bone_count > sc->path_bones_cap || d->attachments[att].vertex_count * 2 + 4 > sc->path_world_cap)
        return;
    const int32_t *bones = d->bone_lists + pc->bone_first;
    bool tangents = pc->rotate_mode == 0, scale = pc->rotate_mode == 2;
    int32_t spaces_count = tangents ? bone_count : bone_count + 1;
    float *spaces = sc->spaces, *lengths = sc->lengths;
    double spacing = p->path_spacing[k];
    spaces[0] = 0;
    double sum = 0;
    for (int32_t i = 0; i < spaces_count - 1; i++) {
        int32_t b = bones[i];
        double setup = d->bones[b].length;
        double x = setup * p->a[b], y = setup * p->c[b], len = sqrt(x * x + y * y);
        if (scale) lengths[i] = setup < EPS ? 0 : (float)len;
        switch (pc->spacing_mode) {
        case 2: /* percent */
            spaces[i + 1] = (float)spacing;
            break;
        case 3: /* proportional */
            if (setup < EPS) spaces[i + 1] = (float)spacing;
            else spaces[i + 1] = (float)len, sum += len;
            break;
        default: /* length, fixed */
            if (setup < EPS) spaces[i + 1] = (float)spacing;
            else
                spaces[i + 1] = (float)((pc->spacing_mode == 0 ? setup + spacing : spacing) * len / setup);
            break;
        }
    }
    if (pc->spacing_mode == 3 && sum > 0) {
        double f = spaces_count / sum * spacing;
        for (int32_t i = 1; i < spaces_count; i++) spaces[i] = (float)(spaces[i] * f);
    }
    float *pos = world_positions(p, k, slot, att, spaces_count, tangents);
    if (!pos) return;
    double bx = pos[0], by = pos[1], off = pc->offset_rot;
    bool tip;
    if (off == 0) tip = pc->rotate_mode == 1;
    else {
        tip = false;
        int32_t tb = d->slots[slot].bone;
        off *= p->a[tb] * p->d[tb] - p->b[tb] * p->c[tb] > 0 ? MF_DEG : -MF_DEG;
    }
    for (int32_t i = 0, q = 3; i < bone_count; i++, q += 3) {
        int32_t b = bones[i];
        p->wx[b] += (float)((bx - p->wx[b]) * mix_x);
        p->wy[b] += (float)((by - p->wy[b]) * mix_y);
        double x = pos[q], y = pos[q + 1], dx = x - bx, dy = y - by;
        if (scale && lengths[i] != 0) {
            double s = (sqrt(dx * dx + dy * dy) / lengths[i] - 1) * mix_rot + 1;
            p->a[b] = (float)(p->a[b] * s);
            p->c[b] = (float)(p->c[b] * s);
        }
        bx = x, by = y;
        if (mix_rot > 0) {
            double a = p->a[b], bb = p->b[b], c = p->c[b], dd = p->d[b], r;
            if (tangents) r = pos[q - 1];
            else if (spaces[i + 1] == 0) r = pos[q + 2];
            else r = mf_atan2(dy, dx);
            r -= mf_atan2(c, a);
            if (tip) {
                double cs, sn, len = d->bones[b].length;
                mf_sincos_d(r, &cs, &sn);
                bx += (len * (cs * a - sn * c) - dx) * mix_rot;
                by += (len * (sn * a + cs * c) - dy) * mix_rot;
            } else
                r += off;
            r = mf_wrap_rad(r) * mix_rot;
            double cs, sn;
            mf_sincos_d(r, &cs, &sn);
            p->a[b] = (float)(cs * a - sn * c);
            p->b[b] = (float)(cs * bb - sn * dd);
            p->c[b] = (float)(sn * a + cs * c);
            p->d[b] = (float)(sn * bb + cs * dd);
        }
        mf_pose_update_applied(p, b);
    }
}
