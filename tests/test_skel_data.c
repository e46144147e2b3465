/* The runtime build loader: every corruption it must catch, each with its located error.
 * Truncation at every size, every flipped byte (checksum), header fields, the section table,
 * and out-of-range indices in each section with the checksum recomputed, so that the content
 * checks themselves are what fails. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_build.h"
#include "mf/mf_skel_data.h"

static const char *RIG =
    "{ \"format\": 1, \"uid\": \"skl_00000000cafe\", \"type\": \"Skeleton\",\n"
    "  \"bones\": [ { \"name\": \"root\" }, { \"name\": \"hips\", \"parent\": \"root\" },\n"
    "    { \"name\": \"thigh\", \"parent\": \"hips\", \"length\": 40 }, { \"name\": \"shin\", \"parent\": \"thigh\", \"x\": 40 },\n"
    "    { \"name\": \"target\", \"parent\": \"root\", \"x\": 10 }, { \"name\": \"tail\", \"parent\": \"hips\", \"skinRequired\": true } ],\n"
    "  \"slots\": [ { \"name\": \"body\", \"bone\": \"hips\", \"attachment\": \"body\" },\n"
    "    { \"name\": \"leg\", \"bone\": \"thigh\", \"attachment\": \"leg\" },\n"
    "    { \"name\": \"clip\", \"bone\": \"root\", \"attachment\": \"clip\" },\n"
    "    { \"name\": \"rail\", \"bone\": \"root\", \"attachment\": \"rail\" },\n"
    "    { \"name\": \"spawn\", \"bone\": \"shin\", \"attachment\": \"spawn\" } ],\n"
    "  \"ik\": [ { \"name\": \"leg_ik\", \"bones\": [\"thigh\", \"shin\"], \"target\": \"target\" } ],\n"
    "  \"transform\": [ { \"name\": \"follow\", \"order\": 1, \"skinRequired\": true, \"bones\": [\"tail\"], \"target\": \"shin\" } ],\n"
    "  \"path\": [ { \"name\": \"ride\", \"order\": 2, \"bones\": [\"tail\"], \"target\": \"rail\" } ],\n"
    "  \"physics\": [ { \"name\": \"wobble\", \"order\": 3, \"bone\": \"tail\" } ],\n"
    "  \"events\": [ { \"name\": \"step\", \"string\": \"s\" } ],\n"
    "  \"skins\": [ { \"name\": \"default\", \"attachments\": [\n"
    "      { \"slot\": \"body\", \"name\": \"body\", \"type\": \"Mesh\", \"uvs\": [0, 0, 1, 0, 1, 1, 0, 1],\n"
    "        \"triangles\": [0, 1, 2, 2, 3, 0], \"hull\": 4,\n"
    "        \"weights\": { \"bones\": [\"hips\", \"thigh\"], \"v\": [[0, 1, 0, 0], [0, 1, 10, 0], [0, 0.5, 10, 10, 1, 0.5, 0, 0], [1, 1, 0, 10]] } },\n"
    "      { \"slot\": \"leg\", \"name\": \"leg\", \"type\": \"Region\", \"width\": 10, \"height\": 40, \"sequence\": { \"count\": 3 } },\n"
    "      { \"slot\": \"clip\", \"name\": \"clip\", \"type\": \"Clipping\", \"vertices\": [0, 0, 10, 0, 5, 8], \"end\": \"leg\" },\n"
    "      { \"slot\": \"rail\", \"name\": \"rail\", \"type\": \"Path\", \"vertices\": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5], \"lengths\": [3, 4] },\n"
    "      { \"slot\": \"spawn\", \"name\": \"spawn\", \"type\": \"Point\", \"x\": 1 } ] },\n"
    "    { \"name\": \"alt\", \"bones\": [\"tail\"], \"constraints\": [\"follow\"], \"attachments\": [\n"
    "      { \"slot\": \"body\", \"name\": \"body\", \"type\": \"LinkedMesh\", \"parent\": \"body\", \"skin\": \"default\", \"deform\": true },\n"
    "      { \"slot\": \"leg\", \"name\": \"leg\", \"displayName\": \"alt/leg\", \"type\": \"Region\", \"width\": 12,\n"
    "        \"height\": 40 } ] } ]\n"
    "}\n";

static const char *CLIP =
    "{ \"format\": 1, \"uid\": \"anm_00000000beef\", \"type\": \"SkeletonClip\", \"skeleton\": { \"uid\": \"skl_00000000cafe\" },\n"
    "  \"length\": 1, \"loop\": \"Linear\",\n"
    "  \"bones\": { \"thigh\": { \"rotate\": { \"t\": [0, 0.5, 1], \"v\": [0, 30, 0], \"curve\": [[0.25, 0, 0.75, 1], \"stepped\"] } } },\n"
    "  \"slots\": { \"leg\": { \"attachment\": { \"t\": [0.5], \"v\": [null] } } },\n"
    "  \"ik\": { \"leg_ik\": { \"t\": [0, 1], \"mix\": [1, 0] } },\n"
    "  \"deform\": { \"default\": { \"body\": { \"body\": { \"t\": [0], \"v\": [[1, 2]] } } } },\n"
    "  \"drawOrder\": { \"t\": [0.5], \"v\": [[ [\"leg\", -1] ]] },\n"
    "  \"events\": { \"t\": [0.25], \"v\": [ { \"name\": \"step\" } ] }\n"
    "}\n";

/* The reference build, made once. */
static void *g_blob;
static size_t g_size;

