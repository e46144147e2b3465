/* Lookups on a loaded build: strings, names, skin tables and pre-sampled curves. */
#include <string.h>

#include "curve_eval.h"
#include "mf/mf_skel_data.h"

const char *mf_skel_data_string(const mf_skel_data *d, int32_t offset)
{
    if (!d || offset < 0 || offset >= d->string_bytes) return NULL;
    return d->strings + offset;
}

int32_t mf_skel_data_find_string(const mf_skel_data *d, const char *s)
{
    if (!d || !s) return -1;
    for (int32_t off = 0; off < d->string_bytes;) {
        const char *at = d->strings + off;
        size_t n = strlen(at); /* the table ends with a NUL (checked at load) */
        if (strcmp(at, s) == 0) return off;
        off += (int32_t)n + 1;
    }
    return -1;
}

/* Linear search of records whose first field is a name offset. */
static int32_t find_named(const mf_skel_data *d, const void *records, size_t stride, int32_t count,
                          const char *name)
{
    if (!d || !name) return -1;
    const unsigned char *p = records;
    for (int32_t i = 0; i < count; i++) {
        int32_t off;
        memcpy(&off, p + (size_t)i * stride, sizeof off);
        if (strcmp(d->strings + off, name) == 0) return i;
    }
    return -1;
}

int32_t mf_skel_data_find_bone(const mf_skel_data *d, const char *name)
{
    return d ? find_named(d, d->bones, sizeof *d->bones, d->bone_count, name) : -1;
}
int32_t mf_skel_data_find_slot(const mf_skel_data *d, const char *name)
{
    return d ? find_named(d, d->slots, sizeof *d->slots, d->slot_count, name) : -1;
}
int32_t mf_skel_data_find_skin(const mf_skel_data *d, const char *name)
{
    return d ? find_named(d, d->skins, sizeof *d->skins, d->skin_count, name) : -1;
}
int32_t mf_skel_data_find_event(const mf_skel_data *d, const char *name)
{
    return d ? find_named(d, d->events, sizeof *d->events, d->event_count, name) : -1;
}
int32_t mf_skel_data_find_clip(const mf_skel_data *d, const char *name)
{
    return d ? find_named(d, d->clips, sizeof *d->clips, d->clip_count, name) : -1;
}
int32_t mf_skel_data_find_image(const mf_skel_data *d, const char *name)
{
    return d ? find_named(d, d->images, sizeof *d->images, d->image_count, name) : -1;
}

bool mf_skel_data_find_constraint(const mf_skel_data *d, const char *name, mf_sd_ref *out)
{
    if (!d) return false;
    const struct {
        uint16_t kind;
        const void *records;
        size_t stride;
        int32_t count;
    } kinds[] = {
        {MF_SD_REF_IK, d->ik, sizeof *d->ik, d->ik_count},
        {MF_SD_REF_TRANSFORM, d->transform, sizeof *d->transform, d->transform_count},
        {MF_SD_REF_PATH, d->path, sizeof *d->path, d->path_count},
        {MF_SD_REF_PHYSICS, d->physics, sizeof *d->physics, d->physics_count},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        int32_t i = find_named(d, kinds[k].records, kinds[k].stride, kinds[k].count, name);
        if (i >= 0) {
            if (out) *out = (mf_sd_ref){kinds[k].kind, 0, i};
            return true;
        }
    }
    return false;
}

int32_t mf_skel_data_skin_attachment(const mf_skel_data *d, int32_t skin, int32_t slot, int32_t name)
{
    if (!d || skin < 0 || skin >= d->skin_count) return -1;
    const mf_sd_skin *s = &d->skins[skin];
    const mf_sd_skin_entry *e = d->skin_entries + s->entry_first;
    int32_t lo = 0, hi = s->entry_count; /* entries sorted by (slot, name) */
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (e[mid].slot < slot || (e[mid].slot == slot && e[mid].name < name)) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->entry_count && e[lo].slot == slot && e[lo].name == name ? e[lo].attachment : -1;
}

float mf_skel_data_curve(const mf_skel_data *d, int32_t code, float u)
{
    static const mf_skel_data none; /* no data: no beziers, every bezier code linear */
    return mf_sd_curve_at(d ? d : &none, code, u);
}

const char *mf_skel_data_attachment_name(const mf_skel_data *d, int32_t attachment)
{
    if (!d || attachment < 0 || attachment >= d->attachment_count) return NULL;
    return mf_skel_data_string(d, d->attachments[attachment].display_name);
}

bool mf_skel_data_clip_bounds(const mf_skel_data *d, int32_t clip, float out[4])
{
    if (!d || !out || clip < -1 || clip >= d->clip_count || clip + 1 >= d->bounds_count) return false;
    const mf_sd_bounds *b = &d->bounds[clip + 1];
    out[0] = b->min_x, out[1] = b->min_y, out[2] = b->max_x, out[3] = b->max_y;
    return true;
}
