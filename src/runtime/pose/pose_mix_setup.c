/* Setup blending for the track mixer: a timeline that is the first to key its property mixes
 * from the setup pose, not from whatever an earlier frame left there. */
#include <string.h>

#include "mf/mf_pose_mix.h"
#include "pose_internal.h"

static void unpack(uint32_t c, float *out, int32_t n)
{
    for (int32_t j = 0; j < n; j++) out[j] = (float)((c >> (24 - 8 * j)) & 255u) / 255.0f;
}

void mf_pose_timeline_setup(mf_pose *p, int32_t timeline, const uint8_t *mask)
{
    const mf_skel_data *d = p->data;
    if (timeline < 0 || timeline >= d->timeline_count) return;
    const mf_sd_timeline *tl = &d->timelines[timeline];
    int32_t i = tl->target;
    if (tl->kind <= MF_SD_TL_INHERIT) {
        if (mask && !mask[i]) return;
        const mf_sd_bone *b = &d->bones[i];
        switch (tl->kind) {
        case MF_SD_TL_ROTATE: p->rot[i] = b->rot; break;
        case MF_SD_TL_TRANSLATE: p->x[i] = b->x, p->y[i] = b->y; break;
        case MF_SD_TL_TRANSLATE_X: p->x[i] = b->x; break;
        case MF_SD_TL_TRANSLATE_Y: p->y[i] = b->y; break;
        case MF_SD_TL_SCALE: p->sx[i] = b->sx, p->sy[i] = b->sy; break;
        case MF_SD_TL_SCALE_X: p->sx[i] = b->sx; break;
        case MF_SD_TL_SCALE_Y: p->sy[i] = b->sy; break;
        case MF_SD_TL_SHEAR: p->shx[i] = b->shx, p->shy[i] = b->shy; break;
        case MF_SD_TL_SHEAR_X: p->shx[i] = b->shx; break;
        case MF_SD_TL_SHEAR_Y: p->shy[i] = b->shy; break;
        default: p->inherit[i] = b->inherit; break;
        }
        return;
    }
    switch (tl->kind) {
    case MF_SD_TL_RGBA: case MF_SD_TL_RGB: case MF_SD_TL_ALPHA: case MF_SD_TL_RGBA2: {
        if (mask && !mask[d->slots[i].bone]) return;
        float c[4], dk[4], was[7];
        unpack(d->slots[i].color, c, 4);
        unpack(d->slots[i].dark, dk, 3);
        mf_pose_colours_keep(p, i, was);
        if (tl->kind != MF_SD_TL_ALPHA) memcpy(p->color + 4 * i, c, 3 * sizeof(float));
        if (tl->kind != MF_SD_TL_RGB) p->color[4 * i + 3] = c[3];
        if (tl->kind == MF_SD_TL_RGBA2) memcpy(p->dark + 3 * i, dk, 3 * sizeof(float));
        mf_pose_colours_moved(p, i, was);
        break;
    }
    case MF_SD_TL_DEFORM:
        if (mask && !mask[d->slots[i].bone]) return;
        if (p->deform_attachment[i] >= 0 && d->attachments[p->deform_attachment[i]].deform_source == tl->attachment)
            p->deform_attachment[i] = -1;
        break;
    case MF_SD_TL_IK:
        p->ik_mix[i] = d->ik[i].mix, p->ik_softness[i] = d->ik[i].softness;
        p->ik_bend[i] = d->ik[i].bend, p->ik_compress[i] = d->ik[i].compress, p->ik_stretch[i] = d->ik[i].stretch;
        break;
    case MF_SD_TL_TRANSFORM: {
        const mf_sd_transform *t = &d->transform[i];
        float *m = p->tf_mix + 6 * i;
        m[0] = t->mix_rotate, m[1] = t->mix_x, m[2] = t->mix_y;
        m[3] = t->mix_scale_x, m[4] = t->mix_scale_y, m[5] = t->mix_shear_y;
        break;
    }
    case MF_SD_TL_PATH_POSITION: p->path_position[i] = d->path[i].position; break;
    case MF_SD_TL_PATH_SPACING: p->path_spacing[i] = d->path[i].spacing; break;
    case MF_SD_TL_PATH_MIX:
        p->path_mix[3 * i] = d->path[i].mix_rotate, p->path_mix[3 * i + 1] = d->path[i].mix_x;
        p->path_mix[3 * i + 2] = d->path[i].mix_y;
        break;
    case MF_SD_TL_DRAW_ORDER:
        mf_pose_draw_order_setup(p);
        break;
    default: /* attachments, sequences, events, physics: not blended */
        break;
    }
}

void mf_pose_slot_setup_attachment(mf_pose *p, int32_t slot)
{
    const mf_skel_data *d = p->data;
    if (slot < 0 || slot >= d->slot_count) return;
    mf_pose_set_attachment(p, slot, mf_pose_find_attachment(p, slot, d->slots[slot].attachment));
}