static int setup(void **state)
{
    (void)state;
    mf_diag d;
    mf_skeleton *sk = NULL;
    mf_clip *clip = NULL;
    char msg[1200];
    if (mf_skeleton_parse(RIG, strlen(RIG), "t.mskel", &sk, &d) != MF_OK ||
        mf_clip_parse(CLIP, strlen(CLIP), "c.manim", "walk", &clip, &d) != MF_OK ||
        mf_clip_check(clip, sk, "c.manim", &d) != MF_OK) {
        mf_diag_format(&d, msg, sizeof msg);
        print_error("setup: %s\n", msg);
        return -1;
    }
    const mf_clip *clips[] = {clip};
    mf_result r = mf_build_skeleton(sk, clips, 1, &g_blob, &g_size, &d);
    if (r != MF_OK) {
        mf_diag_format(&d, msg, sizeof msg);
        print_error("setup build: %s\n", msg);
    }
    mf_clip_free(clip);
    mf_skeleton_free(sk);
    return r == MF_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(g_blob);
    return 0;
}

/* A private, exactly sized copy, so that ASan sees any read past the end. */
static unsigned char *copy(size_t n)
{
    unsigned char *b = malloc(n ? n : 1);
    memcpy(b, g_blob, n < g_size ? n : g_size);
    return b;
}

static void reseal(unsigned char *b, size_t size)
{
    uint64_t sum = mf_skel_data_checksum(b + MF_SKEL_DATA_HEADER_SIZE, size - MF_SKEL_DATA_HEADER_SIZE);
    memcpy(b + 32, &sum, 8);
}

static mf_sd_section *section(unsigned char *b, uint32_t id)
{
    mf_sd_header h;
    memcpy(&h, b, sizeof h);
    for (uint32_t i = 0; i < h.section_count; i++) {
        mf_sd_section *s = (mf_sd_section *)(void *)(b + sizeof h + i * sizeof *s);
        if (s->id == id) return s;
    }
    fail_msg("no section %u", id);
    return NULL;
}

static void *data(unsigned char *b, uint32_t id) { return b + section(b, id)->offset; }

static void expect(const unsigned char *b, size_t n, mf_result want, const char *where, const char *msg)
{
    mf_skel_data d;
    mf_diag diag;
    memset(&d, 0x5a, sizeof d);
    mf_result r = mf_skel_data_load(b, n, &d, &diag);
    if (r != want || (where && strcmp(diag.where, where) != 0) || (msg && !strstr(diag.message, msg)))
        print_error("got %s (%s: %s), want %s (%s: %s)\n", mf_result_name(r), diag.where, diag.message,
                    mf_result_name(want), where ? where : "*", msg ? msg : "*");
    assert_int_equal(r, want);
    if (where) assert_string_equal(diag.where, where);
    if (msg) assert_contains(diag.message, msg);
    if (r != MF_OK) assert_null(d.bones); /* the view is zeroed on failure */
}

/* Patches a copy, reseals it and expects the located error. */
#define CORRUPT(patch, where, msg)                                                                                     \
    do {                                                                                                               \
        unsigned char *b = copy(g_size);                                                                               \
        patch;                                                                                                         \
        reseal(b, g_size);                                                                                             \
        expect(b, g_size, MF_ERR_CORRUPT, where, msg);                                                                 \
        free(b);                                                                                                       \
    } while (0)

