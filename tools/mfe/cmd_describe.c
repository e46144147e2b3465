/* mfe skel describe RIG [--clip NAME] [--json]: what an agent reads instead of the raw JSON. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mf/mf_build.h"
#include "mf/mf_rig.h"
#include "util/buf.h"

static const char *bone_name(const mf_skeleton *sk, int32_t i)
{
    return i >= 0 && i < sk->bone_count ? sk->bones[i].name : "-";
}

static const char *constraint_name(const mf_skeleton *sk, mf_constraint_ref c)
{
    switch (c.kind) {
    case MF_CONSTRAINT_IK: return sk->ik[c.index].name;
    case MF_CONSTRAINT_TRANSFORM: return sk->transform[c.index].name;
    case MF_CONSTRAINT_PATH: return sk->path[c.index].name;
    default: return sk->physics[c.index].name;
    }
}

static void num(char *out, float v) { mf_format_number(out, 40, v); }

/* ---- text ---- */

static void text_bones(const mf_skeleton *sk)
{
    printf("bones (%d):\n", sk->bone_count);
    for (int32_t i = 0; i < sk->bone_count; i++) {
        const mf_bone *b = &sk->bones[i];
        char x[40], y[40], r[40], sx[40], sy[40], len[40];
        num(x, b->x), num(y, b->y), num(r, b->rot), num(sx, b->sx), num(sy, b->sy), num(len, b->length);
        printf("  %-16s parent %-14s x %s y %s rot %s", b->name, bone_name(sk, b->parent), x, y, r);
        if (b->sx != 1 || b->sy != 1) printf(" scale %s %s", sx, sy);
        if (b->shx != 0 || b->shy != 0) printf(" shear %g %g", (double)b->shx, (double)b->shy);
        if (b->length != 0) printf(" length %s", len);
        if (b->inherit != MF_INHERIT_NORMAL) printf(" inherit %s", mf_inherit_name(b->inherit));
        if (b->skin_required) printf(" skinRequired");
        printf("\n");
    }
}

static void text_slots(const mf_skeleton *sk)
{
    printf("slots (%d, back to front):\n", sk->slot_count);
    for (int32_t i = 0; i < sk->slot_count; i++) {
        const mf_slot *s = &sk->slots[i];
        printf("  %-16s bone %-14s attachment %s", s->name, bone_name(sk, s->bone),
               s->attachment ? s->attachment : "-");
        if (s->color != 0xffffffffu) printf(" color #%08x", (unsigned)s->color);
        if (s->has_dark) printf(" dark #%06x", (unsigned)(s->dark >> 8));
        if (s->blend != MF_BLEND_NORMAL) printf(" blend %s", mf_blend_name(s->blend));
        printf("\n");
    }
}

static void text_skins(const mf_skeleton *sk)
{
    printf("skins (%d):\n", sk->skin_count);
    for (int32_t i = 0; i < sk->skin_count; i++) {
        const mf_skin *s = &sk->skins[i];
        int counts[MF_ATTACH_TYPE_COUNT] = {0};
        for (int32_t a = 0; a < s->attachment_count; a++) counts[s->attachments[a].type]++;
        printf("  %s: %d attachments (", s->name, s->attachment_count);
        bool first = true;
        for (int t = 0; t < MF_ATTACH_TYPE_COUNT; t++) {
            if (!counts[t]) continue;
            printf("%s%s %d", first ? "" : ", ", mf_attachment_type_name((mf_attachment_type)t), counts[t]);
            first = false;
        }
        printf(")");
        if (s->bone_count) {
            printf(" bones");
            for (int32_t b = 0; b < s->bone_count; b++) printf(" %s", bone_name(sk, s->bones[b]));
        }
        if (s->constraint_count) {
            printf(" constraints");
            for (int32_t c = 0; c < s->constraint_count; c++) printf(" %s", constraint_name(sk, s->constraints[c]));
        }
        printf("\n");
        for (int32_t a = 0; a < s->attachment_count; a++) {
            const mf_attachment *at = &s->attachments[a];
            printf("    %s/%s %s", sk->slots[at->slot].name, at->name, mf_attachment_type_name(at->type));
            if (strcmp(mf_attachment_display_name(at), at->name) != 0) printf(" named %s", at->display_name);
            if (at->image && strcmp(at->image, at->name) != 0) printf(" image %s", at->image);
            if (at->type == MF_ATTACH_MESH || at->type == MF_ATTACH_BOUNDING_BOX ||
                at->type == MF_ATTACH_CLIPPING || at->type == MF_ATTACH_PATH)
                printf(" %d vertices%s", at->vertices.count, at->vertices.xy ? "" : " weighted");
            if (at->type == MF_ATTACH_MESH) printf(" %d triangles", at->triangle_count);
            if (at->type == MF_ATTACH_LINKED_MESH) printf(" parent %s", at->parent);
            if (at->sequence.count) printf(" sequence %d", at->sequence.count);
            printf("\n");
        }
    }
}

