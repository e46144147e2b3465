/* Loading a runtime build: header, checksum and section table, then the content checks
 * (skel_data_check.c). Zero-copy: the view points into the caller's bytes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "skel_data_internal.h"

/* Record sizes are part of the format: a change here is a format version bump. */
_Static_assert(sizeof(mf_sd_header) == 64, "header");
_Static_assert(sizeof(mf_sd_section) == 16, "section");
_Static_assert(sizeof(mf_sd_info) == 16, "info");
_Static_assert(sizeof(mf_sd_image) == 56, "image");
_Static_assert(sizeof(mf_sd_page) == 16, "page");
_Static_assert(sizeof(mf_sd_bone) == 48, "bone");
_Static_assert(sizeof(mf_sd_slot) == 24, "slot");
_Static_assert(sizeof(mf_sd_event) == 32, "event");
_Static_assert(sizeof(mf_sd_ik) == 36, "ik");
_Static_assert(sizeof(mf_sd_transform) == 72, "transform");
_Static_assert(sizeof(mf_sd_path) == 48, "path");
_Static_assert(sizeof(mf_sd_physics) == 72, "physics");
_Static_assert(sizeof(mf_sd_ref) == 8, "ref");
_Static_assert(sizeof(mf_sd_skin) == 32, "skin");
_Static_assert(sizeof(mf_sd_skin_entry) == 12, "skin entry");
_Static_assert(sizeof(mf_sd_attachment) == 132, "attachment");
_Static_assert(sizeof(mf_sd_span) == 8, "span");
_Static_assert(sizeof(mf_sd_influence) == 16, "influence");
_Static_assert(sizeof(mf_sd_clip) == 24, "clip");
_Static_assert(sizeof(mf_sd_timeline) == 48, "timeline");
_Static_assert(sizeof(mf_sd_bezier) == 72, "bezier");
_Static_assert(sizeof(mf_sd_bounds) == 16, "bounds");
_Static_assert(sizeof(mf_sd_skin_group) == 32, "skin group");
_Static_assert(sizeof(mf_sd_skin_record) == 16, "skin record");
_Static_assert(sizeof(mf_sd_skin_vertex) == 16, "skin vertex");

/* Per section id: its name in diagnostics and its record size. */
static const struct {
    const char *name;
    uint32_t size;
} SECTIONS[MF_SD_SEC_END] = {
    [MF_SD_SEC_INFO] = {"info", sizeof(mf_sd_info)},
    [MF_SD_SEC_STRINGS] = {"strings", 1},
    [MF_SD_SEC_IMAGES] = {"images", sizeof(mf_sd_image)},
    [MF_SD_SEC_BONES] = {"bones", sizeof(mf_sd_bone)},
    [MF_SD_SEC_SLOTS] = {"slots", sizeof(mf_sd_slot)},
    [MF_SD_SEC_EVENTS] = {"events", sizeof(mf_sd_event)},
    [MF_SD_SEC_IK] = {"ik", sizeof(mf_sd_ik)},
    [MF_SD_SEC_TRANSFORM] = {"transform", sizeof(mf_sd_transform)},
    [MF_SD_SEC_PATH] = {"path", sizeof(mf_sd_path)},
    [MF_SD_SEC_PHYSICS] = {"physics", sizeof(mf_sd_physics)},
    [MF_SD_SEC_UPDATE] = {"update", sizeof(mf_sd_ref)},
    [MF_SD_SEC_BONE_LISTS] = {"boneLists", sizeof(int32_t)},
    [MF_SD_SEC_SKINS] = {"skins", sizeof(mf_sd_skin)},
    [MF_SD_SEC_SKIN_ENTRIES] = {"skinEntries", sizeof(mf_sd_skin_entry)},
    [MF_SD_SEC_SKIN_REFS] = {"skinRefs", sizeof(mf_sd_ref)},
    [MF_SD_SEC_ATTACHMENTS] = {"attachments", sizeof(mf_sd_attachment)},
    [MF_SD_SEC_FLOATS] = {"floats", sizeof(float)},
    [MF_SD_SEC_SPANS] = {"spans", sizeof(mf_sd_span)},
    [MF_SD_SEC_INFLUENCES] = {"influences", sizeof(mf_sd_influence)},
    [MF_SD_SEC_TRIANGLES] = {"triangles", sizeof(uint16_t)},
    [MF_SD_SEC_CLIPS] = {"clips", sizeof(mf_sd_clip)},
    [MF_SD_SEC_TIMELINES] = {"timelines", sizeof(mf_sd_timeline)},
    [MF_SD_SEC_TIMES] = {"times", sizeof(float)},
    [MF_SD_SEC_VALUES] = {"values", sizeof(float)},
    [MF_SD_SEC_INTS] = {"ints", sizeof(int32_t)},
    [MF_SD_SEC_CURVES] = {"curves", sizeof(int32_t)},
    [MF_SD_SEC_BEZIERS] = {"beziers", sizeof(mf_sd_bezier)},
    [MF_SD_SEC_PAGES] = {"pages", sizeof(mf_sd_page)},
    [MF_SD_SEC_BOUNDS] = {"bounds", sizeof(mf_sd_bounds)},
    [MF_SD_SEC_SKIN_GROUP_FIRST] = {"skinGroupFirst", sizeof(int32_t)},
    [MF_SD_SEC_SKIN_GROUPS] = {"skinGroups", sizeof(mf_sd_skin_group)},
    [MF_SD_SEC_SKIN_RECORDS] = {"skinRecords", sizeof(mf_sd_skin_record)},
    [MF_SD_SEC_SKIN_VERTICES] = {"skinVertices", sizeof(mf_sd_skin_vertex)},
};

