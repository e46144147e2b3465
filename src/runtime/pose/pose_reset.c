/* The setup pose, setting a slot's attachment, and slot tracking's switch and change count. */
#include <string.h>

#include "pose_internal.h"

static void unpack_rgba(uint32_t c, float *out)
{
    out[0] = (float)((c >> 24) & 255u) / 255.0f;
    out[1] = (float)((c >> 16) & 255u) / 255.0f;
    out[2] = (float)((c >> 8) & 255u) / 255.0f;
    out[3] = (float)(c & 255u) / 255.0f;
}

void mf_pose_set_attachment(mf_pose *pose, int32_t slot, int32_t attachment)
{
    if (pose->attachment[slot] == attachment) return;
    mf_pose_slots_touched(pose);
    pose->attachment[slot] = attachment;
    pose->seq_index[slot] = -1;
}

void mf_pose_reset(mf_pose *pose)
{
    if (!pose) return;
    const mf_skel_data *d = pose->data;
    for (int32_t i = 0; i < d->bone_count; i++) {
        const mf_sd_bone *b = &d->bones[i];
        pose->x[i] = b->x;
        pose->y[i] = b->y;
        pose->rot[i] = b->rot;
        pose->sx[i] = b->sx;
        pose->sy[i] = b->sy;
        pose->shx[i] = b->shx;
        pose->shy[i] = b->shy;
        pose->inherit[i] = b->inherit;
    }
    /* slot changes (slot tracking) only where the slots were not at setup already: a host that
     * resets every frame keeps its draw lists' items while its clips key bones only */
    for (int32_t i = 0; i < d->slot_count; i++) {
        const mf_sd_slot *s = &d->slots[i];
        float was[7], dk[4];
        mf_pose_colours_keep(pose, i, was);
        unpack_rgba(s->color, pose->color + 4 * i);
        unpack_rgba(s->dark, dk);
        memcpy(pose->dark + 3 * i, dk, 3 * sizeof(float));
        mf_pose_colours_moved(pose, i, was);
        mf_pose_set_attachment(pose, i, mf_pose_find_attachment(pose, i, s->attachment));
        if (pose->seq_index[i] != -1) mf_pose_slots_touched(pose), pose->seq_index[i] = -1;
        pose->deform_attachment[i] = -1;
    }
    mf_pose_draw_order_setup(pose);
    for (int32_t i = 0; i < d->ik_count; i++) {
        const mf_sd_ik *k = &d->ik[i];
        pose->ik_mix[i] = k->mix;
        pose->ik_softness[i] = k->softness;
        pose->ik_bend[i] = k->bend;
        pose->ik_compress[i] = k->compress;
        pose->ik_stretch[i] = k->stretch;
    }
    for (int32_t i = 0; i < d->transform_count; i++) {
        const mf_sd_transform *t = &d->transform[i];
        float *m = pose->tf_mix + 6 * i;
        m[0] = t->mix_rotate, m[1] = t->mix_x, m[2] = t->mix_y;
        m[3] = t->mix_scale_x, m[4] = t->mix_scale_y, m[5] = t->mix_shear_y;
    }
    for (int32_t i = 0; i < d->path_count; i++) {
        const mf_sd_path *p = &d->path[i];
        pose->path_position[i] = p->position;
        pose->path_spacing[i] = p->spacing;
        pose->path_mix[3 * i] = p->mix_rotate;
        pose->path_mix[3 * i + 1] = p->mix_x;
        pose->path_mix[3 * i + 2] = p->mix_y;
    }
    mf_pose_physics_setup(pose);
}

void mf_pose_set_slot_tracking(mf_pose *pose, bool on)
{
    if (!pose) return;
    pose->scratch->slot_tracking = on;
    mf_pose_slots_touched(pose);
}

void mf_pose_slots_changed(mf_pose *pose)
{
    if (pose) mf_pose_slots_touched(pose);
}
