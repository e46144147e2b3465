/* The .mskel model, reader and canonical writer: what is read, byte-exact round trips, atomic
 * saves, the writer's guards, lookups and enum spellings. Malformed input: test_mskel_errors.c. */
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mf/mf_skeleton.h"

static mf_skeleton *load(const char *rel)
{
    mf_diag d;
    mf_skeleton *sk = NULL;
    mf_result r = mf_skeleton_load(tu_src(rel), &sk, &d);
    if (r != MF_OK) {
        char msg[1200];
        mf_diag_format(&d, msg, sizeof msg);
        print_error("%s\n", msg);
    }
    assert_int_equal(r, MF_OK);
    return sk;
}

static char *write_text(const mf_skeleton *sk)
{
    char *text = NULL;
    size_t len = 0;
    mf_diag d;
    assert_int_equal(mf_skeleton_write(sk, &text, &len, &d), MF_OK);
    assert_int_equal(strlen(text), len);
    return text;
}

static char *rewrite(const char *text)
{
    mf_diag d;
    mf_skeleton *sk = NULL;
    assert_int_equal(mf_skeleton_parse(text, strlen(text), "rewrite.mskel", &sk, &d), MF_OK);
    char *out = write_text(sk);
    mf_skeleton_free(sk);
    return out;
}

static const mf_attachment *find(const mf_skeleton *sk, const char *skin, const char *slot,
                                 const char *name)
{
    int32_t k = mf_skeleton_find_skin(sk, skin), s = mf_skeleton_find_slot(sk, slot);
    assert_true(k >= 0 && s >= 0);
    const mf_attachment *a = mf_skin_find_attachment(&sk->skins[k], s, name);
    assert_non_null(a);
    return a;
}

static void seed_example_reads(void **state)
{
    (void)state;
    mf_skeleton *sk = load("tests/data/mskel/seed.mskel");
    assert_string_equal(sk->uid, "skl_7d1c40e2a9b3");
    assert_true(sk->fps == 30.0f);
    assert_null(sk->clips);
    assert_string_equal(sk->import.images, "Images/");
    assert_int_equal(sk->import.page_size, 2048);
    assert_string_equal(sk->import.filter, "Linear");
    assert_int_equal(sk->bone_count, 7);
    const mf_bone *torso = &sk->bones[mf_skeleton_find_bone(sk, "torso")];
    assert_int_equal(torso->parent, mf_skeleton_find_bone(sk, "hips"));
    assert_true(torso->rot == -90.0f && torso->length == 64.0f && torso->sx == 1.0f);
    assert_int_equal(torso->color, 0xffcc00ffu); /* "#ffcc00": alpha ff */
    assert_int_equal(sk->bones[0].parent, -1);
    assert_int_equal(sk->bones[0].color, 0x989898ffu);
    assert_int_equal(sk->slot_count, 4);
    const mf_slot *glow = &sk->slots[2];
    assert_string_equal(glow->name, "glow");
    assert_int_equal(glow->blend, MF_BLEND_ADDITIVE);
    assert_int_equal(glow->color, 0xffffffaau);
    assert_false(glow->has_dark);
    /* constraints: no explicit orders, so file order ik, transform, path, physics */
    assert_int_equal(sk->ik_count, 1);
    assert_int_equal(sk->ik[0].bone_count, 2);
    assert_int_equal(sk->ik[0].bones[1], mf_skeleton_find_bone(sk, "shin_l"));
    assert_int_equal(sk->ik[0].target, mf_skeleton_find_bone(sk, "foot_l_target"));
    assert_int_equal(sk->ik[0].bend, 1);
    assert_int_equal(sk->ik[0].order, 0);
    assert_int_equal(sk->physics_count, 1);
    const mf_physics_constraint *hair = &sk->physics[0];
    assert_int_equal(hair->order, 1);
    assert_true(hair->inertia == 0.5f && hair->damping == 0.85f && hair->rotate == 1.0f);
    assert_true(hair->step == 1.0f / 60.0f && hair->limit == 5000.0f && hair->x == 0.0f);
    assert_int_equal(sk->event_count, 1);
    assert_string_equal(sk->events[0].audio, "Content/Audio/step.ogg");
    assert_true(sk->events[0].volume == 0.8f);
    assert_null(sk->events[0].string_value);
    /* the weighted mesh: 5 vertices, the last with two influences */
    const mf_attachment *body = find(sk, "default", "body", "body");
    assert_int_equal(body->type, MF_ATTACH_MESH);
    assert_int_equal(body->vertices.count, 5);
    assert_null(body->vertices.xy);
    assert_int_equal(body->vertices.bone_count, 2);
    assert_int_equal(body->vertices.first[4], 4);
    assert_int_equal(body->vertices.first[5], 6);
    const mf_influence *last = &body->vertices.infl[5];
    assert_int_equal(last->bone, 1);
    assert_true(last->weight == 0.5f && last->x == 0.0f && last->y == 50.0f);
    assert_int_equal(body->triangle_count, 4);
    assert_int_equal(body->hull, 4);
    assert_int_equal(body->edge_count, 4);
    const mf_attachment *armor = find(sk, "armor", "body", "body");
    assert_int_equal(armor->type, MF_ATTACH_LINKED_MESH);
    assert_int_equal(armor->parent_skin, mf_skeleton_find_skin(sk, "default"));
    assert_string_equal(armor->image, "body_armor");
    assert_true(armor->deform);
    const mf_attachment *leg = find(sk, "default", "leg_l", "leg_l");
    assert_string_equal(leg->image, "leg_l");
    assert_true(leg->x == 20.0f && leg->rot == 90.0f && leg->sy == 1.0f);
    assert_int_equal(find(sk, "default", "hitbox", "hitbox")->vertices.count, 4);
    mf_skeleton_free(sk);
}