static void text_constraints(const mf_skeleton *sk)
{
    int total = sk->ik_count + sk->transform_count + sk->path_count + sk->physics_count;
    printf("constraints (%d):\n", total);
    for (int32_t i = 0; i < sk->ik_count; i++) {
        const mf_ik_constraint *c = &sk->ik[i];
        printf("  ik %s order %d bones %s", c->name, c->order, bone_name(sk, c->bones[0]));
        if (c->bone_count > 1) printf(" %s", bone_name(sk, c->bones[1]));
        printf(" target %s bend %+d mix %g", bone_name(sk, c->target), c->bend, (double)c->mix);
        if (c->softness) printf(" softness %g", (double)c->softness);
        if (c->compress) printf(" compress");
        if (c->stretch) printf(" stretch");
        if (c->uniform) printf(" uniform");
        printf("\n");
    }
    for (int32_t i = 0; i < sk->transform_count; i++) {
        const mf_transform_constraint *c = &sk->transform[i];
        printf("  transform %s order %d bones", c->name, c->order);
        for (int32_t b = 0; b < c->bone_count; b++) printf(" %s", bone_name(sk, c->bones[b]));
        printf(" target %s%s%s mix rotate %g x %g y %g scale %g %g shear %g\n", bone_name(sk, c->target),
               c->local ? " local" : "", c->relative ? " relative" : "", (double)c->mix_rotate,
               (double)c->mix_x, (double)c->mix_y, (double)c->mix_scale_x, (double)c->mix_scale_y,
               (double)c->mix_shear_y);
    }
    for (int32_t i = 0; i < sk->path_count; i++) {
        const mf_path_constraint *c = &sk->path[i];
        printf("  path %s order %d bones", c->name, c->order);
        for (int32_t b = 0; b < c->bone_count; b++) printf(" %s", bone_name(sk, c->bones[b]));
        printf(" target slot %s position %s %g spacing %s %g rotate %s\n", sk->slots[c->target].name,
               mf_position_mode_name(c->position_mode), (double)c->position,
               mf_spacing_mode_name(c->spacing_mode), (double)c->spacing, mf_rotate_mode_name(c->rotate_mode));
    }
    for (int32_t i = 0; i < sk->physics_count; i++) {
        const mf_physics_constraint *c = &sk->physics[i];
        printf("  physics %s order %d bone %s inertia %g strength %g damping %g mass %g\n", c->name,
               c->order, bone_name(sk, c->bone), (double)c->inertia, (double)c->strength,
               (double)c->damping, (double)c->mass);
    }
}

static void text_events(const mf_skeleton *sk)
{
    printf("events (%d):\n", sk->event_count);
    for (int32_t i = 0; i < sk->event_count; i++) {
        const mf_event_def *e = &sk->events[i];
        printf("  %s int %d float %g", e->name, e->int_value, (double)e->float_value);
        if (e->string_value) printf(" string \"%s\"", e->string_value);
        if (e->audio) printf(" audio %s volume %g balance %g", e->audio, (double)e->volume, (double)e->balance);
        printf("\n");
    }
}

