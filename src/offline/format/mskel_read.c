/* The .mskel reader: top level, import settings, bones, slots and events. Constraints and skins
 * have their own files. Every failure is located by JSON path (see mskel_internal.h). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "mskel_internal.h"
#include "util/files.h"
#include "util/suggest.h"

static const char *const top_keys[] = {"format", "uid",  "type",      "fps",  "clips",
                                       "import", "bones", "slots",    "ik",   "transform",
                                       "path",   "physics", "events", "skins", NULL};
static const char *const import_keys[] = {"images", "pageSize", "padding", "scale",
                                          "filter", "mipmaps",  "normalSuffix", NULL};
static const char *const filter_names[] = {"Linear", "Nearest", NULL};
static const char *const bone_keys[] = {"name", "parent", "x",      "y",       "rot",
                                        "sx",   "sy",     "shx",    "shy",     "length",
                                        "inherit", "color", "skinRequired", NULL};
static const char *const slot_keys[] = {"name", "bone", "attachment", "color", "dark", "blend", NULL};
static const char *const event_keys[] = {"name",  "int",    "float",   "string",
                                         "audio", "volume", "balance", NULL};

/* A required member that must be present (the getters treat absence as the default). */
static bool require(mskel_rd *rd, const cJSON *obj, const char *key)
{
    if (rd->jr.failed) return false;
    if (cJSON_GetObjectItemCaseSensitive(obj, key)) return true;
    return mf_jr_fail(&rd->jr, "missing \"%s\"", key);
}