static void seed_write_is_a_fixed_point(void **state)
{
    (void)state;
    mf_skeleton *sk = load("tests/data/mskel/seed.mskel");
    char *first = write_text(sk);
    char *second = rewrite(first);
    assert_string_equal(first, second);
    /* defaults and the default image are left out; colours gain their alpha */
    assert_null(strstr(first, "\"image\": \"leg_l\""));
    assert_null(strstr(first, "\"blend\": \"Normal\""));
    assert_null(strstr(first, "\"strength\""));
    assert_contains(first, "\"color\": \"#ffcc00ff\"");
    assert_contains(first, "\"image\": \"body_armor\"");
    assert_contains(first, "\"import\": { \"images\": \"Images/\", \"pageSize\": 2048, \"padding\": 2, "
                           "\"scale\": 1, \"filter\": \"Linear\", \"mipmaps\": false, \"normalSuffix\": \"_n\" },\n");
    assert_contains(first, "  \"transform\": [],\n");
    assert_contains(first, "\n    { \"name\": \"hips\", \"parent\": \"root\", \"y\": -96, \"length\": 24 },\n");
    assert_contains(first, "\"weights\": { \"bones\": [\"hips\", \"torso\"], \"v\": [[0, 1, -40, 32], [0, 1, 40, "
                           "32], [1, 1, 40, -60], [1, 1, -40, -60], [0, 0.5, 0, -10, 1, 0.5, 0, 50]] }, \"uvs\"");
    free(first);
    free(second);
    mf_skeleton_free(sk);
}

/* all.mskel is canonical and holds every attachment type, sequences and every constraint kind
 * with non-default values: reading and writing it gives the same bytes. */
static void canonical_file_round_trips_byte_identically(void **state)
{
    (void)state;
    size_t len = 0;
    char *file = tu_read(tu_src("tests/data/mskel/all.mskel"), &len);
    assert_non_null(file);
    char *out = rewrite(file);
    assert_string_equal(out, file);
    free(out);
    free(file);
}