static void timeline_label(const mf_timeline *tl, char *out, size_t n)
{
    const char *kind = mf_timeline_kind_name(tl->kind);
    if (tl->kind == MF_TL_DEFORM)
        snprintf(out, n, "deform %s/%s/%s", tl->skin, tl->target, tl->attachment);
    else if (tl->kind == MF_TL_DRAW_ORDER || tl->kind == MF_TL_EVENT)
        snprintf(out, n, "%s", kind);
    else
        snprintf(out, n, "%s %s", tl->target[0] ? tl->target : "*", kind);
}

static void text_clip_summary(const mf_clip *c)
{
    printf("  %-12s length %gs fps %g loop %s, %d timelines\n", c->name, (double)c->length,
           (double)c->fps, mf_loop_mode_name(c->loop), c->timeline_count);
    for (int32_t i = 0; i < c->timeline_count; i++) {
        const mf_timeline *tl = &c->timelines[i];
        char label[300];
        timeline_label(tl, label, sizeof label);
        printf("    %-34s %d keys at", label, tl->key_count);
        for (int32_t k = 0; k < tl->key_count; k++) printf(" %g", (double)tl->t[k]);
        printf("\n");
    }
}

static const char *curve_text(const mf_curve *c, char *out, size_t n)
{
    if (c->type == MF_CURVE_LINEAR) return "linear";
    if (c->type == MF_CURVE_STEPPED) return "stepped";
    snprintf(out, n, "bezier(%g,%g,%g,%g)", (double)c->cx1, (double)c->cy1, (double)c->cx2, (double)c->cy2);
    return out;
}

static void text_key_value(const mf_timeline *tl, int32_t k)
{
    switch (tl->kind) {
    case MF_TL_ATTACHMENT: printf("%s", tl->names[k] ? tl->names[k] : "(none)"); return;
    case MF_TL_INHERIT: printf("%s", mf_inherit_name((mf_inherit)tl->iv[k])); return;
    case MF_TL_PHYSICS_RESET: printf("reset"); return;
    case MF_TL_DRAW_ORDER: {
        const mf_draw_order_key *d = &tl->draw_order[k];
        if (!d->move_count) printf("setup order");
        for (int32_t m = 0; m < d->move_count; m++) printf("%s%s %+d", m ? ", " : "", d->moves[m].slot, d->moves[m].delta);
        return;
    }
    case MF_TL_EVENT: {
        const mf_event_key *e = &tl->events[k];
        printf("%s", e->name);
        if (e->has_int) printf(" int %d", e->int_value);
        if (e->has_float) printf(" float %g", (double)e->float_value);
        if (e->has_string) printf(" string \"%s\"", e->string_value);
        return;
    }
    case MF_TL_DEFORM: {
        const mf_deform_key *d = &tl->deform[k];
        printf("offset %d, %d floats", d->offset, d->count);
        return;
    }
    case MF_TL_SEQUENCE:
        printf("%s index %d delay %g", mf_sequence_mode_name((mf_sequence_mode)tl->iv[k * 2]), tl->iv[k * 2 + 1],
               (double)tl->v[k]);
        return;
    default: break;
    }
    for (int32_t c = 0; c < tl->comps; c++) printf("%s%g", c ? " " : "", (double)tl->v[k * tl->comps + c]);
    for (int32_t c = 0; c < tl->icomps; c++) printf(" %d", tl->iv[k * tl->icomps + c]);
}

static void text_clip_full(const mf_clip *c)
{
    printf("clip %s (%s) skeleton %s length %gs fps %g loop %s\n", c->name, c->uid, c->skeleton_uid,
           (double)c->length, (double)c->fps, mf_loop_mode_name(c->loop));
    for (int32_t i = 0; i < c->timeline_count; i++) {
        const mf_timeline *tl = &c->timelines[i];
        char label[300];
        timeline_label(tl, label, sizeof label);
        printf("  %s:\n", label);
        int32_t cc = tl->comps > 0 ? tl->comps : 1;
        for (int32_t k = 0; k < tl->key_count; k++) {
            printf("    t %-8g ", (double)tl->t[k]);
            text_key_value(tl, k);
            if (tl->curves && k + 1 < tl->key_count) {
                char tmp[120];
                printf("  → %s", curve_text(&tl->curves[k * cc], tmp, sizeof tmp));
                for (int32_t c2 = 1; c2 < cc; c2++) {
                    const mf_curve *cv = &tl->curves[k * cc + c2];
                    if (memcmp(cv, &tl->curves[k * cc], sizeof *cv) != 0) {
                        printf(" (per component)");
                        break;
                    }
                }
            }
            printf("\n");
        }
    }
}