static bool valid_uid(const char *s)
{
    if (strncmp(s, "skl_", 4) != 0 || strlen(s) != 16) return false;
    for (int i = 4; i < 16; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return false;
    return true;
}

static bool read_header(mskel_rd *rd, const cJSON *root, bool *newer)
{
    mf_skeleton *sk = rd->sk;
    int32_t format = 0;
    if (!require(rd, root, "format") || !mf_jr_int(&rd->jr, root, "format", 0, &format)) return false;
    if (format != MF_SKELETON_FORMAT) {
        *newer = format > MF_SKELETON_FORMAT;
        return mf_jr_fail_at(&rd->jr, "format", "unsupported format %d (this version reads %d)",
                             (int)format, MF_SKELETON_FORMAT);
    }
    sk->format = format;
    if (!require(rd, root, "uid") || !mf_jr_name(&rd->jr, sk->arena, root, "uid", &sk->uid))
        return false;
    if (!valid_uid(sk->uid))
        return mf_jr_fail_at(&rd->jr, "uid", "bad uid \"%s\": expected \"skl_\" and 12 lowercase hex digits", sk->uid);
    char *type = NULL;
    if (!require(rd, root, "type") || !mf_jr_string(&rd->jr, sk->arena, root, "type", NULL, &type))
        return false;
    if (strcmp(type, "Skeleton") != 0)
        return mf_jr_fail_at(&rd->jr, "type", "expected \"Skeleton\", got \"%s\"", type);
    if (!mf_jr_float(&rd->jr, root, "fps", 30.0f, &sk->fps)) return false;
    if (!(sk->fps > 0.0f)) return mf_jr_fail_at(&rd->jr, "fps", "must be positive");
    return mskel_opt_name(rd, root, "clips", &sk->clips);
}

static bool read_import(mskel_rd *rd, const cJSON *root)
{
    const cJSON *im = mskel_get_object(rd, root, "import");
    if (rd->jr.failed) return false;
    if (!im) return true; /* defaults from mf_skeleton_create */
    mf_import_settings *s = &rd->sk->import;
    mf_arena *a = rd->sk->arena;
    size_t m = mf_jr_key(&rd->jr, "import");
    int filter = 0;
    bool ok = mf_jr_keys(&rd->jr, im, import_keys) &&
              mf_jr_string(&rd->jr, a, im, "images", "images/", &s->images) &&
              mf_jr_int(&rd->jr, im, "pageSize", 2048, &s->page_size) &&
              mf_jr_int(&rd->jr, im, "padding", 2, &s->padding) &&
              mf_jr_float(&rd->jr, im, "scale", 1.0f, &s->scale) &&
              mskel_enum(rd, im, "filter", "filter", filter_names, 0, &filter) &&
              mf_jr_bool(&rd->jr, im, "mipmaps", false, &s->mipmaps) &&
              mf_jr_string(&rd->jr, a, im, "normalSuffix", "_n", &s->normal_suffix);
    if (ok && s->page_size <= 0) ok = mf_jr_fail_at(&rd->jr, "pageSize", "must be positive");
    if (ok && s->padding < 0) ok = mf_jr_fail_at(&rd->jr, "padding", "must not be negative");
    if (ok && !(s->scale > 0.0f)) ok = mf_jr_fail_at(&rd->jr, "scale", "must be positive");
    if (ok && !s->normal_suffix[0]) ok = mf_jr_fail_at(&rd->jr, "normalSuffix", "must not be empty");
    if (ok) s->filter = mf_skeleton_strdup(rd->sk, filter_names[filter]);
    mf_jr_pop(&rd->jr, m);
    return ok;
}

static const char *bone_name(const mf_skeleton *sk, int32_t i) { return sk->bones[i].name; }
static const char *slot_name(const mf_skeleton *sk, int32_t i) { return sk->slots[i].name; }
static const char *event_name(const mf_skeleton *sk, int32_t i) { return sk->events[i].name; }

/* Pass 2 of the bones: everything but the name. Parents must come first. */
static bool read_bone(mskel_rd *rd, const cJSON *obj, int32_t i)
{
    mf_bone *b = &rd->sk->bones[i];
    b->parent = -1;
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(obj, "parent");
    if (p) {
        size_t m = mf_jr_key(&rd->jr, "parent");
        bool ok = true;
        if (!cJSON_IsString(p) || !p->valuestring[0]) {
            ok = mf_jr_fail(&rd->jr, "expected a bone name, got %s",
                            cJSON_IsString(p) ? "an empty string" : mf_jr_type_name(p));
        } else {
            b->parent = mf_skeleton_find_bone(rd->sk, p->valuestring);
            if (b->parent < 0) ok = mskel_unknown_bone(rd, p->valuestring);
            else if (b->parent == i) ok = mf_jr_fail(&rd->jr, "a bone cannot be its own parent");
            else if (b->parent > i)
                ok = mf_jr_fail(&rd->jr,
                                "parent \"%s\" comes after this bone (bones[%d]): parents must come before their children",
                                p->valuestring, (int)b->parent);
        }
        mf_jr_pop(&rd->jr, m);
        if (!ok) return false;
    }
    int inherit = 0;
    bool ok = mf_jr_float(&rd->jr, obj, "x", 0, &b->x) && mf_jr_float(&rd->jr, obj, "y", 0, &b->y) &&
              mf_jr_float(&rd->jr, obj, "rot", 0, &b->rot) &&
              mf_jr_float(&rd->jr, obj, "sx", 1, &b->sx) && mf_jr_float(&rd->jr, obj, "sy", 1, &b->sy) &&
              mf_jr_float(&rd->jr, obj, "shx", 0, &b->shx) &&
              mf_jr_float(&rd->jr, obj, "shy", 0, &b->shy) &&
              mskel_float_range(rd, obj, "length", 0, 0, FLT_MAX, &b->length) &&
              mskel_enum(rd, obj, "inherit", "inherit", mskel_inherit_names, 0, &inherit) &&
              mf_jr_color(&rd->jr, obj, "color", 0x989898ffu, &b->color, NULL) &&
              mf_jr_bool(&rd->jr, obj, "skinRequired", false, &b->skin_required);
    b->inherit = (mf_inherit)inherit;
    return ok;
}

static bool read_bones(mskel_rd *rd, const cJSON *root)
{
    const cJSON *arr = mskel_get_array(rd, root, "bones");
    if (!arr || !mskel_all_objects(rd, arr, "bones")) return !rd->jr.failed;
    int n = cJSON_GetArraySize(arr);
    mf_skeleton *sk = rd->sk;
    if (!(sk->bones = mskel_array_alloc(rd, (size_t)n, sizeof *sk->bones))) return false;
    size_t m = mf_jr_key(&rd->jr, "bones");
    /* pass 1: names, so that a parent named later gets a precise message */
    int32_t i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&rd->jr, (int)i);
        ok = mf_jr_keys(&rd->jr, e, bone_keys) &&
             mf_jr_name(&rd->jr, sk->arena, e, "name", &sk->bones[i].name) &&
             mskel_check_unique(rd, "bone", "bones", sk->bones[i].name, i, bone_name);
        sk->bone_count = i + 1;
        mf_jr_pop(&rd->jr, mi);
    }
    i = 0;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&rd->jr, (int)i);
        ok = read_bone(rd, e, i);
        mf_jr_pop(&rd->jr, mi);
    }
    mf_jr_pop(&rd->jr, m);
    return ok;
}