static void valid_build_loads(void **state)
{
    (void)state;
    unsigned char *b = copy(g_size);
    expect(b, g_size, MF_OK, NULL, NULL);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(b, g_size, &d, NULL), MF_OK);
    assert_int_equal(d.bone_count, 6);
    assert_int_equal(d.attachment_count, 7);
    assert_int_equal(d.clip_count, 1);
    assert_true(d.transform_count == 1 && d.path_count == 1 && d.physics_count == 1);
    free(b);
}

static void truncation_at_every_size(void **state)
{
    (void)state;
    char want[128];
    for (size_t n = 0; n < g_size; n++) {
        unsigned char *b = copy(n);
        if (n < MF_SKEL_DATA_HEADER_SIZE) {
            snprintf(want, sizeof want, "truncated: %zu bytes, shorter than the 64-byte header", n);
            expect(b, n, MF_ERR_CORRUPT, "offset 0", want);
        } else {
            snprintf(want, sizeof want, "truncated: header says %zu bytes, got %zu", g_size, n);
            expect(b, n, MF_ERR_CORRUPT, "offset 24", want);
        }
        free(b);
    }
    /* and one byte too many */
    unsigned char *b = malloc(g_size + 1);
    memcpy(b, g_blob, g_size);
    b[g_size] = 0;
    expect(b, g_size + 1, MF_ERR_CORRUPT, "offset 24", "trailing bytes");
    free(b);
}

static void every_flipped_byte_fails_the_checksum(void **state)
{
    (void)state;
    unsigned char *b = copy(g_size);
    for (size_t i = MF_SKEL_DATA_HEADER_SIZE; i < g_size; i++) {
        for (int bit = 0; bit < 8; bit += 3) {
            b[i] ^= (unsigned char)(1u << bit);
            expect(b, g_size, MF_ERR_CORRUPT, "offset 32", "checksum mismatch");
            b[i] ^= (unsigned char)(1u << bit);
        }
    }
    expect(b, g_size, MF_OK, NULL, NULL);
    /* the stored checksum itself */
    b[33] ^= 0x10;
    expect(b, g_size, MF_ERR_CORRUPT, "offset 32", "checksum mismatch");
    free(b);
}

static void header_fields_are_checked(void **state)
{
    (void)state;
    unsigned char *b = copy(g_size);
    b[0] = 'X';
    expect(b, g_size, MF_ERR_CORRUPT, "offset 0", "bad magic");
    b[0] = 'M';
    uint32_t v = MF_SKEL_DATA_VERSION + 1;
    memcpy(b + 8, &v, 4);
    char want[80];
    snprintf(want, sizeof want, "format version %u; this runtime reads version %u", (unsigned)v,
             (unsigned)MF_SKEL_DATA_VERSION);
    expect(b, g_size, MF_ERR_VERSION, "offset 8", want);
    v = MF_SKEL_DATA_VERSION;
    memcpy(b + 8, &v, 4);
    v = 0x0D0C0B0Au; /* a big-endian writer */
    memcpy(b + 12, &v, 4);
    expect(b, g_size, MF_ERR_CORRUPT, "offset 12", "byte-order mark");
    v = MF_SKEL_DATA_BYTE_ORDER;
    memcpy(b + 12, &v, 4);
    v = 80;
    memcpy(b + 16, &v, 4);
    expect(b, g_size, MF_ERR_CORRUPT, "offset 16", "header size 80, expected 64");
    v = 64;
    memcpy(b + 16, &v, 4);
    b[50] = 1;
    expect(b, g_size, MF_ERR_CORRUPT, "offset 40", "reserved header bytes");
    b[50] = 0;
    v = 100000;
    memcpy(b + 20, &v, 4);
    expect(b, g_size, MF_ERR_CORRUPT, "offset 20", "section table of 100000 entries ends at");
    v = 0;
    memcpy(b + 20, &v, 4);
    reseal(b, g_size); /* no sections at all: no info */
    expect(b, g_size, MF_ERR_CORRUPT, "section info", "missing");
    free(b);
}