/* ---- JSON ---- */

static cJSON *json_names_of_bones(const mf_skeleton *sk, const int32_t *idx, int32_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (int32_t i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateString(bone_name(sk, idx[i])));
    return a;
}

/* The conservative boxes (mf_sd_bounds) from a build made in memory without the atlas: region
 * quads are not trimmed there, so each box holds the shipped build's. NULL when the rig does not
 * build (describe still describes it). */
static void *build_in_memory(const mf_rig *rig, mf_skel_data *d)
{
    void *blob = NULL;
    size_t size = 0;
    mf_diag diag;
    if (mf_build_skeleton(rig->sk, (const mf_clip *const *)rig->clips, rig->clip_count, &blob, &size, &diag) != MF_OK)
        return NULL;
    if (mf_skel_data_load(blob, size, d, &diag) != MF_OK) {
        free(blob);
        return NULL;
    }
    return blob;
}

static void json_bounds(cJSON *o, const char *key, const mf_skel_data *d, int32_t clip)
{
    float b[4];
    if (!d || !mf_skel_data_clip_bounds(d, clip, b)) return;
    cJSON *a = cJSON_AddArrayToObject(o, key);
    for (int k = 0; a && k < 4; k++) cJSON_AddItemToArray(a, cJSON_CreateNumber(round((double)b[k] * 1000) / 1000));
}

static cJSON *json_clip(const mf_clip *c, bool full, const mf_skel_data *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", c->name);
    cJSON_AddStringToObject(o, "uid", c->uid);
    cJSON_AddNumberToObject(o, "length", c->length);
    cJSON_AddNumberToObject(o, "fps", c->fps);
    cJSON_AddStringToObject(o, "loop", mf_loop_mode_name(c->loop));
    json_bounds(o, "bounds", d, d ? mf_skel_data_find_clip(d, c->name) : -2);
    cJSON *tls = cJSON_AddArrayToObject(o, "timelines");
    for (int32_t i = 0; i < c->timeline_count; i++) {
        const mf_timeline *tl = &c->timelines[i];
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "kind", mf_timeline_kind_name(tl->kind));
        if (tl->target) cJSON_AddStringToObject(t, "target", tl->target);
        if (tl->skin) cJSON_AddStringToObject(t, "skin", tl->skin);
        if (tl->attachment) cJSON_AddStringToObject(t, "attachment", tl->attachment);
        cJSON_AddItemToObject(t, "t", cJSON_CreateFloatArray(tl->t, tl->key_count));
        if (full && tl->comps > 0 && tl->v)
            cJSON_AddItemToObject(t, "v", cJSON_CreateFloatArray(tl->v, tl->key_count * tl->comps));
        if (full && tl->icomps > 0 && tl->iv)
            cJSON_AddItemToObject(t, "iv", cJSON_CreateIntArray(tl->iv, tl->key_count * tl->icomps));
        if (full && tl->names) {
            cJSON *n = cJSON_AddArrayToObject(t, "names");
            for (int32_t k = 0; k < tl->key_count; k++)
                cJSON_AddItemToArray(n, tl->names[k] ? cJSON_CreateString(tl->names[k]) : cJSON_CreateNull());
        }
        if (full && tl->events) {
            cJSON *n = cJSON_AddArrayToObject(t, "events");
            for (int32_t k = 0; k < tl->key_count; k++) cJSON_AddItemToArray(n, cJSON_CreateString(tl->events[k].name));
        }
        cJSON_AddItemToArray(tls, t);
    }
    return o;
}

