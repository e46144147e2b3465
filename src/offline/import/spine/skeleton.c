/* Spine JSON → rig: the skeleton header (version, fps), bones, slots and event definitions.
 * Positions flip y, angles and shears change sign (Spine is Y-up and counter-clockwise). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"
#include "util/suggest.h"

static const char *const ROOT_KEYS[] = {"skeleton", "bones", "slots", "ik", "transform", "path", "physics",
                                        "constraints", "skins", "events", "animations", NULL};
static const char *const HEADER_KEYS[] = {"hash", "spine", "x", "y", "width", "height", "referenceScale",
                                          "fps", "images", "audio", NULL};

bool sp_read_header(sp_ctx *c, const cJSON *root)
{
    sp_unknown_keys(c, root, ROOT_KEYS, "top-level");
    const cJSON *sk = sp_object(c, root, "skeleton");
    if (c->jr.failed) return false;
    c->major = 4, c->minor = 2;
    if (!sk) {
        sp_note_add(&c->rep, "version", NULL, "skeleton", "no \"skeleton\" section: read as a Spine 4.2 export");
        return true;
    }
    size_t m = mf_jr_key(&c->jr, "skeleton");
    sp_unknown_keys(c, sk, HEADER_KEYS, "skeleton");
    const char *version = NULL, *audio = NULL;
    float fps = 30, ref_scale = 100;
    bool ok = sp_string(c, sk, "spine", &version) && sp_string(c, sk, "audio", &audio) &&
              sp_float(c, sk, "fps", 30, &fps) && sp_float(c, sk, "referenceScale", 100, &ref_scale);
    if (ok && version) {
        int major = 0, minor = 0;
        if (sscanf(version, "%d.%d", &major, &minor) < 1) {
            ok = mf_jr_fail_at(&c->jr, "spine", "bad Spine version \"%s\"", version);
        } else if (major < 4) {
            ok = mf_jr_fail_at(&c->jr, "spine",
                               "Spine %s exports are not read: export JSON from Spine 4.0 or later", version);
        } else {
            c->major = major, c->minor = minor;
            if (major > 4 || minor > 3)
                sp_note_add(&c->rep, "version", NULL, "skeleton.spine",
                            "Spine %s is newer than 4.3: read as 4.2 (keys this importer does not know are listed)",
                            version);
        }
    } else if (ok) {
        sp_note_add(&c->rep, "version", NULL, "skeleton.spine", "no Spine version: read as a 4.2 export");
    }
    if (ok && !(fps > 0 && fps <= 1000)) {
        sp_note_add(&c->rep, "value", NULL, "skeleton.fps", "fps %g is out of range: 30 is used", (double)fps);
        fps = 30;
    }
    if (ok) c->sk->fps = fps;
    if (ok && audio && audio[0])
        sp_note_add(&c->rep, "path", NULL, "skeleton.audio",
                    "the audio folder \"%s\" is not kept: event audio paths stay relative to it", audio);
    if (ok && ref_scale != 100)
        sp_note_add(&c->rep, "unsupported", NULL, "skeleton.referenceScale",
                    "physics reference scale %g is not kept (physics uses pixels as they are)", (double)ref_scale);
    mf_jr_pop(&c->jr, m);
    return ok;
}

/* ---- bones ---- */

static const char *const BONE_KEYS[] = {"name", "parent", "length", "rotation", "x", "y", "scaleX", "scaleY",
                                        "shearX", "shearY", "transform", "inherit", "skin", "color", "icon",
                                        "visible", NULL};
static const char *const INHERIT_SPINE[] = {"normal", "onlyTranslation", "noRotationOrReflection", "noScale",
                                            "noScaleOrReflection", NULL};

static bool read_inherit(sp_ctx *c, const cJSON *obj, mf_inherit *out)
{
    const char *key = cJSON_GetObjectItemCaseSensitive(obj, "inherit") ? "inherit" : "transform";
    const char *s;
    *out = MF_INHERIT_NORMAL;
    if (!sp_string(c, obj, key, &s)) return false;
    if (!s) return true;
    for (int i = 0; INHERIT_SPINE[i]; i++)
        if (strcmp(INHERIT_SPINE[i], s) == 0) {
            *out = (mf_inherit)i;
            return true;
        }
    char sfx[200];
    mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(s, INHERIT_SPINE));
    return mf_jr_fail_at(&c->jr, key, "unknown inherit mode \"%s\"%s", s, sfx);
}