static void bad_arguments(void **state)
{
    (void)state;
    mf_skel_data d;
    mf_diag diag;
    assert_int_equal(mf_skel_data_load(NULL, 10, &d, &diag), MF_ERR_ARGUMENT);
    assert_int_equal(mf_skel_data_load(g_blob, g_size, NULL, &diag), MF_ERR_ARGUMENT);
    unsigned char *b = malloc(g_size + 4);
    memcpy(b + 1, g_blob, g_size);
    assert_int_equal(mf_skel_data_load(b + 1, g_size, &d, &diag), MF_ERR_ARGUMENT);
    assert_contains(diag.message, "aligned");
    free(b);
}

static void section_table_is_checked(void **state)
{
    (void)state;
    CORRUPT(section(b, MF_SD_SEC_BONES)->elem_size = 40, "section bones", "element size 40, expected 48");
    CORRUPT(section(b, MF_SD_SEC_SLOTS)->offset += 4, "section slots", "not 16-byte aligned");
    CORRUPT(section(b, MF_SD_SEC_SLOTS)->offset -= 16, "section slots", "overlaps");
    CORRUPT(section(b, MF_SD_SEC_BEZIERS)->count = 1000000, "section beziers", "past the end");
    CORRUPT(section(b, MF_SD_SEC_BONES)->id = 99, "section table[3]", "unknown section id 99");
    CORRUPT(section(b, MF_SD_SEC_SLOTS)->id = MF_SD_SEC_BONES, "section bones", "must ascend");
    CORRUPT(section(b, MF_SD_SEC_INFO)->count = 2, "section info", "expected exactly 1");
    CORRUPT(section(b, MF_SD_SEC_INFO)->offset = 64, "section info", "overlaps");
}

static void strings_are_checked(void **state)
{
    (void)state;
    mf_sd_section s;
    unsigned char *b0 = copy(g_size);
    s = *section(b0, MF_SD_SEC_STRINGS);
    free(b0);
    CORRUPT(((char *)data(b, MF_SD_SEC_STRINGS))[s.count - 1] = 'x', "section strings", "not NUL-terminated");
    CORRUPT(((char *)data(b, MF_SD_SEC_STRINGS))[0] = 'x', "section strings", "empty string");
    CORRUPT(((mf_sd_bone *)data(b, MF_SD_SEC_BONES))[2].name = (int32_t)s.count, "bones[2].name", "outside the string table");
    CORRUPT(((mf_sd_bone *)data(b, MF_SD_SEC_BONES))[2].name = -1, "bones[2].name", "outside the string table");
    CORRUPT(((mf_sd_slot *)data(b, MF_SD_SEC_SLOTS))[1].attachment = -7, "slots[1].attachment", "outside the string table");
    CORRUPT(((mf_sd_event *)data(b, MF_SD_SEC_EVENTS))[0].string = 1 << 30, "events[0].string", "outside");
    CORRUPT(((mf_sd_info *)data(b, MF_SD_SEC_INFO))->uid = -1, "info[0].uid", "outside");
    CORRUPT(((mf_sd_image *)data(b, MF_SD_SEC_IMAGES))[1].name = 1 << 20, "images[1].name", "outside");
}