mf_result mf_sd_bad(mf_diag *diag, const char *record, int64_t index, const char *field,
                    const char *fmt, ...)
{
    if (!diag) return MF_ERR_CORRUPT;
    char where[sizeof diag->where];
    if (index < 0)
        snprintf(where, sizeof where, "%s", record);
    else
        snprintf(where, sizeof where, "%s[%lld]%s%s", record, (long long)index,
                 field && *field ? "." : "", field ? field : "");
    char msg[sizeof diag->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mf_diag_set(diag, "", where, "%s", msg);
    return MF_ERR_CORRUPT;
}

static mf_result fail(mf_diag *diag, mf_result r, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static mf_result fail(mf_diag *diag, mf_result r, const char *where, const char *fmt, ...)
{
    if (diag) {
        char msg[sizeof diag->message];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        mf_diag_set(diag, "", where, "%s", msg);
    }
    return r;
}

/* ---- checksum: four independent lanes of 64-bit words, then the tail, then a finaliser.
 * Each step is a bijection of the lane state for a fixed word and of the word for a fixed
 * state, so any single changed word always changes the result. */

#define CK_A 0x9E3779B97F4A7C15ull
#define CK_B 0xC2B2AE3D27D4EB4Full
#define CK_C 0x165667B19E3779F9ull

static uint64_t rd64(const unsigned char *p)
{
    /* compilers turn this into one load on little-endian hosts */
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static uint64_t step(uint64_t h, uint64_t w) { return rotl(h ^ (w * CK_A), 29) * CK_B; }

uint64_t mf_skel_data_checksum(const void *bytes, size_t size)
{
    const unsigned char *p = bytes;
    uint64_t a = CK_C, b = CK_C ^ CK_A, c = CK_C ^ CK_B, e = ~CK_C;
    size_t i = 0;
    for (; i + 32 <= size; i += 32) {
        a = step(a, rd64(p + i));
        b = step(b, rd64(p + i + 8));
        c = step(c, rd64(p + i + 16));
        e = step(e, rd64(p + i + 24));
    }
    uint64_t h = step(step(step(step((uint64_t)size * CK_C, a), b), c), e);
    for (; i + 8 <= size; i += 8) h = step(h, rd64(p + i));
    if (i < size) {
        unsigned char tail[8] = {0};
        memcpy(tail, p + i, size - i);
        h = step(h, rd64(tail));
    }
    h ^= h >> 33;
    h *= CK_B;
    h ^= h >> 29;
    h *= CK_C;
    h ^= h >> 32;
    return h;
}

/* ---- header and sections ---- */

static bool host_little_endian(void)
{
    const uint32_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

static const void *section_ptr(const unsigned char *base, const mf_sd_section *s)
{
    /* an empty section still gets a valid (unused) pointer */
    return base + s->offset;
}

static void bind(mf_skel_data *d, const unsigned char *base, const mf_sd_section *s)
{
    const void *p = section_ptr(base, s);
    int32_t n = (int32_t)s->count;
    switch ((mf_sd_section_id)s->id) {
    case MF_SD_SEC_INFO: d->info = p; break;
    case MF_SD_SEC_STRINGS: d->strings = p; d->string_bytes = n; break;
    case MF_SD_SEC_IMAGES: d->images = p; d->image_count = n; break;
    case MF_SD_SEC_BONES: d->bones = p; d->bone_count = n; break;
    case MF_SD_SEC_SLOTS: d->slots = p; d->slot_count = n; break;
    case MF_SD_SEC_EVENTS: d->events = p; d->event_count = n; break;
    case MF_SD_SEC_IK: d->ik = p; d->ik_count = n; break;
    case MF_SD_SEC_TRANSFORM: d->transform = p; d->transform_count = n; break;
    case MF_SD_SEC_PATH: d->path = p; d->path_count = n; break;
    case MF_SD_SEC_PHYSICS: d->physics = p; d->physics_count = n; break;
    case MF_SD_SEC_UPDATE: d->update = p; d->update_count = n; break;
    case MF_SD_SEC_BONE_LISTS: d->bone_lists = p; d->bone_list_count = n; break;
    case MF_SD_SEC_SKINS: d->skins = p; d->skin_count = n; break;
    case MF_SD_SEC_SKIN_ENTRIES: d->skin_entries = p; d->skin_entry_count = n; break;
    case MF_SD_SEC_SKIN_REFS: d->skin_refs = p; d->skin_ref_count = n; break;
    case MF_SD_SEC_ATTACHMENTS: d->attachments = p; d->attachment_count = n; break;
    case MF_SD_SEC_FLOATS: d->floats = p; d->float_count = n; break;
    case MF_SD_SEC_SPANS: d->spans = p; d->span_count = n; break;
    case MF_SD_SEC_INFLUENCES: d->influences = p; d->influence_count = n; break;
    case MF_SD_SEC_TRIANGLES: d->triangles = p; d->triangle_index_count = n; break;
    case MF_SD_SEC_CLIPS: d->clips = p; d->clip_count = n; break;
    case MF_SD_SEC_TIMELINES: d->timelines = p; d->timeline_count = n; break;
    case MF_SD_SEC_TIMES: d->times = p; d->time_count = n; break;
    case MF_SD_SEC_VALUES: d->values = p; d->value_count = n; break;
    case MF_SD_SEC_INTS: d->ints = p; d->int_count = n; break;
    case MF_SD_SEC_CURVES: d->curves = p; d->curve_count = n; break;
    case MF_SD_SEC_BEZIERS: d->beziers = p; d->bezier_count = n; break;
    case MF_SD_SEC_PAGES: d->pages = p; d->page_count = n; break;
    case MF_SD_SEC_BOUNDS: d->bounds = p; d->bounds_count = n; break;
    case MF_SD_SEC_SKIN_GROUP_FIRST: d->skin_group_first = p; d->skin_group_first_count = n; break;
    case MF_SD_SEC_SKIN_GROUPS: d->skin_groups = p; d->skin_group_count = n; break;
    case MF_SD_SEC_SKIN_RECORDS: d->skin_records = p; d->skin_record_count = n; break;
    case MF_SD_SEC_SKIN_VERTICES: d->skin_vertices = p; d->skin_vertex_count = n; break;
    case MF_SD_SEC_END: break;
    }
}

/* Sections the table leaves out are empty: point them at a static, suitably aligned zero. */
static void bind_empty(mf_skel_data *d)
{
    static const union {
        mf_sd_bezier b;
        mf_sd_attachment a;
    } zero;
    const void *z = &zero;
#define EMPTY(ptr) if (!d->ptr) d->ptr = z
    EMPTY(strings); EMPTY(images); EMPTY(bones); EMPTY(slots); EMPTY(events); EMPTY(ik);
    EMPTY(transform); EMPTY(path); EMPTY(physics); EMPTY(update); EMPTY(bone_lists);
    EMPTY(skins); EMPTY(skin_entries); EMPTY(skin_refs); EMPTY(attachments); EMPTY(floats);
    EMPTY(spans); EMPTY(influences); EMPTY(triangles); EMPTY(clips); EMPTY(timelines);
    EMPTY(times); EMPTY(values); EMPTY(ints); EMPTY(curves); EMPTY(beziers); EMPTY(pages);
    EMPTY(bounds); EMPTY(skin_group_first); EMPTY(skin_groups); EMPTY(skin_records); EMPTY(skin_vertices);
#undef EMPTY
}

static mf_result check_header(const unsigned char *p, size_t size, mf_sd_header *h, mf_diag *diag)
{
    if (size < MF_SKEL_DATA_HEADER_SIZE)
        return fail(diag, MF_ERR_CORRUPT, "offset 0",
                    "truncated: %zu bytes, shorter than the %u-byte header", size,
                    MF_SKEL_DATA_HEADER_SIZE);
    memcpy(h, p, sizeof *h);
    if (memcmp(h->magic, MF_SKEL_DATA_MAGIC, 8) != 0)
        return fail(diag, MF_ERR_CORRUPT, "offset 0", "not a skeleton build (bad magic)");
    if (h->version != MF_SKEL_DATA_VERSION)
        return fail(diag, MF_ERR_VERSION, "offset 8",
                    "format version %u; this runtime reads version %u (rebuild the rig)",
                    h->version, MF_SKEL_DATA_VERSION);
    if (h->byte_order != MF_SKEL_DATA_BYTE_ORDER)
        return fail(diag, MF_ERR_CORRUPT, "offset 12",
                    "byte-order mark is 0x%08x, expected 0x%08x (little-endian)", h->byte_order,
                    MF_SKEL_DATA_BYTE_ORDER);
    if (h->header_size != MF_SKEL_DATA_HEADER_SIZE)
        return fail(diag, MF_ERR_CORRUPT, "offset 16", "header size %u, expected %u",
                    h->header_size, MF_SKEL_DATA_HEADER_SIZE);
    if (h->total_size > size)
        return fail(diag, MF_ERR_CORRUPT, "offset 24", "truncated: header says %llu bytes, got %zu",
                    (unsigned long long)h->total_size, size);
    if (h->total_size < size)
        return fail(diag, MF_ERR_CORRUPT, "offset 24",
                    "trailing bytes: header says %llu bytes, got %zu",
                    (unsigned long long)h->total_size, size);
    for (int i = 0; i < 24; i++)
        if (h->reserved[i] != 0)
            return fail(diag, MF_ERR_CORRUPT, "offset 40", "reserved header bytes are not zero");
    if (size > (size_t)UINT32_MAX)
        return fail(diag, MF_ERR_CORRUPT, "offset 24", "%zu bytes; a build is at most 4 GiB", size);
    uint64_t table_end = (uint64_t)h->header_size + (uint64_t)h->section_count * sizeof(mf_sd_section);
    if (table_end > size)
        return fail(diag, MF_ERR_CORRUPT, "offset 20",
                    "section table of %u entries ends at %llu, past the end (%zu bytes)",
                    h->section_count, (unsigned long long)table_end, size);
    uint64_t sum = mf_skel_data_checksum(p + h->header_size, size - h->header_size);
    if (sum != h->checksum)
        return fail(diag, MF_ERR_CORRUPT, "offset 32",
                    "checksum mismatch: header says %016llx, data gives %016llx (corrupt or "
                    "modified)",
                    (unsigned long long)h->checksum, (unsigned long long)sum);
    return MF_OK;
}

static mf_result check_sections(const unsigned char *p, const mf_sd_header *h, mf_skel_data *d,
                                mf_diag *diag)
{
    uint64_t prev_end = (uint64_t)h->header_size + (uint64_t)h->section_count * sizeof(mf_sd_section);
    uint32_t prev_id = 0;
    for (uint32_t i = 0; i < h->section_count; i++) {
        mf_sd_section s;
        memcpy(&s, p + h->header_size + (size_t)i * sizeof s, sizeof s);
        char where[64];
        if (s.id == 0 || s.id >= MF_SD_SEC_END) {
            snprintf(where, sizeof where, "section table[%u]", i);
            return fail(diag, MF_ERR_CORRUPT, where, "unknown section id %u", s.id);
        }
        snprintf(where, sizeof where, "section %s", SECTIONS[s.id].name);
        if (s.id <= prev_id)
            return fail(diag, MF_ERR_CORRUPT, where,
                        "section ids must ascend: id %u follows id %u", s.id, prev_id);
        if (s.elem_size != SECTIONS[s.id].size)
            return fail(diag, MF_ERR_CORRUPT, where, "element size %u, expected %u", s.elem_size,
                        SECTIONS[s.id].size);
        if (s.offset % MF_SKEL_DATA_ALIGN != 0)
            return fail(diag, MF_ERR_CORRUPT, where, "offset %u is not %u-byte aligned", s.offset,
                        MF_SKEL_DATA_ALIGN);
        if (s.offset < prev_end)
            return fail(diag, MF_ERR_CORRUPT, where,
                        "offset %u overlaps the section table or the previous section (ends at "
                        "%llu)",
                        s.offset, (unsigned long long)prev_end);
        if (s.count > (uint32_t)INT32_MAX)
            return fail(diag, MF_ERR_CORRUPT, where, "%u elements, more than a build allows", s.count);
        uint64_t end = (uint64_t)s.offset + (uint64_t)s.count * s.elem_size;
        if (end > h->total_size)
            return fail(diag, MF_ERR_CORRUPT, where,
                        "%u elements at offset %u end at %llu, past the end (%llu bytes)", s.count,
                        s.offset, (unsigned long long)end, (unsigned long long)h->total_size);
        if (s.id == MF_SD_SEC_INFO && s.count != 1)
            return fail(diag, MF_ERR_CORRUPT, where, "%u elements, expected exactly 1", s.count);
        bind(d, p, &s);
        prev_end = end;
        prev_id = s.id;
    }
    return MF_OK;
}

mf_result mf_skel_data_load(const void *bytes, size_t size, mf_skel_data *out, mf_diag *diag)
{
    if (!out) return fail(diag, MF_ERR_ARGUMENT, "", "no output view given");
    memset(out, 0, sizeof *out);
    if (!bytes) return fail(diag, MF_ERR_ARGUMENT, "", "no bytes given");
    if ((uintptr_t)bytes % 4 != 0)
        return fail(diag, MF_ERR_ARGUMENT, "", "bytes must be at least 4-byte aligned");
    if (!host_little_endian())
        return fail(diag, MF_ERR_UNSUPPORTED, "", "skeleton builds load on little-endian hosts only");
    const unsigned char *p = bytes;
    mf_sd_header h;
    mf_result r = check_header(p, size, &h, diag);
    if (r != MF_OK) return r;
    mf_skel_data d;
    memset(&d, 0, sizeof d);
    r = check_sections(p, &h, &d, diag);
    if (r != MF_OK) return r;
    d.bytes = bytes;
    d.size = size;
    if (!d.info)
        return fail(diag, MF_ERR_CORRUPT, "section info", "missing (a build has exactly one)");
    bind_empty(&d);
    r = mf_sd_check_content(&d, diag);
    if (r != MF_OK) return r;
    *out = d;
    return MF_OK;
}
