/* Malformed .mskel files: each gets one exact located message (file: JSON path: what is wrong).
 * The inputs use ' for " (and ` for ') to stay readable; q() swaps them back. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_skeleton.h"

/* ' → " and ` → ' in a malloc'd copy. */
static char *q(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    for (size_t i = 0;; i++) {
        d[i] = s[i] == '\'' ? '"' : s[i] == '`' ? '\'' : s[i];
        if (!s[i]) break;
    }
    return d;
}

/* Parses json as hero.mskel; returns the formatted diagnostic ("" on success). */
static mf_result parse(const char *json, char *msg, size_t size)
{
    char *text = q(json);
    mf_diag d;
    mf_skeleton *sk = NULL;
    mf_result r = mf_skeleton_parse(text, strlen(text), "hero.mskel", &sk, &d);
    free(text);
    if (r == MF_OK) {
        assert_non_null(sk);
        mf_skeleton_free(sk);
        msg[0] = '\0';
    } else {
        assert_null(sk);
        mf_diag_format(&d, msg, size);
    }
    return r;
}

#define HEAD "{ 'format': 1, 'uid': 'skl_0123456789ab', 'type': 'Skeleton', "
#define BONES                                                                                      \
    "'bones': [ { 'name': 'root' }, { 'name': 'hips', 'parent': 'root' }, "                        \
    "{ 'name': 'thigh_l', 'parent': 'hips' }, { 'name': 'shin_l', 'parent': 'thigh_l' }, "         \
    "{ 'name': 'tail', 'parent': 'root', 'skinRequired': true } ], "
#define SLOTS "'slots': [ { 'name': 'body', 'bone': 'hips' }, { 'name': 'leg_l', 'bone': 'thigh_l' } ], "
/* A skin holding one attachment A (of slot body unless A says otherwise). */
#define SKIN(A) "'skins': [ { 'name': 'default', 'attachments': [ " A " ] } ] }"
#define MESH(EXTRA)                                                                                \
    "{ 'slot': 'body', 'name': 'm', 'type': 'Mesh', 'uvs': [0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5], "  \
    "'triangles': [0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4] " EXTRA " }"
#define XY ", 'vertices': [0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5]"

typedef struct err_case {
    const char *json;
    mf_result result;
    const char *message; /* with ' for " */
} err_case;