static void rig_indices_are_checked(void **state)
{
    (void)state;
    CORRUPT(((mf_sd_bone *)data(b, MF_SD_SEC_BONES))[3].parent = 3, "bones[3].parent", "parent 3 is not an earlier bone");
    CORRUPT(((mf_sd_bone *)data(b, MF_SD_SEC_BONES))[3].parent = -2, "bones[3].parent", "not an earlier bone");
    CORRUPT(((mf_sd_bone *)data(b, MF_SD_SEC_BONES))[1].inherit = 9, "bones[1].inherit", "unknown inherit mode 9");
    CORRUPT(((mf_sd_slot *)data(b, MF_SD_SEC_SLOTS))[1].bone = 6, "slots[1].bone", "bone 6 outside 0..5");
    CORRUPT(((mf_sd_slot *)data(b, MF_SD_SEC_SLOTS))[1].blend = 4, "slots[1].blend", "unknown blend mode 4");
    CORRUPT(((int32_t *)data(b, MF_SD_SEC_BONE_LISTS))[0] = 6, "boneLists[0]", "bone 6 outside 0..5");
    CORRUPT(((mf_sd_ik *)data(b, MF_SD_SEC_IK))[0].bone_count = 3, "ik[0].bones", "ik takes 1 or 2");
    CORRUPT(((mf_sd_ik *)data(b, MF_SD_SEC_IK))[0].bone_first = 1 << 30, "ik[0].bones", "outside the bone lists");
    CORRUPT(((mf_sd_ik *)data(b, MF_SD_SEC_IK))[0].target = -1, "ik[0].target", "outside");
    CORRUPT(((mf_sd_transform *)data(b, MF_SD_SEC_TRANSFORM))[0].target = 6, "transform[0].target", "outside");
    CORRUPT(((mf_sd_path *)data(b, MF_SD_SEC_PATH))[0].target = 5, "path[0].target", "slot 5 outside 0..4");
    CORRUPT(((mf_sd_path *)data(b, MF_SD_SEC_PATH))[0].rotate_mode = 3, "path[0].mode", "unknown");
    CORRUPT(((mf_sd_physics *)data(b, MF_SD_SEC_PHYSICS))[0].bone = 6, "physics[0].bone", "outside");
    CORRUPT(((mf_sd_ref *)data(b, MF_SD_SEC_UPDATE))[0].index = 6, "update[0].index", "index 6 outside 0..5");
    CORRUPT(((mf_sd_ref *)data(b, MF_SD_SEC_UPDATE))[2].kind = 5, "update[2].kind", "unknown update kind 5");
    CORRUPT(((mf_sd_ref *)data(b, MF_SD_SEC_SKIN_REFS))[0].kind = MF_SD_REF_BONE, "skinRefs[0].kind", "unknown constraint kind");
    CORRUPT(((mf_sd_ref *)data(b, MF_SD_SEC_SKIN_REFS))[0].index = 1, "skinRefs[0].index", "index 1 outside 0..0");
}

static void swap_entries(unsigned char *b)
{
    mf_sd_skin_entry *e = data(b, MF_SD_SEC_SKIN_ENTRIES);
    mf_sd_skin_entry t = e[0];
    e[0] = e[1];
    e[1] = t;
}

static void skins_and_attachments_are_checked(void **state)
{
    (void)state;
#define ATT(i) (((mf_sd_attachment *)data(b, MF_SD_SEC_ATTACHMENTS))[i])
    CORRUPT(((mf_sd_skin *)data(b, MF_SD_SEC_SKINS))[1].entry_count = 99, "skins[1].entries", "outside the skin entries");
    CORRUPT(((mf_sd_skin *)data(b, MF_SD_SEC_SKINS))[1].bone_first = -1, "skins[1].bones", "outside the bone lists");
    CORRUPT(((mf_sd_skin *)data(b, MF_SD_SEC_SKINS))[1].constraint_count = 2, "skins[1].constraints", "outside");
    CORRUPT(((mf_sd_skin_entry *)data(b, MF_SD_SEC_SKIN_ENTRIES))[0].attachment = 7, "skinEntries[0].attachment",
            "attachment 7 outside 0..6");
    CORRUPT(((mf_sd_skin_entry *)data(b, MF_SD_SEC_SKIN_ENTRIES))[0].attachment = 1, "skinEntries[0].attachment",
            "belongs to slot");
    /* swapping two entries of skin 0 breaks the sort order */
    CORRUPT(swap_entries(b), "skinEntries[1]", "not strictly sorted");
    /* attachment 0 is the weighted mesh (body), 1 the sequenced region, 2 clipping, 3 path,
     * 4 point, 5 the linked mesh, 6 the alt region */
    CORRUPT(ATT(0).display_name = -1, "attachments[0].displayName", "string offset -1 outside the string table");
    CORRUPT(ATT(6).display_name = 1 << 20, "attachments[6].displayName", "outside the string table");
    CORRUPT(ATT(0).slot = 5, "attachments[0].slot", "slot 5 outside 0..4");
    CORRUPT(ATT(0).type = 7, "attachments[0].type", "unknown attachment type 7");
    CORRUPT(ATT(1).image = 15, "attachments[1].image", "outside the images");
    CORRUPT(ATT(1).seq_setup = 3, "attachments[1].sequence", "setup frame 3 outside 0..2");
    CORRUPT(ATT(0).vertex_first = 1 << 20, "attachments[0].vertices", "outside the spans");
    CORRUPT(ATT(0).infl_count = 4, "attachments[0].deformCount", "10 deform floats, expected 8");
    CORRUPT(do {
        ATT(0).infl_count = 4;
        ATT(0).deform_count = 8;
    } while (0), "attachments[0].influences", "the vertex spans cover 5 influences, not 4");
    CORRUPT(((mf_sd_span *)data(b, MF_SD_SEC_SPANS))[2].count = MF_SD_MAX_INFLUENCES + 1, "spans[2]", "vertex 2 of attachment 0");
    CORRUPT(((mf_sd_span *)data(b, MF_SD_SEC_SPANS))[1].first = 0, "spans[1]", "expected 1+(1..16)");
    CORRUPT(((mf_sd_influence *)data(b, MF_SD_SEC_INFLUENCES))[3].bone = 6, "influences[3].bone", "bone 6 outside 0..5");
    CORRUPT(((uint16_t *)data(b, MF_SD_SEC_TRIANGLES))[ATT(0).tri_first + 4] = 4, "attachments[0].triangles",
            "index 4: vertex 4 of 4");
    CORRUPT(ATT(0).tri_count = 5, "attachments[0].triangles", "not a multiple of 3");
    CORRUPT(ATT(0).uv_first = -1, "attachments[0].uvs", "a mesh needs uvs");
    CORRUPT(ATT(0).uv_first = section(b, MF_SD_SEC_FLOATS)->count - 2, "attachments[0].uvs", "outside the floats");
    CORRUPT(ATT(0).hull = 5, "attachments[0].hull", "hull 5 outside 0..4");
    CORRUPT(ATT(1).vertex_count = 3, "attachments[1].vertices", "a region has 4 unweighted corners");
    CORRUPT(ATT(2).vertex_first = section(b, MF_SD_SEC_FLOATS)->count - 4, "attachments[2].vertices", "outside the floats");
    CORRUPT(ATT(2).end_slot = 5, "attachments[2].endSlot", "slot 5 outside -1..4");
    CORRUPT(ATT(3).lengths_count = 1 << 20, "attachments[3].lengths", "outside the floats");
    CORRUPT(ATT(4).vertex_count = 1, "attachments[4].vertices", "a point has no vertices");
    CORRUPT(ATT(5).deform_source = 1, "attachments[5].deformSource", "attachment 1 has 0 deform floats, this one 10");
    CORRUPT(ATT(5).parent = 7, "attachments[5].parent", "outside");
    /* a linked mesh whose geometry no longer matches its parent's gets the full checks */
    CORRUPT(ATT(5).vertex_count = 3, "attachments[5].influences", "the vertex spans cover 4 influences, not 5");
#undef ATT
}

