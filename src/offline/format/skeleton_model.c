/* The .mskel model: creation with defaults, the arena, lookups and enum spellings. */
#include <stdlib.h>
#include <string.h>

#include "mskel_internal.h"
#include "util/arena.h"

const char *const mskel_inherit_names[] = {"Normal", "OnlyTranslation", "NoRotationOrReflection",
                                            "NoScale", "NoScaleOrReflection", NULL};
const char *const mskel_blend_names[] = {"Normal", "Additive", "Multiply", "Screen", NULL};
const char *const mskel_attachment_names[] = {"Region",   "Mesh",  "LinkedMesh", "BoundingBox",
                                               "Clipping", "Point", "Path",       NULL};
const char *const mskel_constraint_names[] = {"ik", "transform", "path", "physics", NULL};
const char *const mskel_position_names[] = {"fixed", "percent", NULL};
const char *const mskel_spacing_names[] = {"length", "fixed", "percent", "proportional", NULL};
const char *const mskel_rotate_names[] = {"tangent", "chain", "chainScale", NULL};

static const char *name_of(const char *const *names, int count, int v)
{
    return v >= 0 && v < count ? names[v] : "?";
}

static int parse_of(const char *const *names, const char *s)
{
    if (!s) return -1;
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

const char *mf_inherit_name(mf_inherit v) { return name_of(mskel_inherit_names, MF_INHERIT_COUNT, (int)v); }
int mf_inherit_parse(const char *s) { return parse_of(mskel_inherit_names, s); }
const char *mf_blend_name(mf_blend v) { return name_of(mskel_blend_names, MF_BLEND_COUNT, (int)v); }
int mf_blend_parse(const char *s) { return parse_of(mskel_blend_names, s); }
const char *mf_attachment_type_name(mf_attachment_type v)
{
    return name_of(mskel_attachment_names, MF_ATTACH_TYPE_COUNT, (int)v);
}
int mf_attachment_type_parse(const char *s) { return parse_of(mskel_attachment_names, s); }
const char *mf_constraint_kind_name(mf_constraint_kind v)
{
    return name_of(mskel_constraint_names, MF_CONSTRAINT_KIND_COUNT, (int)v);
}
const char *mf_position_mode_name(mf_position_mode v) { return name_of(mskel_position_names, 2, (int)v); }
int mf_position_mode_parse(const char *s) { return parse_of(mskel_position_names, s); }
const char *mf_spacing_mode_name(mf_spacing_mode v) { return name_of(mskel_spacing_names, 4, (int)v); }
int mf_spacing_mode_parse(const char *s) { return parse_of(mskel_spacing_names, s); }
const char *mf_rotate_mode_name(mf_rotate_mode v) { return name_of(mskel_rotate_names, 3, (int)v); }
int mf_rotate_mode_parse(const char *s) { return parse_of(mskel_rotate_names, s); }

mf_skeleton *mf_skeleton_create(void)
{
    mf_skeleton *sk = calloc(1, sizeof *sk);
    if (!sk) return NULL;
    sk->arena = mf_arena_create();
    if (!sk->arena) {
        free(sk);
        return NULL;
    }
    sk->format = MF_SKELETON_FORMAT;
    sk->fps = 30.0f;
    mf_import_settings *im = &sk->import;
    im->images = mf_arena_strdup(sk->arena, "images/");
    im->page_size = 2048;
    im->padding = 2;
    im->scale = 1.0f;
    im->filter = mf_arena_strdup(sk->arena, "Linear");
    im->mipmaps = false;
    im->normal_suffix = mf_arena_strdup(sk->arena, "_n");
    if (!im->images || !im->filter || !im->normal_suffix) {
        mf_skeleton_free(sk);
        return NULL;
    }
    return sk;
}

void mf_skeleton_free(mf_skeleton *sk)
{
    if (!sk) return;
    mf_arena_destroy(sk->arena);
    free(sk);
}

void *mf_skeleton_alloc(mf_skeleton *sk, size_t size) { return sk ? mf_arena_alloc(sk->arena, size) : NULL; }

char *mf_skeleton_strdup(mf_skeleton *sk, const char *s)
{
    return sk && s ? mf_arena_strdup(sk->arena, s) : NULL;
}

/* Names may be NULL in a model under construction: skip those. */
static bool same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

int32_t mf_skeleton_find_bone(const mf_skeleton *sk, const char *name)
{
    for (int32_t i = 0; sk && i < sk->bone_count; i++)
        if (same(sk->bones[i].name, name)) return i;
    return -1;
}

int32_t mf_skeleton_find_slot(const mf_skeleton *sk, const char *name)
{
    for (int32_t i = 0; sk && i < sk->slot_count; i++)
        if (same(sk->slots[i].name, name)) return i;
    return -1;
}

int32_t mf_skeleton_find_skin(const mf_skeleton *sk, const char *name)
{
    for (int32_t i = 0; sk && i < sk->skin_count; i++)
        if (same(sk->skins[i].name, name)) return i;
    return -1;
}

int32_t mf_skeleton_find_event(const mf_skeleton *sk, const char *name)
{
    for (int32_t i = 0; sk && i < sk->event_count; i++)
        if (same(sk->events[i].name, name)) return i;
    return -1;
}

bool mf_skeleton_find_constraint(const mf_skeleton *sk, const char *name, mf_constraint_ref *out)
{
    if (!sk) return false;
    mf_constraint_ref r = {MF_CONSTRAINT_IK, -1};
    for (int32_t i = 0; r.index < 0 && i < sk->ik_count; i++)
        if (same(sk->ik[i].name, name)) r = (mf_constraint_ref){MF_CONSTRAINT_IK, i};
    for (int32_t i = 0; r.index < 0 && i < sk->transform_count; i++)
        if (same(sk->transform[i].name, name)) r = (mf_constraint_ref){MF_CONSTRAINT_TRANSFORM, i};
    for (int32_t i = 0; r.index < 0 && i < sk->path_count; i++)
        if (same(sk->path[i].name, name)) r = (mf_constraint_ref){MF_CONSTRAINT_PATH, i};
    for (int32_t i = 0; r.index < 0 && i < sk->physics_count; i++)
        if (same(sk->physics[i].name, name)) r = (mf_constraint_ref){MF_CONSTRAINT_PHYSICS, i};
    if (r.index < 0) return false;
    if (out) *out = r;
    return true;
}

const mf_attachment *mf_skin_find_attachment(const mf_skin *skin, int32_t slot, const char *name)
{
    for (int32_t i = 0; skin && i < skin->attachment_count; i++) {
        const mf_attachment *a = &skin->attachments[i];
        if (a->slot == slot && same(a->name, name)) return a;
    }
    return NULL;
}

const char *mf_attachment_display_name(const mf_attachment *a)
{
    if (!a) return NULL;
    return a->display_name && a->display_name[0] ? a->display_name : a->name;
}
