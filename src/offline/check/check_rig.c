/* Checks of a rig on its own: weights, influence cap, shear on IK chains, setup attachments,
 * mesh uvs and images on disk. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mf/mf_check.h"
#include "util/suggest.h"

#define WEIGHT_TOLERANCE 0.01f /* exporters round weights; a real mistake is far larger */
#define UV_TOLERANCE 0.001f

static mf_finding *add(mf_check_report *rep, mf_check_kind k, const char *sk, const char *subject,
                       const char *file, const char *where)
{
    return mf_check_add(rep, k, sk, subject, file, where);
}

static void attachment_subject(const mf_skeleton *sk, const mf_skin *skin, const mf_attachment *at, char *out,
                               size_t n)
{
    snprintf(out, n, "%s/%s/%s", skin->name, sk->slots[at->slot].name, at->name);
}

static void check_weights(const mf_skeleton *sk, int32_t s, int32_t a, const char *file, mf_check_report *rep)
{
    const mf_skin *skin = &sk->skins[s];
    const mf_attachment *at = &skin->attachments[a];
    const mf_vertices *v = &at->vertices;
    if (v->xy || !v->first || !v->infl) return;
    int32_t bad_sum = 0, first_sum = -1, bad_cap = 0, first_cap = -1;
    float sum_at_first = 0;
    int32_t most = 0;
    for (int32_t i = 0; i < v->count; i++) {
        int32_t n = v->first[i + 1] - v->first[i];
        float sum = 0;
        for (int32_t k = v->first[i]; k < v->first[i + 1]; k++) sum += v->infl[k].weight;
        if (fabsf(sum - 1.0f) > WEIGHT_TOLERANCE) {
            if (first_sum < 0) first_sum = i, sum_at_first = sum;
            bad_sum++;
        }
        if (n > MF_MAX_INFLUENCES) {
            if (first_cap < 0) first_cap = i;
            if (n > most) most = n;
            bad_cap++;
        }
    }
    char subject[160], where[256];
    attachment_subject(sk, skin, at, subject, sizeof subject);
    if (bad_sum) {
        snprintf(where, sizeof where, "skins[%d].attachments[%d].weights.v[%d]", (int)s, (int)a, (int)first_sum);
        mf_finding *f = add(rep, MF_CHECK_WEIGHT_SUM, "attachment", subject, file, where);
        if (f) {
            snprintf(f->message, sizeof f->message, "vertex %d's weights sum to %g, not 1", (int)first_sum,
                     (double)sum_at_first);
            if (bad_sum > 1)
                snprintf(f->message + strlen(f->message), sizeof f->message - strlen(f->message),
                         " (%d vertices of %d are off)", (int)bad_sum, (int)v->count);
            snprintf(f->fix, sizeof f->fix, "normalise each vertex's weights so they add up to 1");
        }
    }
    if (bad_cap) {
        snprintf(where, sizeof where, "skins[%d].attachments[%d].weights.v[%d]", (int)s, (int)a, (int)first_cap);
        mf_finding *f = add(rep, MF_CHECK_INFLUENCE_CAP, "attachment", subject, file, where);
        if (f) {
            snprintf(f->message, sizeof f->message, "%d vertices have more than %d influences (up to %d)",
                     (int)bad_cap, MF_MAX_INFLUENCES, (int)most);
            snprintf(f->fix, sizeof f->fix,
                     "keep the %d largest weights of each vertex and renormalise them", MF_MAX_INFLUENCES);
        }
    }
}

static void check_uvs(const mf_skeleton *sk, int32_t s, int32_t a, const char *file, mf_check_report *rep)
{
    const mf_skin *skin = &sk->skins[s];
    const mf_attachment *at = &skin->attachments[a];
    if (at->type != MF_ATTACH_MESH || !at->uvs) return;
    for (int32_t i = 0; i < 2 * at->uv_count; i++) {
        float u = at->uvs[i];
        if (u >= -UV_TOLERANCE && u <= 1 + UV_TOLERANCE) continue;
        char subject[160], where[256];
        attachment_subject(sk, skin, at, subject, sizeof subject);
        snprintf(where, sizeof where, "skins[%d].attachments[%d].uvs[%d]", (int)s, (int)a, (int)i);
        mf_finding *f = add(rep, MF_CHECK_UV_RANGE, "attachment", subject, file, where);
        if (f) {
            snprintf(f->message, sizeof f->message, "uv %g lies outside the image (0..1)", (double)u);
            snprintf(f->fix, sizeof f->fix, "move the vertex's uv inside the image, or enlarge the image");
        }
        return; /* one finding an attachment is enough to look at it */
    }
}

static bool file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    fclose(f);
    return true;
}