static int describe_json(const mf_rig *rig, const char *path, const mf_clip *only)
{
    const mf_skeleton *sk = rig->sk;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "file", path);
    cJSON_AddStringToObject(root, "uid", sk->uid);
    cJSON_AddNumberToObject(root, "fps", sk->fps);
    cJSON *bones = cJSON_AddArrayToObject(root, "bones");
    for (int32_t i = 0; i < sk->bone_count; i++) {
        const mf_bone *b = &sk->bones[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", b->name);
        if (b->parent >= 0) cJSON_AddStringToObject(o, "parent", bone_name(sk, b->parent));
        else cJSON_AddNullToObject(o, "parent");
        const float setup[] = {b->x, b->y, b->rot, b->sx, b->sy, b->shx, b->shy};
        const char *keys[] = {"x", "y", "rot", "sx", "sy", "shx", "shy"};
        for (int k = 0; k < 7; k++) cJSON_AddNumberToObject(o, keys[k], setup[k]);
        cJSON_AddNumberToObject(o, "length", b->length);
        cJSON_AddStringToObject(o, "inherit", mf_inherit_name(b->inherit));
        cJSON_AddBoolToObject(o, "skinRequired", b->skin_required);
        cJSON_AddItemToArray(bones, o);
    }
    cJSON *slots = cJSON_AddArrayToObject(root, "slots");
    for (int32_t i = 0; i < sk->slot_count; i++) {
        const mf_slot *s = &sk->slots[i];
        cJSON *o = cJSON_CreateObject();
        char col[16];
        cJSON_AddStringToObject(o, "name", s->name);
        cJSON_AddStringToObject(o, "bone", bone_name(sk, s->bone));
        if (s->attachment) cJSON_AddStringToObject(o, "attachment", s->attachment);
        else cJSON_AddNullToObject(o, "attachment");
        snprintf(col, sizeof col, "#%08x", (unsigned)s->color);
        cJSON_AddStringToObject(o, "color", col);
        cJSON_AddStringToObject(o, "blend", mf_blend_name(s->blend));
        cJSON_AddItemToArray(slots, o);
    }
    cJSON *skins = cJSON_AddArrayToObject(root, "skins");
    for (int32_t i = 0; i < sk->skin_count; i++) {
        const mf_skin *s = &sk->skins[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", s->name);
        cJSON_AddItemToObject(o, "bones", json_names_of_bones(sk, s->bones, s->bone_count));
        cJSON *atts = cJSON_AddArrayToObject(o, "attachments");
        for (int32_t a = 0; a < s->attachment_count; a++) {
            const mf_attachment *at = &s->attachments[a];
            cJSON *ao = cJSON_CreateObject();
            cJSON_AddStringToObject(ao, "slot", sk->slots[at->slot].name);
            cJSON_AddStringToObject(ao, "name", at->name);
            if (strcmp(mf_attachment_display_name(at), at->name) != 0)
                cJSON_AddStringToObject(ao, "displayName", at->display_name);
            cJSON_AddStringToObject(ao, "type", mf_attachment_type_name(at->type));
            if (at->image) cJSON_AddStringToObject(ao, "image", at->image);
            cJSON_AddItemToArray(atts, ao);
        }
        cJSON_AddItemToArray(skins, o);
    }
    cJSON *cons = cJSON_AddArrayToObject(root, "constraints");
    for (int32_t i = 0; i < sk->ik_count; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", "ik");
        cJSON_AddStringToObject(o, "name", sk->ik[i].name);
        cJSON_AddNumberToObject(o, "order", sk->ik[i].order);
        cJSON_AddItemToObject(o, "bones", json_names_of_bones(sk, sk->ik[i].bones, sk->ik[i].bone_count));
        cJSON_AddStringToObject(o, "target", bone_name(sk, sk->ik[i].target));
        cJSON_AddNumberToObject(o, "bend", sk->ik[i].bend);
        cJSON_AddNumberToObject(o, "mix", sk->ik[i].mix);
        cJSON_AddItemToArray(cons, o);
    }
    for (int32_t i = 0; i < sk->transform_count; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", "transform");
        cJSON_AddStringToObject(o, "name", sk->transform[i].name);
        cJSON_AddNumberToObject(o, "order", sk->transform[i].order);
        cJSON_AddItemToObject(o, "bones", json_names_of_bones(sk, sk->transform[i].bones, sk->transform[i].bone_count));
        cJSON_AddStringToObject(o, "target", bone_name(sk, sk->transform[i].target));
        cJSON_AddItemToArray(cons, o);
    }
    for (int32_t i = 0; i < sk->path_count; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", "path");
        cJSON_AddStringToObject(o, "name", sk->path[i].name);
        cJSON_AddNumberToObject(o, "order", sk->path[i].order);
        cJSON_AddItemToObject(o, "bones", json_names_of_bones(sk, sk->path[i].bones, sk->path[i].bone_count));
        cJSON_AddStringToObject(o, "target", sk->slots[sk->path[i].target].name);
        cJSON_AddItemToArray(cons, o);
    }
    for (int32_t i = 0; i < sk->physics_count; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", "physics");
        cJSON_AddStringToObject(o, "name", sk->physics[i].name);
        cJSON_AddNumberToObject(o, "order", sk->physics[i].order);
        cJSON_AddItemToObject(o, "bones", json_names_of_bones(sk, &sk->physics[i].bone, 1));
        cJSON_AddItemToArray(cons, o);
    }
    cJSON *events = cJSON_AddArrayToObject(root, "events");
    for (int32_t i = 0; i < sk->event_count; i++) {
        const mf_event_def *e = &sk->events[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", e->name);
        cJSON_AddNumberToObject(o, "int", e->int_value);
        cJSON_AddNumberToObject(o, "float", e->float_value);
        if (e->string_value) cJSON_AddStringToObject(o, "string", e->string_value);
        if (e->audio) cJSON_AddStringToObject(o, "audio", e->audio);
        cJSON_AddItemToArray(events, o);
    }
    mf_skel_data data;
    void *blob = build_in_memory(rig, &data);
    json_bounds(root, "setupBounds", blob ? &data : NULL, -1);
    cJSON *clips = cJSON_AddArrayToObject(root, "clips");
    for (int32_t i = 0; i < rig->clip_count; i++)
        if (!only || rig->clips[i] == only)
            cJSON_AddItemToArray(clips, json_clip(rig->clips[i], only != NULL, blob ? &data : NULL));
    free(blob);
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text) {
        fprintf(stderr, "mfe: out of memory\n");
        return MFE_USAGE;
    }
    printf("%s\n", text);
    cJSON_free(text);
    return MFE_OK;
}

int mfe_skel_describe(int argc, char **argv)
{
    const char *path = NULL, *clip_name = NULL;
    bool json = false;
    for (int i = 0; i < argc; i++) {
        if (mfe_is_flag(argv[i], "--json")) json = true;
        else if (mfe_is_flag(argv[i], "--clip")) {
            if (++i >= argc) return mfe_usage_error("skel", "describe", "--clip needs a clip name");
            clip_name = argv[i];
        } else if (argv[i][0] == '-') return mfe_usage_error("skel", "describe", "unknown option %s", argv[i]);
        else if (path) return mfe_usage_error("skel", "describe", "more than one rig given");
        else path = argv[i];
    }
    if (!path) return mfe_usage_error("skel", "describe", "no rig given");

    mf_rig rig;
    mf_diag diag;
    if (mf_rig_load(path, &rig, &diag) != MF_OK) return mfe_report(&diag);
    const mf_clip *only = NULL;
    if (clip_name) {
        int32_t c = mfe_find_clip_arg(&rig, clip_name, path);
        if (c < 0) {
            mf_rig_free(&rig);
            return MFE_USAGE;
        }
        only = rig.clips[c];
    }
    int rc;
    if (json) {
        rc = describe_json(&rig, path, only);
    } else {
        const mf_skeleton *sk = rig.sk;
        if (only) {
            text_clip_full(only);
        } else {
            printf("rig %s (%s) fps %g, images %s\n", path, sk->uid, (double)sk->fps, sk->import.images);
            text_bones(sk);
            text_slots(sk);
            text_skins(sk);
            text_constraints(sk);
            text_events(sk);
            printf("clips (%d):\n", rig.clip_count);
            for (int32_t i = 0; i < rig.clip_count; i++) text_clip_summary(rig.clips[i]);
        }
        rc = MFE_OK;
    }
    mf_rig_free(&rig);
    return rc;
}