static bool read_bone(sp_ctx *c, const cJSON *obj, int32_t i)
{
    mf_bone *b = &c->sk->bones[i];
    const char *name, *parent;
    if (!mf_jr_expect_object(&c->jr, obj) || !sp_name(c, obj, "name", &name) || !sp_string(c, obj, "parent", &parent))
        return false;
    if (mf_skeleton_find_bone(c->sk, name) >= 0)
        return mf_jr_fail_at(&c->jr, "name", "duplicate bone \"%s\"", name);
    sp_unknown_keys(c, obj, BONE_KEYS, "bone");
    b->parent = -1;
    if (parent) {
        size_t m = mf_jr_key(&c->jr, "parent");
        b->parent = mf_skeleton_find_bone(c->sk, parent);
        bool ok = b->parent >= 0 || sp_fail_unknown(c, "bone", parent, (int)i, sp_bone_at, c->sk);
        mf_jr_pop(&c->jr, m);
        if (!ok) return false;
    }
    float rot = 0, y = 0, shx = 0, shy = 0;
    bool ok = sp_float(c, obj, "x", 0, &b->x) && sp_float(c, obj, "y", 0, &y) &&
              sp_float(c, obj, "rotation", 0, &rot) && sp_float(c, obj, "scaleX", 1, &b->sx) &&
              sp_float(c, obj, "scaleY", 1, &b->sy) && sp_float(c, obj, "shearX", 0, &shx) &&
              sp_float(c, obj, "shearY", 0, &shy) && sp_float(c, obj, "length", 0, &b->length) &&
              read_inherit(c, obj, &b->inherit) && sp_bool(c, obj, "skin", false, &b->skin_required) &&
              sp_color(c, obj, "color", 0x989898ffu, &b->color, NULL);
    if (!ok) return false;
    b->y = -y, b->rot = -rot, b->shx = -shx, b->shy = -shy;
    if (b->length < 0) {
        char where[600];
        sp_note_add(&c->rep, "value", "bone.length", sp_where(c, "length", where, sizeof where),
                    "negative length %g is kept as its size", (double)b->length);
        b->length = -b->length;
    }
    if (cJSON_GetObjectItemCaseSensitive(obj, "icon") || cJSON_GetObjectItemCaseSensitive(obj, "visible")) {
        char where[600];
        sp_note_add(&c->rep, "editor", "bone.icon", sp_where(c, "", where, sizeof where),
                    "editor-only bone icon / visibility is not kept");
    }
    if (!(b->name = sp_strdup(c, name))) return false;
    c->sk->bone_count = i + 1;
    return true;
}

bool sp_read_bones(sp_ctx *c, const cJSON *root)
{
    const cJSON *arr = sp_array(c, root, "bones");
    if (c->jr.failed) return false;
    int n = arr ? cJSON_GetArraySize(arr) : 0;
    if (n == 0) return mf_jr_fail(&c->jr, "no \"bones\": a Spine skeleton has at least a root bone");
    if (!(c->sk->bones = sp_alloc(c, (size_t)n, sizeof(mf_bone)))) return false;
    size_t m = mf_jr_key(&c->jr, "bones");
    int32_t i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&c->jr, (int)i);
        ok = read_bone(c, e, i);
        mf_jr_pop(&c->jr, mi);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}

/* ---- slots ---- */

static const char *const SLOT_KEYS[] = {"name", "bone", "color", "dark", "attachment", "blend", "visible", NULL};
static const char *const BLEND_SPINE[] = {"normal", "additive", "multiply", "screen", NULL};

