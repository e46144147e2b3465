/* CPU skinning: world vertices of attachments, point attachments and pose bounds. */
#include <float.h>

#include "mf/mf_geometry.h"
#include "pose_internal.h"

/* One world vertex of an attachment (deform: the slot's offsets or NULL). */
static void world_vertex(const mf_pose *p, int32_t bone, const mf_sd_attachment *at,
                         const float *deform, int32_t i, float *ox, float *oy)
{
    const mf_skel_data *d = p->data;
    if (!(at->flags & MF_SD_ATT_WEIGHTED)) {
        const float *v = d->floats + at->vertex_first;
        float x = v[2 * i], y = v[2 * i + 1];
        if (deform) x += deform[2 * i], y += deform[2 * i + 1];
        *ox = p->a[bone] * x + p->b[bone] * y + p->wx[bone];
        *oy = p->c[bone] * x + p->d[bone] * y + p->wy[bone];
        return;
    }
    const mf_sd_span *sp = &d->spans[at->vertex_first + i];
    float wx = 0, wy = 0;
    for (int32_t j = 0; j < sp->count; j++) {
        int32_t fi = sp->first + j;
        const mf_sd_influence *in = &d->influences[fi];
        float x = in->x, y = in->y;
        if (deform) {
            int32_t o = 2 * (fi - at->infl_first);
            x += deform[o], y += deform[o + 1];
        }
        int32_t b = in->bone;
        wx += (p->a[b] * x + p->b[b] * y + p->wx[b]) * in->weight;
        wy += (p->c[b] * x + p->d[b] * y + p->wy[b]) * in->weight;
    }
    *ox = wx, *oy = wy;
}

static const float *slot_deform(const mf_pose *p, int32_t slot, int32_t att)
{
    const mf_sd_attachment *at = &p->data->attachments[att];
    if (at->type == MF_SD_ATT_REGION || at->deform_count <= 0) return NULL;
    return p->deform_attachment[slot] == att ? p->deform + p->deform_first[slot] : NULL;
}

void mf_pose_world_vertex(const mf_pose *p, int32_t slot, int32_t att, int32_t i, float *x, float *y)
{
    world_vertex(p, p->data->slots[slot].bone, &p->data->attachments[att], slot_deform(p, slot, att), i,
                 x, y);
}

int32_t mf_pose_world_vertices(const mf_pose *p, int32_t slot, int32_t att, float *out, int32_t cap)
{
    if (!p || !out || slot < 0 || slot >= p->slot_count || att < 0 ||
        att >= p->data->attachment_count)
        return 0;
    const mf_sd_attachment *at = &p->data->attachments[att];
    int32_t n = at->vertex_count;
    if (at->type == MF_SD_ATT_POINT || n <= 0 || n > cap) return 0;
    const float *deform = slot_deform(p, slot, att);
    int32_t bone = p->data->slots[slot].bone;
    for (int32_t i = 0; i < n; i++) world_vertex(p, bone, at, deform, i, &out[2 * i], &out[2 * i + 1]);
    return n;
}

mf_result mf_pose_point_world(const mf_pose *p, int32_t slot, int32_t att, float *x, float *y,
                              float *rot)
{
    if (!p || slot < 0 || slot >= p->slot_count || att < 0 || att >= p->data->attachment_count ||
        p->data->attachments[att].type != MF_SD_ATT_POINT)
        return MF_ERR_ARGUMENT;
    const mf_sd_attachment *at = &p->data->attachments[att];
    int32_t b = p->data->slots[slot].bone;
    if (x) *x = p->a[b] * at->x + p->b[b] * at->y + p->wx[b];
    if (y) *y = p->c[b] * at->x + p->d[b] * at->y + p->wy[b];
    if (rot) {
        /* the point's direction through the bone's matrix */
        float cr = cosf(at->rot * (float)MF_DEG), sr = sinf(at->rot * (float)MF_DEG);
        float dx = p->a[b] * cr + p->b[b] * sr, dy = p->c[b] * cr + p->d[b] * sr;
        *rot = atan2f(dy, dx) * (float)MF_RAD;
    }
    return MF_OK;
}

bool mf_pose_bounds(const mf_pose *p, float out[4])
{
    if (!p || !out) return false;
    const mf_skel_data *d = p->data;
    float mnx = FLT_MAX, mny = FLT_MAX, mxx = -FLT_MAX, mxy = -FLT_MAX;
    bool any = false;
    for (int32_t s = 0; s < p->slot_count; s++) {
        int32_t att = p->attachment[s], bone = d->slots[s].bone;
        if (att < 0 || !p->active[bone]) continue;
        const mf_sd_attachment *at = &d->attachments[att];
        if (at->type != MF_SD_ATT_REGION && at->type != MF_SD_ATT_MESH &&
            at->type != MF_SD_ATT_LINKED_MESH)
            continue;
        const float *deform = slot_deform(p, s, att);
        for (int32_t i = 0; i < at->vertex_count; i++) {
            float x, y;
            world_vertex(p, bone, at, deform, i, &x, &y);
            mnx = fminf(mnx, x), mny = fminf(mny, y), mxx = fmaxf(mxx, x), mxy = fmaxf(mxy, y);
            any = true;
        }
    }
    out[0] = mnx, out[1] = mny, out[2] = mxx, out[3] = mxy;
    return any;
}