static bool read_dark(mskel_rd *rd, const cJSON *obj, mf_slot *s)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "dark");
    if (!v) return true;
    size_t m = mf_jr_key(&rd->jr, "dark");
    bool ok = true;
    if (cJSON_IsString(v) && strlen(v->valuestring) == 9 && v->valuestring[0] == '#')
        ok = mf_jr_fail(&rd->jr, "bad colour \"%s\": the dark colour has no alpha, expected \"#rrggbb\"",
                        v->valuestring);
    ok = ok && mf_jr_color_value(&rd->jr, v, &s->dark);
    s->has_dark = ok;
    mf_jr_pop(&rd->jr, m);
    return ok;
}

static bool read_slot(mskel_rd *rd, const cJSON *obj, int32_t i)
{
    mf_slot *s = &rd->sk->slots[i];
    int blend = 0;
    bool ok = mf_jr_keys(&rd->jr, obj, slot_keys) &&
              mf_jr_name(&rd->jr, rd->sk->arena, obj, "name", &s->name) &&
              mskel_check_unique(rd, "slot", "slots", s->name, i, slot_name) &&
              mskel_bone_ref(rd, obj, "bone", &s->bone) &&
              mskel_opt_name(rd, obj, "attachment", &s->attachment) &&
              mf_jr_color(&rd->jr, obj, "color", 0xffffffffu, &s->color, NULL) && read_dark(rd, obj, s) &&
              mskel_enum(rd, obj, "blend", "blend", mskel_blend_names, 0, &blend);
    s->blend = (mf_blend)blend;
    return ok;
}

static bool read_event(mskel_rd *rd, const cJSON *obj, int32_t i)
{
    mf_event_def *ev = &rd->sk->events[i];
    mf_arena *a = rd->sk->arena;
    return mf_jr_keys(&rd->jr, obj, event_keys) && mf_jr_name(&rd->jr, a, obj, "name", &ev->name) &&
           mskel_check_unique(rd, "event", "events", ev->name, i, event_name) &&
           mf_jr_int(&rd->jr, obj, "int", 0, &ev->int_value) &&
           mf_jr_float(&rd->jr, obj, "float", 0, &ev->float_value) &&
           mf_jr_string(&rd->jr, a, obj, "string", NULL, &ev->string_value) &&
           mf_jr_string(&rd->jr, a, obj, "audio", NULL, &ev->audio) &&
           mf_jr_float(&rd->jr, obj, "volume", 1, &ev->volume) &&
           mskel_float_range(rd, obj, "balance", 0, -1, 1, &ev->balance);
}

/* Reads array key of root element by element; *count grows as elements are read so that the
 * uniqueness checks see the earlier ones. */
static bool read_list(mskel_rd *rd, const cJSON *root, const char *key, size_t size, void **items,
                      int32_t *count, bool (*fn)(mskel_rd *, const cJSON *, int32_t))
{
    const cJSON *arr = mskel_get_array(rd, root, key);
    if (!arr || !mskel_all_objects(rd, arr, key)) return !rd->jr.failed;
    int n = cJSON_GetArraySize(arr);
    if (!(*items = mskel_array_alloc(rd, (size_t)n, size))) return false;
    size_t m = mf_jr_key(&rd->jr, key);
    int32_t i = 0;
    bool ok = true;
    for (const cJSON *e = arr->child; e && ok; e = e->next, i++) {
        size_t mi = mf_jr_index(&rd->jr, (int)i);
        *count = i;
        ok = fn(rd, e, i);
        *count = i + 1;
        mf_jr_pop(&rd->jr, mi);
    }
    mf_jr_pop(&rd->jr, m);
    return ok;
}