static mf_sd_timeline *tl_of(unsigned char *b, int kind)
{
    mf_sd_section *s = section(b, MF_SD_SEC_TIMELINES);
    mf_sd_timeline *t = (mf_sd_timeline *)(void *)(b + s->offset);
    for (uint32_t i = 0; i < s->count; i++)
        if (t[i].kind == kind) return &t[i];
    fail_msg("no timeline of kind %d", kind);
    return NULL;
}

static int32_t tl_index(unsigned char *b, int kind)
{
    return (int32_t)(tl_of(b, kind) - (mf_sd_timeline *)data(b, MF_SD_SEC_TIMELINES));
}

static void clips_are_checked(void **state)
{
    (void)state;
    unsigned char *ref = copy(g_size);
    char rot[40], ik[40], dro[40], ev[40], att[40], def[40];
    snprintf(rot, sizeof rot, "timelines[%d].target", tl_index(ref, MF_SD_TL_ROTATE));
    snprintf(ik, sizeof ik, "timelines[%d].keys", tl_index(ref, MF_SD_TL_IK));
    snprintf(dro, sizeof dro, "timelines[%d].ints", tl_index(ref, MF_SD_TL_DRAW_ORDER));
    snprintf(ev, sizeof ev, "timelines[%d].ints", tl_index(ref, MF_SD_TL_EVENT));
    snprintf(att, sizeof att, "timelines[%d].ints", tl_index(ref, MF_SD_TL_ATTACHMENT));
    snprintf(def, sizeof def, "timelines[%d].attachment", tl_index(ref, MF_SD_TL_DEFORM));
    const mf_sd_timeline *rt = tl_of(ref, MF_SD_TL_ROTATE);
    int32_t curve0 = rt->curve_first, rot_i = tl_index(ref, MF_SD_TL_ROTATE);
    char rot_w[40];
    free(ref);
    CORRUPT(tl_of(b, MF_SD_TL_ROTATE)->target = 6, rot, "bone 6 outside 0..5");
    CORRUPT(tl_of(b, MF_SD_TL_ROTATE)->kind = 40, NULL, "unknown timeline kind 40");
    CORRUPT(tl_of(b, MF_SD_TL_IK)->key_count = 1 << 20, ik, "outside the times");
    CORRUPT(tl_of(b, MF_SD_TL_IK)->key_count = 0, ik, "or empty");
    snprintf(rot_w, sizeof rot_w, "timelines[%d].valueComps", rot_i);
    CORRUPT(tl_of(b, MF_SD_TL_ROTATE)->value_comps = 2, rot_w, "2 floats a key, this kind has 1");
    snprintf(rot_w, sizeof rot_w, "timelines[%d].values", rot_i);
    CORRUPT(tl_of(b, MF_SD_TL_ROTATE)->value_first = section(b, MF_SD_SEC_VALUES)->count - 2, rot_w, "outside the values");
    snprintf(rot_w, sizeof rot_w, "timelines[%d].curves", rot_i);
    CORRUPT(tl_of(b, MF_SD_TL_ROTATE)->curve_first = section(b, MF_SD_SEC_CURVES)->count - 1, rot_w, "outside the curves");
    snprintf(rot_w, sizeof rot_w, "timelines[%d].keys", rot_i);
    CORRUPT(((float *)data(b, MF_SD_SEC_TIMES))[tl_of(b, MF_SD_TL_ROTATE)->key_first + 1] = 2.0f, rot_w,
            "key 2: time 1 is before key 1's 2");
    CORRUPT(((int32_t *)data(b, MF_SD_SEC_CURVES))[curve0] = 1, NULL, "curve code 1");
    CORRUPT(((int32_t *)data(b, MF_SD_SEC_CURVES))[curve0] = -3, NULL, "neither linear (-1), stepped (-2)");
    CORRUPT(((mf_sd_bezier *)data(b, MF_SD_SEC_BEZIERS))[0].x[4] = 0.0f, "beziers[0]", "sample 4: x must ascend");
    CORRUPT(((int32_t *)data(b, MF_SD_SEC_INTS))[tl_of(b, MF_SD_TL_DRAW_ORDER)->int_first + 3] = 5, dro,
            "draw order entry 3 is slot 5, outside 0..4");
    CORRUPT(tl_of(b, MF_SD_TL_DRAW_ORDER)->int_comps = 4, NULL, "4 ints a key, this kind has 5");
    CORRUPT(((int32_t *)data(b, MF_SD_SEC_INTS))[tl_of(b, MF_SD_TL_EVENT)->int_first] = 1, ev, "event 1 outside 0..0");
    CORRUPT(((int32_t *)data(b, MF_SD_SEC_INTS))[tl_of(b, MF_SD_TL_EVENT)->int_first + 2] = -5, ev, "string offset -5");
    CORRUPT(((int32_t *)data(b, MF_SD_SEC_INTS))[tl_of(b, MF_SD_TL_ATTACHMENT)->int_first] = 1 << 24, att, "string offset");
    CORRUPT(((int32_t *)data(b, MF_SD_SEC_INTS))[tl_of(b, MF_SD_TL_IK)->int_first] = 0, NULL, "bend must be 1 or -1");
    CORRUPT(tl_of(b, MF_SD_TL_DEFORM)->attachment = 1, def, "attachment 1 is on slot 1, not slot 0");
    CORRUPT(tl_of(b, MF_SD_TL_DEFORM)->value_comps = 6, NULL, "6 floats a key, this kind has 10");
    CORRUPT(tl_of(b, MF_SD_TL_EVENT)->target = 0, NULL, "this kind has no target");
    CORRUPT(tl_of(b, MF_SD_TL_ATTACHMENT)->curve_first = 0, NULL, "discrete keys have no curves");
    CORRUPT(((mf_sd_clip *)data(b, MF_SD_SEC_CLIPS))[0].timeline_count = 99, "clips[0].timelines", "outside the timelines");
    CORRUPT(((mf_sd_clip *)data(b, MF_SD_SEC_CLIPS))[0].loop = 3, "clips[0].loop", "unknown loop mode 3");
    CORRUPT(((mf_sd_clip *)data(b, MF_SD_SEC_CLIPS))[0].length = -1.0f, "clips[0].length", "finite");
}

