/* Building the rig records: info, bones, slots, events and the four constraint kinds. The model
 * may have been made in code, so every index it holds is checked before it is used. */
#include "build_internal.h"

#define PUSH(c, id, type) ((type *)mf_bvec_push(&(c)->sec[id], 1))

static const char *nm(const char *s) { return s ? s : "?"; }

static bool bone_ok(const mf_bctx *c, int32_t b) { return b >= 0 && b < c->sk->bone_count; }

static bool build_bones(mf_bctx *c)
{
    const mf_skeleton *sk = c->sk;
    bool ok = true;
    for (int32_t i = 0; i < sk->bone_count; i++) {
        const mf_bone *b = &sk->bones[i];
        if (!b->name) return mf_bfail_at(c, c->skel_file, "bones", i, "name", "missing name");
        if (b->parent < -1 || b->parent >= i)
            return mf_bfail_at(c, c->skel_file, "bones", i, "parent",
                               "parent %d of \"%s\" is not an earlier bone (parents come first)",
                               (int)b->parent, b->name);
        if ((int)b->inherit < 0 || b->inherit >= MF_INHERIT_COUNT)
            return mf_bfail_at(c, c->skel_file, "bones", i, "inherit", "unknown inherit mode %d", (int)b->inherit);
        mf_sd_bone *o = PUSH(c, MF_SD_SEC_BONES, mf_sd_bone);
        if (!o) return mf_boom(c);
        o->name = mf_intern(c, b->name, &ok);
        o->parent = b->parent;
        o->x = b->x * c->scale;
        o->y = b->y * c->scale;
        o->rot = b->rot;
        o->sx = b->sx;
        o->sy = b->sy;
        o->shx = b->shx;
        o->shy = b->shy;
        o->length = b->length * c->scale;
        o->color = b->color;
        o->inherit = (uint8_t)b->inherit;
        o->skin_required = b->skin_required;
        if (!ok) return false;
    }
    return true;
}

static bool build_slots(mf_bctx *c)
{
    const mf_skeleton *sk = c->sk;
    bool ok = true;
    for (int32_t i = 0; i < sk->slot_count; i++) {
        const mf_slot *s = &sk->slots[i];
        if (!s->name) return mf_bfail_at(c, c->skel_file, "slots", i, "name", "missing name");
        if (!bone_ok(c, s->bone))
            return mf_bfail_at(c, c->skel_file, "slots", i, "bone", "bone %d of slot \"%s\" outside 0..%d",
                               (int)s->bone, s->name, (int)sk->bone_count - 1);
        if ((int)s->blend < 0 || s->blend >= MF_BLEND_COUNT)
            return mf_bfail_at(c, c->skel_file, "slots", i, "blend", "unknown blend mode %d", (int)s->blend);
        mf_sd_slot *o = PUSH(c, MF_SD_SEC_SLOTS, mf_sd_slot);
        if (!o) return mf_boom(c);
        o->name = mf_intern(c, s->name, &ok);
        o->bone = s->bone;
        o->attachment = mf_intern(c, s->attachment, &ok);
        o->color = s->color;
        o->dark = s->has_dark ? s->dark : 0;
        o->has_dark = s->has_dark;
        o->blend = (uint8_t)s->blend;
        if (!ok) return false;
    }
    return true;
}

static bool build_events(mf_bctx *c)
{
    const mf_skeleton *sk = c->sk;
    bool ok = true;
    for (int32_t i = 0; i < sk->event_count; i++) {
        const mf_event_def *e = &sk->events[i];
        if (!e->name) return mf_bfail_at(c, c->skel_file, "events", i, "name", "missing name");
        mf_sd_event *o = PUSH(c, MF_SD_SEC_EVENTS, mf_sd_event);
        if (!o) return mf_boom(c);
        o->name = mf_intern(c, e->name, &ok);
        o->int_value = e->int_value;
        o->float_value = e->float_value;
        o->string = mf_intern(c, e->string_value, &ok);
        o->audio = mf_intern(c, e->audio, &ok);
        o->volume = e->volume;
        o->balance = e->balance;
        if (!ok) return false;
    }
    return true;
}