static const err_case cases[] = {
    /* malformed JSON and the top level */
    {"{\n  'format': 1,\n  'uid' 'skl_0123456789ab'\n}", MF_ERR_INVALID,
     "hero.mskel: line 3, column 9: malformed JSON"},
    {"", MF_ERR_INVALID, "hero.mskel: empty file: expected a JSON object"},
    {HEAD "'bones': [] } trailing", MF_ERR_INVALID, "hero.mskel: line 1, column 77: malformed JSON"},
    {"[1]", MF_ERR_INVALID, "hero.mskel: expected an object, got an array"},
    {"{ 'uid': 'skl_0123456789ab', 'type': 'Skeleton' }", MF_ERR_INVALID, "hero.mskel: missing 'format'"},
    {"{ 'format': 2, 'uid': 'skl_0123456789ab', 'type': 'Skeleton' }", MF_ERR_UNSUPPORTED,
     "hero.mskel: format: unsupported format 2 (this version reads 1)"},
    {"{ 'format': '1', 'uid': 'skl_0123456789ab', 'type': 'Skeleton' }", MF_ERR_INVALID,
     "hero.mskel: format: expected an integer, got a string"},
    {"{ 'format': 1, 'uid': 'skl_0123456789AB', 'type': 'Skeleton' }", MF_ERR_INVALID,
     "hero.mskel: uid: bad uid 'skl_0123456789AB': expected 'skl_' and 12 lowercase hex digits"},
    {"{ 'format': 1, 'type': 'Skeleton' }", MF_ERR_INVALID, "hero.mskel: missing 'uid'"},
    {"{ 'format': 1, 'uid': 'skl_0123456789ab', 'type': 'SkeletonClip' }", MF_ERR_INVALID,
     "hero.mskel: type: expected 'Skeleton', got 'SkeletonClip'"},
    {HEAD "'fps': 0 }", MF_ERR_INVALID, "hero.mskel: fps: must be positive"},
    {HEAD "'bnoes': [] }", MF_ERR_INVALID, "hero.mskel: bnoes: unknown key 'bnoes' (did you mean 'bones'?)"},
    {HEAD "'bones': [], 'bones': [] }", MF_ERR_INVALID, "hero.mskel: bones: duplicate key 'bones'"},
    {HEAD "'bones': {} }", MF_ERR_INVALID, "hero.mskel: bones: expected an array, got an object"},
    {HEAD "'import': { 'filter': 'Linaer' } }", MF_ERR_INVALID,
     "hero.mskel: import.filter: unknown filter 'Linaer' (did you mean 'Linear'?)"},
    {HEAD "'import': { 'pageSize': 0 } }", MF_ERR_INVALID, "hero.mskel: import.pageSize: must be positive"},
    {HEAD "'import': { 'mipmap': true } }", MF_ERR_INVALID,
     "hero.mskel: import.mipmap: unknown key 'mipmap' (did you mean 'mipmaps'?)"},
    /* bones */
    {HEAD "'bones': [ 'root' ] }", MF_ERR_INVALID, "hero.mskel: bones[0]: expected an object, got a string"},
    {HEAD "'bones': [ { 'name': 'root' }, { 'parent': 'root' } ] }", MF_ERR_INVALID,
     "hero.mskel: bones[1]: missing 'name'"},
    {HEAD "'bones': [ { 'name': '' } ] }", MF_ERR_INVALID,
     "hero.mskel: bones[0].name: expected a non-empty string, got an empty string"},
    {HEAD "'bones': [ { 'name': 'root', 'x': '1' } ] }", MF_ERR_INVALID,
     "hero.mskel: bones[0].x: expected a number, got a string"},
    {HEAD "'bones': [ { 'name': 'root', 'lenght': 3 } ] }", MF_ERR_INVALID,
     "hero.mskel: bones[0].lenght: unknown key 'lenght' (did you mean 'length'?)"},
    {HEAD "'bones': [ { 'name': 'root' }, { 'name': 'hips', 'parent': 'root' }, { 'name': 'thigh_l', "
          "'parent': 'hips' }, { 'name': 'thigh_r', 'parent': 'hips' }, { 'name': 'shin_l', 'parent': "
          "'thigh_x' } ] }",
     MF_ERR_INVALID, "hero.mskel: bones[4].parent: unknown bone 'thigh_x' (did you mean 'thigh_l'?)"},
    {HEAD "'bones': [ { 'name': 'root' }, { 'name': 'root' } ] }", MF_ERR_INVALID,
     "hero.mskel: bones[1].name: duplicate bone 'root' (also bones[0])"},
    {HEAD "'bones': [ { 'name': 'root' }, { 'name': 'shin', 'parent': 'thigh' }, { 'name': 'thigh', "
          "'parent': 'root' } ] }",
     MF_ERR_INVALID,
     "hero.mskel: bones[1].parent: parent 'thigh' comes after this bone (bones[2]): parents must come "
     "before their children"},
    {HEAD "'bones': [ { 'name': 'root', 'parent': 'root' } ] }", MF_ERR_INVALID,
     "hero.mskel: bones[0].parent: a bone cannot be its own parent"},
    {HEAD "'bones': [ { 'name': 'root', 'inherit': 'NoScal' } ] }", MF_ERR_INVALID,
     "hero.mskel: bones[0].inherit: unknown inherit 'NoScal' (did you mean 'NoScale'?)"},
    {HEAD "'bones': [ { 'name': 'root', 'color': '#ff00zz' } ] }", MF_ERR_INVALID,
     "hero.mskel: bones[0].color: bad colour '#ff00zz': `z` is not a hex digit"},
    {HEAD "'bones': [ { 'name': 'root', 'color': '#fff' } ] }", MF_ERR_INVALID,
     "hero.mskel: bones[0].color: bad colour '#fff': expected '#rrggbb' or '#rrggbbaa'"},
    {HEAD "'bones': [ { 'name': 'root', 'length': -1 } ] }", MF_ERR_INVALID,
     "hero.mskel: bones[0].length: must not be below 0, got -1"},
    /* slots */
    {HEAD BONES "'slots': [ { 'name': 'body', 'bone': 'hip' } ] }", MF_ERR_INVALID,
     "hero.mskel: slots[0].bone: unknown bone 'hip' (did you mean 'hips'?)"},
    {HEAD BONES "'slots': [ { 'name': 'body' } ] }", MF_ERR_INVALID, "hero.mskel: slots[0]: missing 'bone'"},
    {HEAD BONES "'slots': [ { 'name': 'body', 'bone': 'hips' }, { 'name': 'body', 'bone': 'root' } ] }",
     MF_ERR_INVALID, "hero.mskel: slots[1].name: duplicate slot 'body' (also slots[0])"},
    {HEAD BONES "'slots': [ { 'name': 'body', 'bone': 'hips', 'blend': 'Aditive' } ] }", MF_ERR_INVALID,
     "hero.mskel: slots[0].blend: unknown blend 'Aditive' (did you mean 'Additive'?)"},
    {HEAD BONES "'slots': [ { 'name': 'body', 'bone': 'hips', 'blend': 'Overlay' } ] }", MF_ERR_INVALID,
     "hero.mskel: slots[0].blend: unknown blend 'Overlay' (expected 'Normal', 'Additive', 'Multiply' or "
     "'Screen')"},
    {HEAD BONES "'slots': [ { 'name': 'body', 'bone': 'hips', 'dark': '#102030ff' } ] }", MF_ERR_INVALID,
     "hero.mskel: slots[0].dark: bad colour '#102030ff': the dark colour has no alpha, expected '#rrggbb'"},
    {HEAD BONES "'slots': [ { 'name': 'body', 'bone': 'hips', 'attachment': 'bdy' } ], " SKIN(MESH(XY)),
     MF_ERR_INVALID, "hero.mskel: slots[0].attachment: no skin has an attachment 'bdy' for slot 'body'"},
    {HEAD BONES "'slots': [ { 'name': 'body', 'bone': 'hips', 'attachment': 'n' } ], " SKIN(MESH(XY)),
     MF_ERR_INVALID,
     "hero.mskel: slots[0].attachment: no skin has an attachment 'n' for slot 'body' (did you mean 'm'?)"},
    /* constraints */
    {HEAD BONES "'ik': [ { 'name': 'leg', 'bones': ['thigh_l', 'shin_l'], 'target': 'trgt' } ] }",
     MF_ERR_INVALID, "hero.mskel: ik[0].target: unknown bone 'trgt'"},
    {HEAD BONES "'ik': [ { 'name': 'leg', 'bones': ['hips', 'shin_l'], 'target': 'root' } ] }",
     MF_ERR_INVALID, "hero.mskel: ik[0].bones[1]: bone 'shin_l' is not a child of 'hips'"},
    {HEAD BONES "'ik': [ { 'name': 'leg', 'bones': ['hips', 'thigh_l', 'shin_l'], 'target': 'root' } ] }",
     MF_ERR_INVALID, "hero.mskel: ik[0].bones: expected 1 or 2 bones, got 3"},
    {HEAD BONES "'ik': [ { 'name': 'leg', 'bones': ['thigh_l'], 'target': 'thigh_l' } ] }", MF_ERR_INVALID,
     "hero.mskel: ik[0].target: bone 'thigh_l' cannot be its own target"},
    {HEAD BONES "'ik': [ { 'name': 'leg', 'bones': ['thigh_l'], 'target': 'root', 'bend': 0 } ] }",
     MF_ERR_INVALID, "hero.mskel: ik[0].bend: expected 1 or -1, got 0"},
    {HEAD BONES "'ik': [ { 'name': 'a', 'bones': ['thigh_l'], 'target': 'root' } ], 'transform': [ { "
                "'name': 'a', 'bones': ['hips'], 'target': 'root' } ] }",
     MF_ERR_INVALID, "hero.mskel: transform[0].name: duplicate constraint 'a' (also ik[0])"},
    {HEAD BONES "'transform': [ { 'name': 't', 'bones': [], 'target': 'root' } ] }", MF_ERR_INVALID,
     "hero.mskel: transform[0].bones: expected at least 1 bone, got 0"},
    {HEAD BONES "'transform': [ { 'name': 't', 'bones': ['hips', 'hips'], 'target': 'root' } ] }",
     MF_ERR_INVALID, "hero.mskel: transform[0].bones[1]: bone 'hips' is listed twice"},
    {HEAD BONES SLOTS "'path': [ { 'name': 'p', 'bones': ['hips'], 'target': 'hips' } ] }", MF_ERR_INVALID,
     "hero.mskel: path[0].target: unknown slot 'hips'"},
    {HEAD BONES SLOTS "'path': [ { 'name': 'p', 'bones': ['hips'], 'target': 'body', 'rotateMode': "
                      "'chainscale' } ] }",
     MF_ERR_INVALID, "hero.mskel: path[0].rotateMode: unknown rotate mode 'chainscale' (did you mean 'chainScale'?)"},
    {HEAD BONES "'physics': [ { 'name': 'p', 'bone': 'tail', 'rotate': 1.5 } ] }", MF_ERR_INVALID,
     "hero.mskel: physics[0].rotate: 1.5 is out of range 0..1"},
    {HEAD BONES "'physics': [ { 'name': 'p', 'bone': 'tail', 'mass': 0 } ] }", MF_ERR_INVALID,
     "hero.mskel: physics[0].mass: must be positive"},
    {HEAD BONES "'physics': [ { 'name': 'p', 'bone': 'tail', 'step': 0 } ] }", MF_ERR_INVALID,
     "hero.mskel: physics[0].step: must be positive (seconds)"},
    {HEAD BONES "'ik': [ { 'name': 'leg', 'order': 2, 'bones': ['thigh_l'], 'target': 'root' } ], "
                "'physics': [ { 'name': 'hair', 'order': 2, 'bone': 'tail' } ] }",
     MF_ERR_INVALID, "hero.mskel: physics[0].order: duplicate order 2 (also ik constraint 'leg')"},
    {HEAD BONES "'ik': [ { 'name': 'leg', 'order': -1, 'bones': ['thigh_l'], 'target': 'root' } ] }",
     MF_ERR_INVALID, "hero.mskel: ik[0].order: must not be negative"},
    /* events */
    {HEAD "'events': [ { 'name': 'step', 'balance': 2 } ] }", MF_ERR_INVALID,
     "hero.mskel: events[0].balance: 2 is out of range -1..1"},
    {HEAD "'events': [ { 'name': 'step' }, { 'name': 'step' } ] }", MF_ERR_INVALID,
     "hero.mskel: events[1].name: duplicate event 'step' (also events[0])"},
    {HEAD "'events': [ { 'name': 'step', 'int': 1.5 } ] }", MF_ERR_INVALID,
     "hero.mskel: events[0].int: expected an integer, got 1.5"},
    /* skins and attachments */
    {HEAD BONES SLOTS "'skins': [ { 'name': 'a' }, { 'name': 'a' } ] }", MF_ERR_INVALID,
     "hero.mskel: skins[1].name: duplicate skin 'a' (also skins[0])"},
    {HEAD BONES SLOTS "'skins': [ { 'name': 'a', 'bones': ['hips'] } ] }", MF_ERR_INVALID,
     "hero.mskel: skins[0].bones[0]: bone 'hips' is not skinRequired, so a skin cannot add it"},
    {HEAD BONES SLOTS "'ik': [ { 'name': 'leg', 'bones': ['thigh_l'], 'target': 'root' } ], 'skins': [ { "
                      "'name': 'a', 'constraints': ['leg'] } ] }",
     MF_ERR_INVALID,
     "hero.mskel: skins[0].constraints[0]: constraint 'leg' is not skinRequired, so a skin cannot add it"},
    {HEAD BONES SLOTS "'ik': [ { 'name': 'leg', 'bones': ['thigh_l'], 'target': 'root' } ], 'skins': [ { "
                      "'name': 'a', 'constraints': ['lge'] } ] }",
     MF_ERR_INVALID, "hero.mskel: skins[0].constraints[0]: unknown constraint 'lge' (did you mean 'leg'?)"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'bdy', 'name': 'r', 'type': 'Region', 'width': 1, 'height': 1 }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].slot: unknown slot 'bdy' (did you mean 'body'?)"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'r', 'width': 1, 'height': 1 }"), MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0]: missing 'type'"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'r', 'type': 'Regoin', 'width': 1, 'height': 1 }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].type: unknown attachment type 'Regoin' (did you mean 'Region'?)"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'r', 'type': 'Region', 'width': 1 }"), MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0]: missing 'height'"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'r', 'type': 'Region', 'width': 1, 'height': 0 }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].height: must be positive"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'r', 'type': 'Region', 'width': 1, 'height': 1, "
                           "'uvs': [] }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].uvs: 'uvs' does not apply to a Region attachment"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'r', 'displayName': 7, 'type': 'Region', 'width': 1, "
                           "'height': 1 }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].displayName: expected a non-empty string, got a number"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'r', 'type': 'Region', 'width': 1, 'height': 1 }, "
                           "{ 'slot': 'body', 'name': 'p', 'displayName': '', 'type': 'Point' }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[1].displayName: expected a non-empty string, got an empty string"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'r', 'type': 'Region', 'width': 1, 'height': 1, "
                           "'colr': '#ffffff' }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].colr: unknown key 'colr' (did you mean 'color'?)"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'r', 'type': 'Region', 'width': 1, 'height': 1 }, "
                           "{ 'slot': 'body', 'name': 'r', 'type': 'Point' }"),
     MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[1].name: duplicate attachment 'r' in slot 'body' (also attachments[0])"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'r', 'type': 'Region', 'width': 1, 'height': 1, "
                           "'sequence': { 'count': 4, 'setup': 4 } }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].sequence.setup: frame 4 out of range (4 frames)"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'r', 'type': 'Region', 'width': 1, 'height': 1, "
                           "'sequence': { 'start': 1 } }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].sequence: missing 'count'"},
    /* meshes */
    {HEAD BONES SLOTS SKIN(MESH("")), MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0]: missing 'vertices' or 'weights'"},
    {HEAD BONES SLOTS SKIN(MESH(XY ", 'weights': { 'bones': ['hips'], 'v': [] }")), MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0]: has both 'vertices' and 'weights' (give one)"},
    {HEAD BONES SLOTS SKIN(MESH(", 'vertices': [0, 0, 1, 0, 1, 1, 0, 1]")), MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0].vertices: 4 vertices, but 'uvs' has 5"},
    {HEAD BONES SLOTS SKIN(MESH(", 'vertices': [0, 0, 1, 0, 1, 1, 0, 1, 0.5]")), MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0].vertices: 9 numbers: expected x, y pairs"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'm', 'type': 'Mesh', 'uvs': [0, 0, 1, 0, 1, 1, 0, 1, "
                           "0.5, 0.5], 'triangles': [0, 1, 4, 1, 2, 4, 2, 9, 4, 3, 0, 4]" XY " }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].triangles[7]: vertex index 9 out of range (5 vertices)"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'm', 'type': 'Mesh', 'uvs': [0, 0, 1, 0, 1, 1, 0, 1, "
                           "0.5, 0.5], 'triangles': [0, 1, 4, 1]" XY " }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].triangles: 4 indices: expected 3 per triangle"},
    {HEAD BONES SLOTS SKIN(MESH(XY ", 'hull': 6")), MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0].hull: 6 out of range 0..5 (the vertex count)"},
    {HEAD BONES SLOTS SKIN(MESH(XY ", 'edges': [0, 1, 1, 5]")), MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0].edges[3]: vertex index 5 out of range (5 vertices)"},
    {HEAD BONES SLOTS SKIN(MESH(XY ", 'edges': [0, 1, 1]")), MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0].edges: 3 indices: expected pairs"},
    {HEAD BONES SLOTS SKIN(MESH(", 'weights': { 'bones': ['hips', 'root'], 'v': [[0, 1, 0, 0], [0, 1, 0, "
                                "0], [2, 1, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0]] }")),
     MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0].weights.v[2][0]: bone index 2 out of range (weights.bones has 2)"},
    {HEAD BONES SLOTS SKIN(MESH(", 'weights': { 'bones': ['hips'], 'v': [[0, 1, 0, 0], [0, -0.5, 0, 0], [0, "
                                "1, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0]] }")),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].weights.v[1][1]: negative weight -0.5"},
    {HEAD BONES SLOTS SKIN(MESH(", 'weights': { 'bones': ['hips'], 'v': [[0, 1, 0, 0], [0, 1, 0], [0, 1, 0, "
                                "0], [0, 1, 0, 0], [0, 1, 0, 0]] }")),
     MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0].weights.v[1]: expected [bone, weight, x, y] groups, got 3 numbers"},
    {HEAD BONES SLOTS SKIN(MESH(", 'weights': { 'bones': ['hips'], 'v': [[0, 1, 0, 0], [0, 1, 0, 0, 0, 1, 0, "
                                "0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, "
                                "0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, "
                                "0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0]] }")),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].weights.v[1]: 17 influences (at most 16)"},
    {HEAD BONES SLOTS SKIN(MESH(", 'weights': { 'bones': ['hips'], 'v': [[0, 1, 0, 0]] }")), MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0].weights.v: 1 vertices, but 'uvs' has 5"},
    {HEAD BONES SLOTS SKIN(MESH(", 'weights': { 'bones': ['hip'], 'v': [] }")), MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0].weights.bones[0]: unknown bone 'hip' (did you mean 'hips'?)"},
    /* linked meshes, polygons, paths */
    {HEAD BONES SLOTS SKIN(MESH(XY) ", { 'slot': 'body', 'name': 'l', 'type': 'LinkedMesh', 'parent': 'n' }"),
     MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[1].parent: unknown mesh 'n' in slot 'body' of skin 'default' (did you "
     "mean 'm'?)"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'p', 'type': 'Point' }, { 'slot': 'body', 'name': 'l', "
                           "'type': 'LinkedMesh', 'parent': 'p' }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[1].parent: parent 'p' is a Point, expected a Mesh"},
    {HEAD BONES SLOTS SKIN(MESH(XY) ", { 'slot': 'body', 'name': 'l', 'type': 'LinkedMesh', 'parent': 'm', "
                                    "'skin': 'defualt' }"),
     MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[1].skin: unknown skin 'defualt' (did you mean 'default'?)"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'b', 'type': 'BoundingBox', 'vertices': [0, 0, 1, 1] }"),
     MF_ERR_INVALID,
     "hero.mskel: skins[0].attachments[0].vertices: a polygon needs at least 3 vertices, got 2"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'c', 'type': 'Clipping', 'vertices': [0, 0, 1, 0, 1, "
                           "1], 'end': 'leg' }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].end: unknown slot 'leg' (did you mean 'leg_l'?)"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'p', 'type': 'Path', 'vertices': [0, 0, 1, 0, 1, 1, 2, "
                           "2], 'lengths': [1] }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].vertices: 4 vertices: expected 3 per bezier segment"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'p', 'type': 'Path', 'vertices': [0, 0, 1, 0, 1, 1], "
                           "'lengths': [1, 2] }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0].lengths: 2 lengths for 1 segments"},
    {HEAD BONES SLOTS SKIN("{ 'slot': 'body', 'name': 'p', 'type': 'Path', 'vertices': [0, 0, 1, 0, 1, 1] }"),
     MF_ERR_INVALID, "hero.mskel: skins[0].attachments[0]: missing 'lengths'"},
};

static void every_error_is_located(void **state)
{
    (void)state;
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char got[1200];
        mf_result r = parse(cases[i].json, got, sizeof got);
        char *want = q(cases[i].message);
        if (r != cases[i].result || strcmp(got, want) != 0) {
            print_error("case %zu: result %d (want %d)\n  got:  %s\n  want: %s\n", i, (int)r,
                        (int)cases[i].result, got, want);
            failures++;
        }
        free(want);
    }
    assert_int_equal(failures, 0);
}