static void check_images(const mf_skeleton *sk, int32_t s, int32_t a, const char *file, const char *dir,
                         mf_check_report *rep)
{
    const mf_skin *skin = &sk->skins[s];
    const mf_attachment *at = &skin->attachments[a];
    if (at->type != MF_ATTACH_REGION && at->type != MF_ATTACH_MESH && at->type != MF_ATTACH_LINKED_MESH) return;
    const char *name = at->image ? at->image : at->name;
    int32_t frames = at->sequence.count > 0 ? at->sequence.count : 1;
    int32_t missing = 0;
    char first[300] = "";
    for (int32_t i = 0; i < frames && i < 100000; i++) {
        char img[300], path[1400];
        if (at->sequence.count > 0)
            snprintf(img, sizeof img, "%s%0*ld", name, (int)at->sequence.digits, (long)at->sequence.start + i);
        else
            snprintf(img, sizeof img, "%s", name);
        snprintf(path, sizeof path, "%s%s.png", dir, img);
        if (file_exists(path)) continue;
        if (!missing) snprintf(first, sizeof first, "%s", img);
        missing++;
    }
    if (!missing) return;
    char where[256];
    snprintf(where, sizeof where, "skins[%d].attachments[%d].%s", (int)s, (int)a,
             at->image && strcmp(at->image, at->name) != 0 ? "image" : "name");
    mf_finding *f = add(rep, MF_CHECK_MISSING_IMAGE, "image", first, file, where);
    if (f) {
        if (frames > 1)
            snprintf(f->message, sizeof f->message, "%d of %d sequence frames of %s/%s are missing from %s (first: %s.png)",
                     (int)missing, (int)frames, sk->slots[at->slot].name, at->name, dir, first);
        else
            snprintf(f->message, sizeof f->message, "attachment %s/%s needs %s%s.png, which does not exist",
                     sk->slots[at->slot].name, at->name, dir, first);
        snprintf(f->fix, sizeof f->fix, "add %s.png to %s, or point the attachment's \"image\" at an existing one",
                 first, dir);
    }
}

static void check_ik_shear(const mf_skeleton *sk, const char *file, mf_check_report *rep)
{
    for (int32_t i = 0; i < sk->ik_count; i++) {
        const mf_ik_constraint *c = &sk->ik[i];
        for (int32_t k = 0; k < c->bone_count; k++) {
            int32_t b = c->bones[k];
            if (b < 0 || b >= sk->bone_count) continue;
            const mf_bone *bone = &sk->bones[b];
            if (bone->shx == 0 && bone->shy == 0) continue;
            char where[64];
            snprintf(where, sizeof where, "bones[%d].%s", (int)b, bone->shx != 0 ? "shx" : "shy");
            mf_finding *f = add(rep, MF_CHECK_IK_SHEAR, "constraint", c->name, file, where);
            if (f) {
                snprintf(f->message, sizeof f->message,
                         "bone \"%s\" of the IK chain has shear (%g, %g) in its setup pose: the solved chain "
                         "will not reach the target exactly",
                         bone->name, (double)bone->shx, (double)bone->shy);
                snprintf(f->fix, sizeof f->fix, "set shx and shy of \"%s\" to 0, or move the shear to a child bone",
                         bone->name);
            }
        }
    }
}


static void check_setup_attachments(const mf_skeleton *sk, const char *file, mf_check_report *rep)
{
    for (int32_t i = 0; i < sk->slot_count; i++) {
        const mf_slot *slot = &sk->slots[i];
        if (!slot->attachment) continue;
        bool found = false;
        const char *cands[64];
        int nc = 0;
        for (int32_t s = 0; s < sk->skin_count && !found; s++) {
            const mf_skin *skin = &sk->skins[s];
            for (int32_t a = 0; a < skin->attachment_count; a++) {
                if (skin->attachments[a].slot != i) continue;
                if (strcmp(skin->attachments[a].name, slot->attachment) == 0) found = true;
                else if (nc < 63) cands[nc++] = skin->attachments[a].name;
            }
        }
        if (found) continue;
        cands[nc] = NULL;
        char where[64], sfx[200];
        snprintf(where, sizeof where, "slots[%d].attachment", (int)i);
        mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(slot->attachment, cands));
        mf_finding *f = add(rep, MF_CHECK_SETUP_ATTACHMENT, "slot", slot->name, file, where);
        if (f) {
            snprintf(f->message, sizeof f->message, "setup attachment \"%s\" is in no skin%s", slot->attachment, sfx);
            snprintf(f->fix, sizeof f->fix, "name an attachment a skin has for slot \"%s\", or add \"%s\" to a skin",
                     slot->name, slot->attachment);
        }
    }
}

void mf_check_skeleton(const mf_skeleton *sk, const char *file, const char *images_dir, mf_check_report *rep)
{
    check_ik_shear(sk, file, rep);
    check_setup_attachments(sk, file, rep);
    for (int32_t s = 0; s < sk->skin_count; s++) {
        for (int32_t a = 0; a < sk->skins[s].attachment_count; a++) {
            check_weights(sk, s, a, file, rep);
            check_uvs(sk, s, a, file, rep);
            if (images_dir) check_images(sk, s, a, file, images_dir, rep);
        }
    }
}
