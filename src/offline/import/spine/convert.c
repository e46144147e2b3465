/* mf_spine_convert: Spine JSON text → rig model, clips, image list and report, in memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spine_internal.h"

/* "skl_" + 12 hex digits of a hash of the rig's name: a re-import keeps the uid, so clips made
 * for the rig in mfanim stay attached to it. */
static void skeleton_uid(const char *name, char out[17])
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = "spine:"; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    for (const char *p = name; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    snprintf(out, 17, "skl_%012llx", (unsigned long long)(h & 0xffffffffffffull));
}

static bool looks_binary(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
    if (i + 3 <= len && (unsigned char)s[i] == 0xef && (unsigned char)s[i + 1] == 0xbb && (unsigned char)s[i + 2] == 0xbf)
        return false; /* a UTF-8 byte order mark */
    if (i < len && (s[i] == '{' || s[i] == '[')) return false;
    for (size_t k = i; k < len && k < i + 64; k++)
        if (s[k] == '\0' || ((unsigned char)s[k] < 0x20 && s[k] != '\n' && s[k] != '\r' && s[k] != '\t')) return true;
    return false;
}

static int cmp_image(const void *a, const void *b)
{
    return strcmp(((const sp_image_ref *)a)->name, ((const sp_image_ref *)b)->name);
}

/* The sorted, unique image list (keeping the first use of each, in file order). */
static bool finish_images(sp_ctx *c, mf_spine_rig *rig)
{
    int32_t n = c->image_count;
    sp_image_ref *v = malloc(((size_t)n + 1) * sizeof *v);
    if (!v) return sp_oom(c);
    for (int32_t i = 0; i < n; i++) v[i] = c->images[i];
    /* stable: merge by index order on ties */
    for (int32_t i = 1; i < n; i++) {
        sp_image_ref x = v[i];
        int32_t j = i - 1;
        while (j >= 0 && cmp_image(&v[j], &x) > 0) v[j + 1] = v[j], j--;
        v[j + 1] = x;
    }
    rig->images = calloc((size_t)n + 1, sizeof *rig->images);
    rig->image_where = calloc((size_t)n + 1, sizeof *rig->image_where);
    if (!rig->images || !rig->image_where) {
        free(v);
        return sp_oom(c);
    }
    int32_t u = 0;
    for (int32_t i = 0; i < n; i++) {
        if (u > 0 && strcmp(rig->images[u - 1], v[i].name) == 0) continue;
        rig->images[u] = v[i].name;
        rig->image_where[u] = v[i].where;
        u++;
    }
    rig->image_count = u;
    free(v);
    return true;
}

static bool convert(sp_ctx *c, const cJSON *root)
{
    return mf_jr_expect_object(&c->jr, root) && sp_read_header(c, root) && sp_read_bones(c, root) &&
           sp_read_slots(c, root) && sp_read_constraints(c, root) && sp_read_events(c, root) &&
           sp_read_skins(c, root) && sp_read_animations(c, root);
}

mf_result mf_spine_convert(const char *json, size_t len, const char *file, const char *name,
                           mf_spine_rig **out, mf_diag *diag)
{
    *out = NULL;
    file = file ? file : "";
    name = name && name[0] ? name : "rig";
    mf_diag_clear(diag);
    if (looks_binary(json, len)) {
        mf_diag_set(diag, file, "", "binary Spine exports are not read: export JSON from Spine");
        return MF_ERR_UNSUPPORTED;
    }
    mf_spine_rig *rig = calloc(1, sizeof *rig);
    sp_ctx c;
    memset(&c, 0, sizeof c);
    mf_jr_init(&c.jr, file, diag);
    c.file = file;
    c.name = name;
    if (!rig || !(c.sk = mf_skeleton_create())) {
        free(rig);
        mf_diag_set(diag, file, "", "out of memory");
        return MF_ERR_NOMEM;
    }
    char uid[17];
    skeleton_uid(name, uid);
    c.sk->uid = mf_skeleton_strdup(c.sk, uid);
    if (len >= 3 && memcmp(json, "\xef\xbb\xbf", 3) == 0) json += 3, len -= 3; /* a UTF-8 byte order mark */
    cJSON *root = mf_jr_parse(&c.jr, json, len);
    bool ok = root && c.sk->uid && convert(&c, root);
    cJSON_Delete(root);
    if (ok && c.clip_count > 0)
        sp_note_add(&c.rep, "clip", NULL, "animations",
                    "Spine animations carry no loop mode: clips are written with loop \"None\" (the player chooses)");
    if (ok) ok = finish_images(&c, rig);
    if (ok && c.rep.oom) ok = sp_oom(&c);
    rig->skeleton = c.sk;
    rig->clips = c.clips;
    rig->clip_count = c.clip_count;
    if (ok && !(rig->report = sp_report_lines(&c.rep, &rig->report_count))) ok = sp_oom(&c);
    sp_report_free(&c.rep);
    if (!ok) {
        mf_spine_rig_free(rig);
        bool nomem = strcmp(diag ? diag->message : "", "out of memory") == 0;
        return nomem ? MF_ERR_NOMEM : MF_ERR_INVALID;
    }
    *out = rig;
    return MF_OK;
}

void mf_spine_rig_free(mf_spine_rig *rig)
{
    if (!rig) return;
    for (int32_t i = 0; i < rig->clip_count; i++) mf_clip_free(rig->clips[i]);
    free(rig->clips);
    for (int32_t i = 0; i < rig->report_count; i++) free(rig->report[i]);
    free(rig->report);
    free(rig->images); /* the names live in the skeleton's arena */
    free(rig->image_where);
    mf_skeleton_free(rig->skeleton);
    free(rig);
}