/* Appends a constraint's bones to BONE_LISTS; *first gets where they start. */
static bool bone_list(mf_bctx *c, const char *rec, int32_t i, const int32_t *bones, int32_t n, int32_t *first)
{
    if (n < 0 || (n > 0 && !bones)) return mf_bfail_at(c, c->skel_file, rec, i, "bones", "bad bone list (%d bones)", (int)n);
    mf_bvec *v = &c->sec[MF_SD_SEC_BONE_LISTS];
    *first = v->len;
    int32_t *o = mf_bvec_push(v, n);
    if (!o && n > 0) return mf_boom(c);
    for (int32_t k = 0; k < n; k++) {
        if (!bone_ok(c, bones[k]))
            return mf_bfail_at(c, c->skel_file, rec, i, "bones", "bone %d outside 0..%d", (int)bones[k],
                               (int)c->sk->bone_count - 1);
        o[k] = bones[k];
    }
    return true;
}

static bool build_ik(mf_bctx *c)
{
    const mf_skeleton *sk = c->sk;
    bool ok = true;
    for (int32_t i = 0; i < sk->ik_count; i++) {
        const mf_ik_constraint *k = &sk->ik[i];
        int32_t first;
        if (k->bone_count < 1 || k->bone_count > 2)
            return mf_bfail_at(c, c->skel_file, "ik", i, "bones", "%d bones; ik takes 1 or 2", (int)k->bone_count);
        if (!bone_list(c, "ik", i, k->bones, k->bone_count, &first)) return false;
        if (!bone_ok(c, k->target))
            return mf_bfail_at(c, c->skel_file, "ik", i, "target", "bone %d outside 0..%d", (int)k->target,
                               (int)sk->bone_count - 1);
        mf_sd_ik *o = PUSH(c, MF_SD_SEC_IK, mf_sd_ik);
        if (!o) return mf_boom(c);
        o->name = mf_intern(c, nm(k->name), &ok);
        o->order = k->order;
        o->bone_first = first;
        o->bone_count = k->bone_count;
        o->target = k->target;
        o->mix = k->mix;
        o->softness = k->softness * c->scale;
        o->bend = (int8_t)(k->bend < 0 ? -1 : 1);
        o->compress = k->compress;
        o->stretch = k->stretch;
        o->uniform = k->uniform;
        o->skin_required = k->skin_required;
        if (!ok) return false;
    }
    return true;
}

static bool build_transform(mf_bctx *c)
{
    const mf_skeleton *sk = c->sk;
    bool ok = true;
    for (int32_t i = 0; i < sk->transform_count; i++) {
        const mf_transform_constraint *t = &sk->transform[i];
        int32_t first;
        if (!bone_list(c, "transform", i, t->bones, t->bone_count, &first)) return false;
        if (!bone_ok(c, t->target))
            return mf_bfail_at(c, c->skel_file, "transform", i, "target", "bone %d outside 0..%d", (int)t->target,
                               (int)sk->bone_count - 1);
        mf_sd_transform *o = PUSH(c, MF_SD_SEC_TRANSFORM, mf_sd_transform);
        if (!o) return mf_boom(c);
        o->name = mf_intern(c, nm(t->name), &ok);
        o->order = t->order;
        o->bone_first = first;
        o->bone_count = t->bone_count;
        o->target = t->target;
        o->local = t->local;
        o->relative = t->relative;
        o->skin_required = t->skin_required;
        o->offset_rot = t->offset_rot;
        o->offset_x = t->offset_x * c->scale;
        o->offset_y = t->offset_y * c->scale;
        o->offset_sx = t->offset_sx;
        o->offset_sy = t->offset_sy;
        o->offset_shy = t->offset_shy;
        o->mix_rotate = t->mix_rotate;
        o->mix_x = t->mix_x;
        o->mix_y = t->mix_y;
        o->mix_scale_x = t->mix_scale_x;
        o->mix_scale_y = t->mix_scale_y;
        o->mix_shear_y = t->mix_shear_y;
        if (!ok) return false;
    }
    return true;
}