static bool read_slot(sp_ctx *c, const cJSON *obj, int32_t i)
{
    mf_slot *s = &c->sk->slots[i];
    const char *name, *attachment, *blend;
    if (!mf_jr_expect_object(&c->jr, obj) || !sp_name(c, obj, "name", &name)) return false;
    if (mf_skeleton_find_slot(c->sk, name) >= 0)
        return mf_jr_fail_at(&c->jr, "name", "duplicate slot \"%s\"", name);
    sp_unknown_keys(c, obj, SLOT_KEYS, "slot");
    if (!sp_bone_ref(c, obj, "bone", &s->bone) || !sp_color(c, obj, "color", 0xffffffffu, &s->color, NULL) ||
        !sp_color(c, obj, "dark", 0, &s->dark, &s->has_dark) || !sp_string(c, obj, "attachment", &attachment) ||
        !sp_string(c, obj, "blend", &blend))
        return false;
    s->dark |= 0xffu; /* only RGB is kept */
    s->blend = MF_BLEND_NORMAL;
    if (blend) {
        int b = -1;
        for (int k = 0; BLEND_SPINE[k]; k++)
            if (strcmp(BLEND_SPINE[k], blend) == 0) b = k;
        if (b < 0) {
            char sfx[200];
            mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(blend, BLEND_SPINE));
            return mf_jr_fail_at(&c->jr, "blend", "unknown blend mode \"%s\"%s", blend, sfx);
        }
        s->blend = (mf_blend)b;
    }
    if (cJSON_GetObjectItemCaseSensitive(obj, "visible")) {
        char where[600];
        sp_note_add(&c->rep, "editor", "slot.visible", sp_where(c, "visible", where, sizeof where),
                    "editor-only slot visibility is not kept");
    }
    if (!(s->name = sp_strdup(c, name))) return false;
    if (attachment && !(s->attachment = sp_strdup(c, attachment))) return false;
    c->sk->slot_count = i + 1;
    return true;
}

bool sp_read_slots(sp_ctx *c, const cJSON *root)
{
    const cJSON *arr = sp_array(c, root, "slots");
    if (c->jr.failed) return false;
    int n = arr ? cJSON_GetArraySize(arr) : 0;
    if (n == 0) return true;
    if (!(c->sk->slots = sp_alloc(c, (size_t)n, sizeof(mf_slot)))) return false;
    size_t m = mf_jr_key(&c->jr, "slots");
    int32_t i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&c->jr, (int)i);
        ok = read_slot(c, e, i);
        mf_jr_pop(&c->jr, mi);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}

/* ---- events ---- */

static const char *const EVENT_KEYS[] = {"int", "float", "string", "audio", "volume", "balance", NULL};

bool sp_read_events(sp_ctx *c, const cJSON *root)
{
    const cJSON *obj = sp_object(c, root, "events");
    if (c->jr.failed) return false;
    int n = obj ? cJSON_GetArraySize(obj) : 0;
    if (n == 0) return true;
    if (!(c->sk->events = sp_alloc(c, (size_t)n, sizeof(mf_event_def)))) return false;
    size_t m = mf_jr_key(&c->jr, "events");
    bool ok = true;
    for (const cJSON *e = obj->child; e && ok; e = e->next) {
        mf_event_def *ev = &c->sk->events[c->sk->event_count];
        const char *name = e->string ? e->string : "";
        size_t me = mf_jr_key(&c->jr, name);
        const char *str = NULL, *audio = NULL;
        ok = mf_jr_expect_object(&c->jr, e);
        if (ok && !name[0]) ok = mf_jr_fail(&c->jr, "an event name must not be empty");
        if (ok && mf_skeleton_find_event(c->sk, name) >= 0) ok = mf_jr_fail(&c->jr, "duplicate event \"%s\"", name);
        if (ok) sp_unknown_keys(c, e, EVENT_KEYS, "event");
        ok = ok && sp_int(c, e, "int", 0, &ev->int_value) && sp_float(c, e, "float", 0, &ev->float_value) &&
             sp_string(c, e, "string", &str) && sp_string(c, e, "audio", &audio) &&
             sp_float(c, e, "volume", 1, &ev->volume) && sp_float(c, e, "balance", 0, &ev->balance);
        if (ok && ev->volume < 0) {
            char where[600];
            sp_note_add(&c->rep, "value", NULL, sp_where(c, "volume", where, sizeof where),
                        "negative volume %g is written as 0", (double)ev->volume);
            ev->volume = 0;
        }
        if (ok && (ev->balance < -1 || ev->balance > 1)) {
            char where[600];
            sp_note_add(&c->rep, "value", NULL, sp_where(c, "balance", where, sizeof where),
                        "balance %g is clamped to -1..1", (double)ev->balance);
            ev->balance = ev->balance < -1 ? -1 : 1;
        }
        ok = ok && (ev->name = sp_strdup(c, name)) != NULL;
        if (ok && str && str[0]) ok = (ev->string_value = sp_strdup(c, str)) != NULL;
        if (ok && audio && audio[0]) ok = (ev->audio = sp_strdup(c, audio)) != NULL;
        if (ok) c->sk->event_count++;
        mf_jr_pop(&c->jr, me);
    }
    mf_jr_pop(&c->jr, m);
    return ok;
}