static void checksum_is_sensitive(void **state)
{
    (void)state;
    unsigned char buf[100] = {0};
    uint64_t base = mf_skel_data_checksum(buf, sizeof buf);
    assert_true(base == mf_skel_data_checksum(buf, sizeof buf));
    /* length matters even when the extra bytes are zero */
    for (size_t n = 0; n < sizeof buf; n++) assert_true(mf_skel_data_checksum(buf, n) != mf_skel_data_checksum(buf, n + 1));
    /* every single bit, in the 32-byte lanes, the 8-byte words and the tail */
    for (size_t i = 0; i < sizeof buf; i++)
        for (int bit = 0; bit < 8; bit++) {
            buf[i] ^= (unsigned char)(1u << bit);
            assert_true(mf_skel_data_checksum(buf, sizeof buf) != base);
            buf[i] ^= (unsigned char)(1u << bit);
        }
    /* swapped words */
    memcpy(buf, "abcdefgh12345678", 16);
    uint64_t a = mf_skel_data_checksum(buf, sizeof buf);
    memcpy(buf, "12345678abcdefgh", 16);
    assert_true(a != mf_skel_data_checksum(buf, sizeof buf));
}

static void accessors_handle_bad_arguments(void **state)
{
    (void)state;
    unsigned char *b = copy(g_size);
    mf_skel_data d;
    assert_int_equal(mf_skel_data_load(b, g_size, &d, NULL), MF_OK);
    assert_null(mf_skel_data_string(&d, -1));
    assert_null(mf_skel_data_string(&d, d.string_bytes));
    assert_string_equal(mf_skel_data_string(&d, 0), "");
    assert_int_equal(mf_skel_data_find_string(&d, "no such string"), -1);
    assert_int_equal(mf_skel_data_find_bone(&d, NULL), -1);
    assert_int_equal(mf_skel_data_find_bone(NULL, "root"), -1);
    /* body's image first, then leg's frames (start 1) and the alt region's plain "leg" */
    assert_int_equal(mf_skel_data_find_image(&d, "leg1"), 1);
    assert_int_equal(mf_skel_data_find_image(&d, "leg3"), 3);
    assert_int_equal(mf_skel_data_find_image(&d, "leg"), 4);
    assert_false(mf_skel_data_find_constraint(&d, "nope", NULL));
    assert_int_equal(mf_skel_data_skin_attachment(&d, 2, 0, 0), -1);
    assert_int_equal(mf_skel_data_skin_attachment(&d, -1, 0, 0), -1);
    int32_t leg = mf_skel_data_find_slot(&d, "leg");
    int32_t name = mf_skel_data_find_string(&d, "leg");
    int32_t a0 = mf_skel_data_skin_attachment(&d, 0, leg, name), a1 = mf_skel_data_skin_attachment(&d, 1, leg, name);
    assert_true(a0 >= 0 && a1 >= 0 && a0 != a1);
    assert_int_equal(d.attachments[a0].seq_count, 3);
    /* own names: the key where the rig gives none, the alt region's displayName; the image stays "leg" */
    assert_string_equal(mf_skel_data_attachment_name(&d, a0), "leg");
    assert_string_equal(mf_skel_data_attachment_name(&d, a1), "alt/leg");
    assert_string_equal(mf_skel_data_string(&d, d.images[d.attachments[a1].image].name), "leg");
    assert_null(mf_skel_data_attachment_name(&d, -1));
    assert_null(mf_skel_data_attachment_name(&d, d.attachment_count));
    assert_null(mf_skel_data_attachment_name(NULL, 0));
    assert_true(mf_skel_data_curve(&d, 12345, 0.25f) == 0.25f); /* out of range: linear */
    assert_true(mf_skel_data_curve(&d, 0, -1.0f) == 0.0f);
    assert_true(mf_skel_data_curve(&d, 0, 2.0f) == 1.0f);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valid_build_loads),
        cmocka_unit_test(truncation_at_every_size),
        cmocka_unit_test(every_flipped_byte_fails_the_checksum),
        cmocka_unit_test(header_fields_are_checked),
        cmocka_unit_test(bad_arguments),
        cmocka_unit_test(section_table_is_checked),
        cmocka_unit_test(strings_are_checked),
        cmocka_unit_test(rig_indices_are_checked),
        cmocka_unit_test(skins_and_attachments_are_checked),
        cmocka_unit_test(clips_are_checked),
        cmocka_unit_test(checksum_is_sensitive),
        cmocka_unit_test(accessors_handle_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