/* A slot's setup attachment must exist in some skin for that slot. */
static bool check_setup_attachments(mskel_rd *rd)
{
    const mf_skeleton *sk = rd->sk;
    for (int32_t i = 0; i < sk->slot_count; i++) {
        const mf_slot *s = &sk->slots[i];
        if (!s->attachment) continue;
        bool found = false;
        for (int32_t k = 0; k < sk->skin_count && !found; k++)
            found = mf_skin_find_attachment(&sk->skins[k], i, s->attachment) != NULL;
        if (found) continue;
        /* suggest among the slot's attachments in all skins */
        int total = 0;
        for (int32_t k = 0; k < sk->skin_count; k++) total += sk->skins[k].attachment_count;
        const char **names = calloc((size_t)total + 1, sizeof *names);
        int n = 0;
        for (int32_t k = 0; names && k < sk->skin_count; k++)
            for (int32_t j = 0; j < sk->skins[k].attachment_count; j++)
                if (sk->skins[k].attachments[j].slot == i) names[n++] = sk->skins[k].attachments[j].name;
        char sfx[160];
        mf_suggest_suffix(sfx, sizeof sfx, names ? mf_suggest_list(s->attachment, names) : NULL);
        free(names);
        size_t m = mf_jr_key(&rd->jr, "slots");
        mf_jr_index(&rd->jr, (int)i);
        mf_jr_key(&rd->jr, "attachment");
        mf_jr_fail(&rd->jr, "no skin has an attachment \"%s\" for slot \"%s\"%s", s->attachment,
                   s->name, sfx);
        mf_jr_pop(&rd->jr, m);
        return false;
    }
    return true;
}

mf_result mf_skeleton_parse(const char *json, size_t len, const char *file, mf_skeleton **out,
                            mf_diag *diag)
{
    if (!out || (!json && len)) {
        mf_diag_set(diag, file ? file : "", "", "mf_skeleton_parse: bad arguments");
        return MF_ERR_ARGUMENT;
    }
    *out = NULL;
    mskel_rd rd;
    memset(&rd, 0, sizeof rd);
    mf_jr_init(&rd.jr, file, diag);
    cJSON *root = mf_jr_parse(&rd.jr, json ? json : "", len);
    if (!root) return MF_ERR_INVALID;
    rd.sk = mf_skeleton_create();
    if (!rd.sk) {
        cJSON_Delete(root);
        mf_diag_set(diag, file ? file : "", "", "out of memory");
        return MF_ERR_NOMEM;
    }
    mf_skeleton *sk = rd.sk;
    bool newer = false;
    bool ok = mf_jr_expect_object(&rd.jr, root) && mf_jr_keys(&rd.jr, root, top_keys) &&
              read_header(&rd, root, &newer) && read_import(&rd, root) && read_bones(&rd, root) &&
              read_list(&rd, root, "slots", sizeof(mf_slot), (void **)&sk->slots, &sk->slot_count, read_slot) &&
              mskel_read_constraints(&rd, root) &&
              read_list(&rd, root, "events", sizeof(mf_event_def), (void **)&sk->events,
                        &sk->event_count, read_event) &&
              mskel_read_skins(&rd, root) && check_setup_attachments(&rd);
    cJSON_Delete(root);
    if (!ok) {
        mf_skeleton_free(sk);
        return rd.nomem ? MF_ERR_NOMEM : newer ? MF_ERR_UNSUPPORTED : MF_ERR_INVALID;
    }
    *out = sk;
    return MF_OK;
}

mf_result mf_skeleton_load(const char *path, mf_skeleton **out, mf_diag *diag)
{
    if (out) *out = NULL;
    if (!path || !out) {
        mf_diag_set(diag, "", "", "mf_skeleton_load: bad arguments");
        return MF_ERR_ARGUMENT;
    }
    char *text = NULL;
    size_t len = 0;
    mf_result r = mf_read_file(path, &text, &len, diag);
    if (r != MF_OK) return r;
    r = mf_skeleton_parse(text, len, path, out, diag);
    free(text);
    return r;
}