static void every_field_is_read(void **state)
{
    (void)state;
    mf_skeleton *sk = load("tests/data/mskel/all.mskel");
    assert_true(sk->fps == 24.0f);
    assert_string_equal(sk->clips, "anims/");
    const mf_import_settings *im = &sk->import;
    assert_true(im->page_size == 1024 && im->padding == 4 && im->scale == 0.5f && im->mipmaps);
    assert_string_equal(im->filter, "Nearest");
    assert_string_equal(im->normal_suffix, "_normal");
    const mf_bone *spine = &sk->bones[1];
    assert_true(spine->x == 1.5f && spine->y == -2.25f && spine->sx == 1.1f && spine->shy == -4.0f);
    assert_int_equal(spine->inherit, MF_INHERIT_NO_SCALE_OR_REFLECTION);
    assert_true(sk->bones[6].skin_required);
    assert_int_equal(sk->bones[6].color, 0x00ff0080u);
    const mf_slot *body = &sk->slots[0];
    assert_true(body->has_dark);
    assert_int_equal(body->dark, 0x102030ffu);
    assert_int_equal(body->blend, MF_BLEND_MULTIPLY);
    assert_null(sk->slots[2].attachment);
    /* constraints: explicit orders 3, 0, 7; the others follow in file order */
    const mf_ik_constraint *ik = &sk->ik[0];
    assert_true(ik->skin_required && ik->compress && ik->stretch && ik->uniform);
    assert_true(ik->mix == 0.75f && ik->softness == 5.0f && ik->bend == -1 && ik->order == 3);
    assert_int_equal(sk->ik[1].order, 8);
    assert_int_equal(sk->ik[1].bone_count, 1);
    const mf_transform_constraint *tc = &sk->transform[0];
    assert_true(tc->local && tc->relative && tc->order == 0 && tc->bone_count == 2);
    assert_true(tc->offset_sx == 0.5f && tc->offset_shy == 7.0f && tc->mix_shear_y == 0.6f);
    const mf_path_constraint *pc = &sk->path[0];
    assert_int_equal(pc->target, mf_skeleton_find_slot(sk, "rail"));
    assert_int_equal(pc->position_mode, MF_POSITION_FIXED);
    assert_int_equal(pc->spacing_mode, MF_SPACING_PROPORTIONAL);
    assert_int_equal(pc->rotate_mode, MF_ROTATE_CHAIN_SCALE);
    assert_true(pc->order == 9 && pc->mix_rotate == 0.0f && pc->spacing == 12.0f);
    const mf_physics_constraint *ph = &sk->physics[0];
    assert_true(ph->order == 7 && ph->step == 0.033333335f && ph->gravity == -9.5f && ph->mass == 2.0f);
    assert_true(ph->inertia_global && ph->strength_global && ph->damping_global && ph->mass_global &&
                ph->wind_global && ph->gravity_global && ph->mix_global);
    const mf_event_def *ev = &sk->events[0];
    assert_true(ev->int_value == -3 && ev->float_value == 2.5f && ev->balance == -0.25f);
    assert_string_equal(ev->string_value, "ouch \"quoted\"\n");
    /* skins */
    const mf_skin *tailed = &sk->skins[mf_skeleton_find_skin(sk, "tailed")];
    assert_int_equal(tailed->bone_count, 2);
    assert_int_equal(tailed->constraint_count, 2);
    assert_int_equal(tailed->constraints[0].kind, MF_CONSTRAINT_PATH);
    assert_int_equal(tailed->constraints[1].kind, MF_CONSTRAINT_IK);
    assert_int_equal(sk->skins[2].attachment_count, 0);
    /* attachments of every type */
    const mf_attachment *mesh = find(sk, "default", "body", "body");
    assert_string_equal(mesh->image, "torso");
    assert_int_equal(mesh->vertices.count, 4);
    assert_true(mesh->vertices.xy[4] == 10.0f);
    assert_true(mesh->sequence.count == 4 && mesh->sequence.start == 0 && mesh->sequence.digits == 2 &&
                mesh->sequence.setup == 3);
    assert_int_equal(mesh->color, 0xffffff80u);
    const mf_attachment *region = find(sk, "default", "arm", "arm");
    assert_true(region->width == 12.5f && region->sx == 2.0f && region->sy == -1.0f);
    assert_true(region->sequence.count == 8 && region->sequence.start == 1 && region->sequence.digits == 0);
    const mf_attachment *clip = find(sk, "default", "clip", "clip");
    assert_int_equal(clip->type, MF_ATTACH_CLIPPING);
    assert_int_equal(clip->end_slot, mf_skeleton_find_slot(sk, "spawn"));
    const mf_attachment *point = find(sk, "default", "spawn", "spawn");
    assert_true(point->type == MF_ATTACH_POINT && point->rot == 45.0f && point->y == 2.0f);
    const mf_attachment *rail = find(sk, "default", "rail", "rail");
    assert_true(rail->closed && !rail->constant_speed && rail->length_count == 2 && rail->lengths[0] == 25.5f);
    const mf_attachment *hit = find(sk, "default", "hit", "hit");
    assert_int_equal(hit->type, MF_ATTACH_BOUNDING_BOX);
    assert_int_equal(hit->vertices.count, 3);
    assert_int_equal(hit->vertices.bones[0], mf_skeleton_find_bone(sk, "spine"));
    const mf_attachment *alt = find(sk, "tailed", "body", "body_alt");
    assert_false(alt->deform);
    assert_int_equal(alt->parent_skin, 0);
    assert_true(alt->sequence.count == 2 && alt->sequence.start == 5);
    const mf_attachment *mirror = find(sk, "tailed", "body", "body_mirror");
    assert_int_equal(mirror->parent_skin, -1);
    assert_string_equal(mirror->parent, "own_mesh");
    /* own names: given on arm and spawn, the key elsewhere; the image still defaults to the key */
    assert_string_equal(region->display_name, "limbs/arm");
    assert_string_equal(region->image, "arm");
    assert_string_equal(mf_attachment_display_name(point), "spawn point");
    assert_null(mesh->display_name);
    assert_string_equal(mf_attachment_display_name(mesh), "body");
    mf_skeleton_free(sk);
}