static bool build_path(mf_bctx *c)
{
    const mf_skeleton *sk = c->sk;
    bool ok = true;
    for (int32_t i = 0; i < sk->path_count; i++) {
        const mf_path_constraint *p = &sk->path[i];
        int32_t first;
        if (!bone_list(c, "path", i, p->bones, p->bone_count, &first)) return false;
        if (p->target < 0 || p->target >= sk->slot_count)
            return mf_bfail_at(c, c->skel_file, "path", i, "target", "slot %d outside 0..%d", (int)p->target,
                               (int)sk->slot_count - 1);
        if ((unsigned)p->position_mode >= MF_SD_POSITION_MODE_COUNT || (unsigned)p->spacing_mode >= MF_SD_SPACING_MODE_COUNT ||
            (unsigned)p->rotate_mode >= MF_SD_ROTATE_MODE_COUNT)
            return mf_bfail_at(c, c->skel_file, "path", i, "", "unknown position, spacing or rotate mode");
        mf_sd_path *o = PUSH(c, MF_SD_SEC_PATH, mf_sd_path);
        if (!o) return mf_boom(c);
        o->name = mf_intern(c, nm(p->name), &ok);
        o->order = p->order;
        o->bone_first = first;
        o->bone_count = p->bone_count;
        o->target = p->target;
        o->position_mode = (uint8_t)p->position_mode;
        o->spacing_mode = (uint8_t)p->spacing_mode;
        o->rotate_mode = (uint8_t)p->rotate_mode;
        o->skin_required = p->skin_required;
        o->offset_rot = p->offset_rot;
        /* fixed positions and length / fixed spacings are pixels; the others fractions */
        o->position = p->position * (p->position_mode == MF_POSITION_FIXED ? c->scale : 1.0f);
        o->spacing = p->spacing * (p->spacing_mode == MF_SPACING_LENGTH || p->spacing_mode == MF_SPACING_FIXED ? c->scale : 1.0f);
        o->mix_rotate = p->mix_rotate;
        o->mix_x = p->mix_x;
        o->mix_y = p->mix_y;
        if (!ok) return false;
    }
    return true;
}

static bool build_physics(mf_bctx *c)
{
    const mf_skeleton *sk = c->sk;
    bool ok = true;
    for (int32_t i = 0; i < sk->physics_count; i++) {
        const mf_physics_constraint *p = &sk->physics[i];
        if (!bone_ok(c, p->bone))
            return mf_bfail_at(c, c->skel_file, "physics", i, "bone", "bone %d outside 0..%d", (int)p->bone,
                               (int)sk->bone_count - 1);
        mf_sd_physics *o = PUSH(c, MF_SD_SEC_PHYSICS, mf_sd_physics);
        if (!o) return mf_boom(c);
        o->name = mf_intern(c, nm(p->name), &ok);
        o->order = p->order;
        o->bone = p->bone;
        o->flags = (p->skin_required ? MF_SD_PHYS_SKIN_REQUIRED : 0u) |
                   (p->inertia_global ? MF_SD_PHYS_INERTIA_GLOBAL : 0u) |
                   (p->strength_global ? MF_SD_PHYS_STRENGTH_GLOBAL : 0u) |
                   (p->damping_global ? MF_SD_PHYS_DAMPING_GLOBAL : 0u) |
                   (p->mass_global ? MF_SD_PHYS_MASS_GLOBAL : 0u) | (p->wind_global ? MF_SD_PHYS_WIND_GLOBAL : 0u) |
                   (p->gravity_global ? MF_SD_PHYS_GRAVITY_GLOBAL : 0u) | (p->mix_global ? MF_SD_PHYS_MIX_GLOBAL : 0u);
        o->x = p->x;
        o->y = p->y;
        o->rotate = p->rotate;
        o->scale_x = p->scale_x;
        o->shear_x = p->shear_x;
        o->limit = p->limit * c->scale;
        o->step = p->step;
        o->inertia = p->inertia;
        o->strength = p->strength;
        o->damping = p->damping;
        o->mass = p->mass;
        o->wind = p->wind;
        o->gravity = p->gravity;
        o->mix = p->mix;
        if (!ok) return false;
    }
    return true;
}

bool mf_build_rig(mf_bctx *c)
{
    const mf_skeleton *sk = c->sk;
    if (sk->bone_count < 0 || sk->slot_count < 0 || sk->ik_count < 0 || sk->transform_count < 0 ||
        sk->path_count < 0 || sk->physics_count < 0 || sk->event_count < 0 || sk->skin_count < 0 ||
        (sk->bone_count && !sk->bones) || (sk->slot_count && !sk->slots) || (sk->ik_count && !sk->ik) ||
        (sk->transform_count && !sk->transform) || (sk->path_count && !sk->path) ||
        (sk->physics_count && !sk->physics) || (sk->event_count && !sk->events) || (sk->skin_count && !sk->skins))
        return mf_bfail(c, c->skel_file, "", "inconsistent skeleton model (a count without its array)");
    bool ok = true;
    mf_sd_info *info = PUSH(c, MF_SD_SEC_INFO, mf_sd_info);
    if (!info) return mf_boom(c);
    info->uid = mf_intern(c, sk->uid ? sk->uid : "", &ok);
    info->fps = sk->fps;
    info->scale = c->scale;
    return ok && build_bones(c) && build_slots(c) && build_events(c) && build_ik(c) && build_transform(c) &&
           build_path(c) && build_physics(c);
}