/* The base documents of the cases are valid: each failure comes from the one broken part. */
static void case_bases_are_valid(void **state)
{
    (void)state;
    char got[1200];
    assert_int_equal(parse(HEAD BONES SLOTS SKIN(MESH(XY)), got, sizeof got), MF_OK);
    assert_int_equal(parse(HEAD BONES SLOTS SKIN(MESH(", 'weights': { 'bones': ['hips', 'root'], 'v': [[0, 1, 0, "
                                                   "0], [0, 1, 0, 0], [1, 1, 0, 0], [0, 0.5, 0, 0, 1, 0.5, 0, "
                                                   "0], [0, 1, 0, 0]] }")),
                           got, sizeof got),
                     MF_OK);
    assert_int_equal(parse(HEAD BONES "'ik': [ { 'name': 'leg', 'order': 2, 'bones': ['thigh_l', 'shin_l'], "
                                      "'target': 'root' } ], 'physics': [ { 'name': 'hair', 'order': 1, "
                                      "'bone': 'tail' } ] }",
                           got, sizeof got),
                     MF_OK);
}

static void missing_file_is_an_io_error(void **state)
{
    (void)state;
    mf_diag d;
    mf_skeleton *sk = (mf_skeleton *)&d; /* must be reset to NULL */
    assert_int_equal(mf_skeleton_load(tu_tmp("no-such.mskel"), &sk, &d), MF_ERR_IO);
    assert_null(sk);
    assert_contains(d.file, "no-such.mskel");
    assert_contains(d.message, "cannot open");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_error_is_located),
        cmocka_unit_test(case_bases_are_valid),
        cmocka_unit_test(missing_file_is_an_io_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