/* displayName: kept where it differs from the key, left out where absent or equal to the key,
 * so files without one round-trip unchanged. */
static void display_name_round_trips(void **state)
{
    (void)state;
    mf_skeleton *sk = load("tests/data/mskel/seed.mskel");
    char *plain = write_text(sk);
    assert_null(strstr(plain, "displayName"));
    for (int32_t s = 0; s < sk->skin_count; s++)
        for (int32_t a = 0; a < sk->skins[s].attachment_count; a++) {
            const mf_attachment *at = &sk->skins[s].attachments[a];
            assert_null(at->display_name);
            assert_ptr_equal(mf_attachment_display_name(at), at->name);
        }
    mf_attachment *leg = (mf_attachment *)find(sk, "default", "leg_l", "leg_l");
    leg->display_name = mf_skeleton_strdup(sk, "girl/leg-front");
    char *named = write_text(sk);
    assert_contains(named, "{ \"slot\": \"leg_l\", \"name\": \"leg_l\", \"displayName\": \"girl/leg-front\", "
                           "\"type\": \"Region\"");
    char *again = rewrite(named);
    assert_string_equal(again, named);
    mf_skeleton *back = NULL;
    mf_diag d;
    assert_int_equal(mf_skeleton_parse(named, strlen(named), "named.mskel", &back, &d), MF_OK);
    const mf_attachment *leg2 = find(back, "default", "leg_l", "leg_l");
    assert_string_equal(leg2->display_name, "girl/leg-front");
    assert_string_equal(leg2->image, "leg_l");
    mf_skeleton_free(back);
    /* equal to the key: nothing written, the same bytes as without */
    leg->display_name = mf_skeleton_strdup(sk, "leg_l");
    char *same = write_text(sk);
    assert_string_equal(same, plain);
    /* empty in a model built in code: the writer names the field */
    leg->display_name = mf_skeleton_strdup(sk, "");
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(mf_skeleton_write(sk, &text, &len, &d), MF_ERR_ARGUMENT);
    assert_null(text);
    assert_contains(d.where, ".displayName");
    free(plain);
    free(named);
    free(again);
    free(same);
    mf_skeleton_free(sk);
}

/* A change to one value changes one line of the canonical text. */
static void one_edit_changes_one_line(void **state)
{
    (void)state;
    mf_skeleton *sk = load("tests/data/mskel/all.mskel");
    char *before = write_text(sk);
    sk->bones[3].x = 31.25f;
    char *after = write_text(sk);
    int differing = 0;
    const char *a = before, *b = after;
    while (*a || *b) {
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
        assert_non_null(ea);
        assert_non_null(eb);
        if (ea - a != eb - b || memcmp(a, b, (size_t)(ea - a)) != 0) {
            differing++;
            assert_contains(eb > b ? b : "", "\"x\": 31.25");
        }
        a = ea + 1;
        b = eb + 1;
    }
    assert_int_equal(differing, 1);
    free(before);
    free(after);
    mf_skeleton_free(sk);
}

/* A skeleton built in code writes the documented layout. */
static void built_model_writes_documented_layout(void **state)
{
    (void)state;
    mf_skeleton *sk = mf_skeleton_create();
    assert_non_null(sk);
    sk->uid = mf_skeleton_strdup(sk, "skl_7d1c40e2a9b3");
    sk->bone_count = 2;
    sk->bones = mf_skeleton_alloc(sk, 2 * sizeof *sk->bones);
    sk->bones[0] = (mf_bone){.name = mf_skeleton_strdup(sk, "root"), .parent = -1, .sx = 1, .sy = 1,
                             .color = 0x989898ffu};
    sk->bones[1] = (mf_bone){.name = mf_skeleton_strdup(sk, "hips"), .parent = 0, .y = -96, .sx = 1,
                             .sy = 1, .length = 24, .color = 0x989898ffu};
    sk->slot_count = 1;
    sk->slots = mf_skeleton_alloc(sk, sizeof *sk->slots);
    sk->slots[0] = (mf_slot){.name = mf_skeleton_strdup(sk, "body"), .bone = 1,
                             .attachment = mf_skeleton_strdup(sk, "body"), .color = 0xffffffffu};
    sk->skin_count = 1;
    sk->skins = mf_skeleton_alloc(sk, sizeof *sk->skins);
    sk->skins[0].name = mf_skeleton_strdup(sk, "default");
    sk->skins[0].attachment_count = 1;
    mf_attachment *a = sk->skins[0].attachments = mf_skeleton_alloc(sk, sizeof *a);
    *a = (mf_attachment){.slot = 0, .name = mf_skeleton_strdup(sk, "body"), .type = MF_ATTACH_REGION,
                         .image = mf_skeleton_strdup(sk, "body"), .color = 0xffffffffu, .sx = 1, .sy = 1,
                         .width = 40, .height = 80};
    char *text = write_text(sk);
    assert_string_equal(text,
                        "{\n"
                        "  \"format\": 1,\n"
                        "  \"uid\": \"skl_7d1c40e2a9b3\",\n"
                        "  \"type\": \"Skeleton\",\n"
                        "  \"fps\": 30,\n"
                        "  \"import\": { \"images\": \"images/\", \"pageSize\": 2048, \"padding\": 2, \"scale\": 1, "
                        "\"filter\": \"Linear\", \"mipmaps\": false, \"normalSuffix\": \"_n\" },\n"
                        "  \"bones\": [\n"
                        "    { \"name\": \"root\" },\n"
                        "    { \"name\": \"hips\", \"parent\": \"root\", \"y\": -96, \"length\": 24 }\n"
                        "  ],\n"
                        "  \"slots\": [\n"
                        "    { \"name\": \"body\", \"bone\": \"hips\", \"attachment\": \"body\" }\n"
                        "  ],\n"
                        "  \"ik\": [],\n"
                        "  \"transform\": [],\n"
                        "  \"path\": [],\n"
                        "  \"physics\": [],\n"
                        "  \"events\": [],\n"
                        "  \"skins\": [\n"
                        "    { \"name\": \"default\",\n"
                        "      \"attachments\": [\n"
                        "        { \"slot\": \"body\", \"name\": \"body\", \"type\": \"Region\", \"width\": 40, "
                        "\"height\": 80 }\n"
                        "      ] }\n"
                        "  ]\n"
                        "}\n");
    char *again = rewrite(text);
    assert_string_equal(again, text);
    free(again);
    free(text);
    mf_skeleton_free(sk);
}

/* Bad indices in a model built in code fail with the model field, never a crash. */
static void writer_rejects_bad_models(void **state)
{
    (void)state;
    mf_skeleton *sk = load("tests/data/mskel/seed.mskel");
    char *text = NULL;
    size_t len = 0;
    mf_diag d;
    sk->bones[2].parent = 99;
    assert_int_equal(mf_skeleton_write(sk, &text, &len, &d), MF_ERR_ARGUMENT);
    assert_null(text);
    assert_string_equal(d.where, "bones[2].parent");
    sk->bones[2].parent = 1;
    sk->skins[0].attachments[1].slot = -1;
    assert_int_equal(mf_skeleton_write(sk, &text, &len, &d), MF_ERR_ARGUMENT);
    assert_string_equal(d.where, "skins[0].attachments[1].slot");
    assert_contains(d.message, "slot index -1 out of range");
    sk->skins[0].attachments[1].slot = 0;
    sk->skins[0].attachments[0].vertices.infl[5].bone = 7;
    assert_int_equal(mf_skeleton_write(sk, &text, &len, &d), MF_ERR_ARGUMENT);
    assert_string_equal(d.where, "skins[0].attachments[0].weights");
    sk->skins[0].attachments[0].vertices.infl[5].bone = 1;
    sk->uid = NULL;
    assert_int_equal(mf_skeleton_save(sk, tu_tmp("nouid.mskel"), &d), MF_ERR_ARGUMENT);
    assert_string_equal(d.where, "uid");
    assert_contains(d.file, "nouid.mskel");
    FILE *f = fopen(tu_tmp("nouid.mskel"), "rb");
    assert_null(f);
    mf_skeleton_free(sk);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
    closedir(d);
    return n;
}

static void save_is_atomic(void **state)
{
    (void)state;
    mf_skeleton *sk = load("tests/data/mskel/seed.mskel");
    char *canonical = write_text(sk);
    mkdir(tu_tmp("save"), 0777);
    int before = count_entries(tu_tmp("save"));
    /* a missing folder: fails, creates nothing */
    mf_diag d;
    assert_int_equal(mf_skeleton_save(sk, tu_tmp("save/missing/hero.mskel"), &d), MF_ERR_IO);
    assert_contains(d.file, "save/missing/hero.mskel");
    struct stat st;
    assert_int_not_equal(stat(tu_tmp("save/missing"), &st), 0);
    assert_int_equal(count_entries(tu_tmp("save")), before);
    /* over a longer existing file: replaced completely, no temporary left */
    char *junk = malloc(200000);
    memset(junk, 'x', 199999);
    junk[199999] = '\0';
    assert_int_equal(tu_write(tu_tmp("save/hero.mskel"), junk), 0);
    free(junk);
    assert_int_equal(mf_skeleton_save(sk, tu_tmp("save/hero.mskel"), &d), MF_OK);
    size_t len = 0;
    char *saved = tu_read(tu_tmp("save/hero.mskel"), &len);
    assert_int_equal(len, strlen(canonical));
    assert_string_equal(saved, canonical);
    assert_int_equal(count_entries(tu_tmp("save")), before + 1);
    free(saved);
    free(canonical);
    mf_skeleton_free(sk);
}

static void lookups_find_names(void **state)
{
    (void)state;
    mf_skeleton *sk = load("tests/data/mskel/all.mskel");
    assert_int_equal(mf_skeleton_find_bone(sk, "hand"), 3);
    assert_int_equal(mf_skeleton_find_bone(sk, "Hand"), -1);
    assert_int_equal(mf_skeleton_find_slot(sk, "rail"), 5);
    assert_int_equal(mf_skeleton_find_skin(sk, "empty"), 2);
    assert_int_equal(mf_skeleton_find_event(sk, "silent"), 1);
    assert_int_equal(mf_skeleton_find_event(sk, "loud"), -1);
    mf_constraint_ref r;
    assert_true(mf_skeleton_find_constraint(sk, "wobble", &r));
    assert_int_equal(r.kind, MF_CONSTRAINT_PHYSICS);
    assert_int_equal(r.index, 0);
    assert_true(mf_skeleton_find_constraint(sk, "look", &r));
    assert_int_equal(r.kind, MF_CONSTRAINT_IK);
    assert_int_equal(r.index, 1);
    assert_false(mf_skeleton_find_constraint(sk, "nope", &r));
    assert_null(mf_skin_find_attachment(&sk->skins[0], 0, "arm")); /* "arm" is in slot arm, not body */
    assert_non_null(mf_skin_find_attachment(&sk->skins[0], 1, "arm"));
    mf_skeleton_free(sk);
}

static void enum_names_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < MF_INHERIT_COUNT; i++) assert_int_equal(mf_inherit_parse(mf_inherit_name((mf_inherit)i)), i);
    for (int i = 0; i < MF_BLEND_COUNT; i++) assert_int_equal(mf_blend_parse(mf_blend_name((mf_blend)i)), i);
    for (int i = 0; i < MF_ATTACH_TYPE_COUNT; i++)
        assert_int_equal(mf_attachment_type_parse(mf_attachment_type_name((mf_attachment_type)i)), i);
    for (int i = 0; i < 2; i++)
        assert_int_equal(mf_position_mode_parse(mf_position_mode_name((mf_position_mode)i)), i);
    for (int i = 0; i < 4; i++) assert_int_equal(mf_spacing_mode_parse(mf_spacing_mode_name((mf_spacing_mode)i)), i);
    for (int i = 0; i < 3; i++) assert_int_equal(mf_rotate_mode_parse(mf_rotate_mode_name((mf_rotate_mode)i)), i);
    assert_string_equal(mf_inherit_name(MF_INHERIT_NO_SCALE_OR_REFLECTION), "NoScaleOrReflection");
    assert_string_equal(mf_attachment_type_name(MF_ATTACH_LINKED_MESH), "LinkedMesh");
    assert_string_equal(mf_constraint_kind_name(MF_CONSTRAINT_TRANSFORM), "transform");
    assert_string_equal(mf_rotate_mode_name(MF_ROTATE_CHAIN_SCALE), "chainScale");
    assert_int_equal(mf_blend_parse("additive"), -1); /* exact spelling only */
    assert_int_equal(mf_inherit_parse(NULL), -1);
}

static void create_sets_defaults(void **state)
{
    (void)state;
    mf_skeleton *sk = mf_skeleton_create();
    assert_non_null(sk);
    assert_int_equal(sk->format, MF_SKELETON_FORMAT);
    assert_true(sk->fps == 30.0f);
    assert_string_equal(sk->import.images, "images/");
    assert_string_equal(sk->import.normal_suffix, "_n");
    assert_true(sk->import.scale == 1.0f && sk->import.padding == 2);
    char *s = mf_skeleton_strdup(sk, "abc");
    assert_string_equal(s, "abc");
    int32_t *z = mf_skeleton_alloc(sk, 64 * sizeof *z);
    for (int i = 0; i < 64; i++) assert_int_equal(z[i], 0);
    mf_skeleton_free(sk);
    mf_skeleton_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_example_reads),
        cmocka_unit_test(seed_write_is_a_fixed_point),
        cmocka_unit_test(canonical_file_round_trips_byte_identically),
        cmocka_unit_test(every_field_is_read),
        cmocka_unit_test(display_name_round_trips),
        cmocka_unit_test(one_edit_changes_one_line),
        cmocka_unit_test(built_model_writes_documented_layout),
        cmocka_unit_test(writer_rejects_bad_models),
        cmocka_unit_test(save_is_atomic),
        cmocka_unit_test(lookups_find_names),
        cmocka_unit_test(enum_names_round_trip),
        cmocka_unit_test(create_sets_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
