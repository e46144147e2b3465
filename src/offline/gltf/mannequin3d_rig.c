/* The mannequin's skeleton: one table of bones with T-pose positions and box sizes, named per
 * naming convention, and the node order (shuffled for the unnamed variant). */
#include <stdio.h>
#include <string.h>

#include "mannequin3d_rig.h"

typedef struct row {
    const char *canon;
    int parent;
    float hx, hy, hz;     /* head */
    int tail_bone;        /* -1: tail given */
    float tx, ty, tz;
    float half_w, half_d;
    const char *mixamo, *unreal, *blender; /* NULL: not in that naming */
} row;

#define L(i) (M3D_LEFT0 + (i))
static const row k_rows[M3D_LEFT0 + M3D_SIDE_COUNT] = {
    {"", -1, 0, 0, 0, M3D_HIPS, 0, 0, 0, 0, 0, NULL, "root", NULL},
    {"Hips", M3D_ROOT, 0, 1.00f, 0, M3D_SPINE, 0, 0, 0, 0.15f, 0.10f, "Hips", "pelvis", "DEF-spine"},
    {"Spine", M3D_HIPS, 0, 1.10f, 0, M3D_CHEST, 0, 0, 0, 0.14f, 0.09f, "Spine", "spine_01", "DEF-spine.001"},
    {"Chest", M3D_SPINE, 0, 1.22f, 0, M3D_UPPER_CHEST, 0, 0, 0, 0.15f, 0.10f, "Spine1", "spine_02", "DEF-spine.002"},
    {"UpperChest", M3D_CHEST, 0, 1.34f, 0, M3D_NECK, 0, 0, 0, 0.17f, 0.10f, "Spine2", "spine_03", "DEF-spine.003"},
    {"Neck", M3D_UPPER_CHEST, 0, 1.50f, 0, M3D_HEAD, 0, 0, 0, 0.04f, 0.04f, "Neck", "neck_01", "DEF-spine.004"},
    {"Head", M3D_NECK, 0, 1.60f, 0, -1, 0, 1.80f, 0.01f, 0.09f, 0.10f, "Head", "head", "DEF-spine.005"},
    {"", M3D_HEAD, 0, 1.80f, 0, -1, 0, 1.85f, 0, 0, 0, "HeadTop_End", NULL, NULL},
    {"LeftShoulder", M3D_UPPER_CHEST, 0.04f, 1.45f, 0, L(M3D_S_UPPER_ARM), 0, 0, 0, 0.04f, 0.04f, "LeftShoulder", "clavicle_l", "DEF-shoulder.L"},
    {"LeftUpperArm", L(M3D_S_SHOULDER), 0.18f, 1.45f, 0, L(M3D_S_LOWER_ARM), 0, 0, 0, 0.045f, 0.045f, "LeftArm", "upperarm_l", "DEF-upper_arm.L"},
    {"LeftLowerArm", L(M3D_S_UPPER_ARM), 0.46f, 1.45f, 0, L(M3D_S_HAND), 0, 0, 0, 0.04f, 0.04f, "LeftForeArm", "lowerarm_l", "DEF-forearm.L"},
    {"LeftHand", L(M3D_S_LOWER_ARM), 0.72f, 1.45f, 0, L(M3D_S_INDEX1), 0, 0, 0, 0.02f, 0.045f, "LeftHand", "hand_l", "DEF-hand.L"},
    {"LeftThumbMetacarpal", L(M3D_S_HAND), 0.75f, 1.44f, 0.03f, L(M3D_S_THUMB2), 0, 0, 0, 0.012f, 0.012f, "LeftHandThumb1", "thumb_01_l", "DEF-thumb.01.L"},
    {"LeftThumbProximal", L(M3D_S_THUMB1), 0.79f, 1.44f, 0.06f, -1, 0.82f, 1.44f, 0.08f, 0.011f, 0.011f, "LeftHandThumb2", "thumb_02_l", "DEF-thumb.02.L"},
    {"LeftIndexProximal", L(M3D_S_HAND), 0.82f, 1.45f, 0.02f, L(M3D_S_INDEX2), 0, 0, 0, 0.01f, 0.01f, "LeftHandIndex1", "index_01_l", "DEF-f_index.01.L"},
    {"LeftIndexIntermediate", L(M3D_S_INDEX1), 0.86f, 1.45f, 0.02f, -1, 0.90f, 1.45f, 0.02f, 0.009f, 0.009f, "LeftHandIndex2", "index_02_l", "DEF-f_index.02.L"},
    {"LeftUpperLeg", M3D_HIPS, 0.09f, 0.95f, 0, L(M3D_S_LOWER_LEG), 0, 0, 0, 0.07f, 0.07f, "LeftUpLeg", "thigh_l", "DEF-thigh.L"},
    {"LeftLowerLeg", L(M3D_S_UPPER_LEG), 0.09f, 0.52f, 0, L(M3D_S_FOOT), 0, 0, 0, 0.055f, 0.055f, "LeftLeg", "calf_l", "DEF-shin.L"},
    {"LeftFoot", L(M3D_S_LOWER_LEG), 0.09f, 0.09f, 0, L(M3D_S_TOES), 0, 0, 0, 0.045f, 0.035f, "LeftFoot", "foot_l", "DEF-foot.L"},
    {"LeftToes", L(M3D_S_FOOT), 0.09f, 0.03f, 0.13f, -1, 0.09f, 0.03f, 0.21f, 0.045f, 0.025f, "LeftToeBase", "ball_l", "DEF-toe.L"},
    {"", L(M3D_S_TOES), 0.09f, 0.03f, 0.21f, -1, 0.09f, 0.03f, 0.25f, 0, 0, "LeftToe_End", NULL, NULL},
};
#undef L

/* "Left…" → "Right…", "…_l" → "…_r", "….L" → "….R" */
static void mirror_name(const char *in, char *out, size_t size)
{
    const char *left = strstr(in, "Left");
    size_t n = strlen(in);
    if (left) snprintf(out, size, "%.*sRight%s", (int)(left - in), in, left + 4);
    else snprintf(out, size, "%s", in);
    n = strlen(out);
    if (n >= 2 && out[n - 2] == '_' && out[n - 1] == 'l') out[n - 1] = 'r';
    if (n >= 2 && out[n - 2] == '.' && out[n - 1] == 'L') out[n - 1] = 'R';
}

static const char *row_name(const row *r, mf_m3d_naming naming)
{
    switch (naming) {
    case MF_M3D_MIXAMO: case MF_M3D_UNNAMED: return r->mixamo; /* unnamed: Mixamo's structure */
    case MF_M3D_UNREAL: return r->unreal;
    default: return r->blender;
    }
}

/* a small fixed LCG: the shuffle must be the same on every run and platform */
static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

void mf_m3d__layout(mf_m3d_naming naming, m3d_layout *L)
{
    memset(L, 0, sizeof *L);
    for (int b = 0; b < M3D_BONE_COUNT; b++) {
        bool right = b >= M3D_RIGHT0;
        const row *r = &k_rows[right ? b - M3D_SIDE_COUNT : b];
        m3d_bone *o = &L->bones[b];
        const char *nm = row_name(r, naming);
        L->node_of[b] = nm ? 0 : -1; /* present; numbered below */
        o->parent = r->parent;
        if (right && o->parent >= M3D_LEFT0) o->parent += M3D_SIDE_COUNT;
        float sx = right ? -1.0f : 1.0f;
        o->head = mf_v3(sx * r->hx, r->hy, r->hz);
        o->tail = mf_v3(sx * r->tx, r->ty, r->tz);
        o->half_w = r->half_w;
        o->half_d = r->half_d;
        if (right) {
            mirror_name(r->canon, o->canon, sizeof o->canon);
            if (nm) mirror_name(nm, o->name, sizeof o->name);
        } else {
            snprintf(o->canon, sizeof o->canon, "%s", r->canon);
            if (nm) snprintf(o->name, sizeof o->name, "%s", nm);
        }
        if (naming == MF_M3D_MIXAMO && nm) {
            char tmp[sizeof o->name];
            memcpy(tmp, o->name, sizeof tmp);
            snprintf(o->name, sizeof o->name, "mixamorig:%.32s", tmp);
        }
        o->named = nm != NULL;
    }
    for (int b = 0; b < M3D_BONE_COUNT; b++) { /* tails that are bones, and parents that are absent */
        bool right = b >= M3D_RIGHT0;
        const row *r = &k_rows[right ? b - M3D_SIDE_COUNT : b];
        if (r->tail_bone >= 0) {
            int t = r->tail_bone + (right && r->tail_bone >= M3D_LEFT0 ? M3D_SIDE_COUNT : 0);
            L->bones[b].tail = L->bones[t].head;
        }
        if (L->bones[b].parent >= 0 && L->node_of[L->bones[b].parent] < 0) L->bones[b].parent = -1;
    }
    /* node numbering: [Armature] bones… mesh; the unnamed variant shuffles the bones */
    int order[M3D_BONE_COUNT], n = 0;
    for (int b = 0; b < M3D_BONE_COUNT; b++)
        if (L->node_of[b] >= 0) order[n++] = b;
    if (naming == MF_M3D_UNNAMED) {
        uint32_t s = 0x9e3779b9u;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(lcg(&s) % (uint32_t)(i + 1));
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
    L->container = naming == MF_M3D_BLENDER ? 0 : -1;
    int first = L->container >= 0 ? 1 : 0;
    for (int i = 0; i < n; i++) {
        L->node_of[order[i]] = first + i;
        L->bone_of_node[first + i] = order[i];
    }
    if (L->container >= 0) L->bone_of_node[0] = -1;
    L->mesh_node = first + n;
    L->bone_of_node[L->mesh_node] = -1;
    L->node_count = first + n + 1;
    if (naming == MF_M3D_UNNAMED) { /* "Bone.012"-style names in node order, some left out */
        for (int i = 0; i < n; i++) {
            m3d_bone *o = &L->bones[order[i]];
            if (i % 7 == 3) { /* no name at all */
                o->name[0] = '\0';
                o->named = false;
            } else if (i % 11 == 5) { /* an empty name */
                o->name[0] = '\0';
            } else if (i == 0) {
                snprintf(o->name, sizeof o->name, "Bone");
            } else {
                snprintf(o->name, sizeof o->name, "Bone.%03d", i);
            }
        }
    }
}

int32_t mf_mannequin3d_node(mf_m3d_naming naming, const char *canonical)
{
    if (!canonical || !canonical[0] || (unsigned)naming > MF_M3D_UNNAMED) return -1;
    m3d_layout L;
    mf_m3d__layout(naming, &L);
    for (int b = 0; b < M3D_BONE_COUNT; b++)
        if (L.node_of[b] >= 0 && strcmp(L.bones[b].canon, canonical) == 0) return L.node_of[b];
    return -1;
}

const char *mf_m3d_naming_name(mf_m3d_naming naming)
{
    static const char *const k[] = {"mixamo", "unreal", "blender", "unnamed"};
    return (unsigned)naming <= MF_M3D_UNNAMED ? k[naming] : "?";
}

const char *mf_m3d_rest_name(mf_m3d_rest rest)
{
    return rest == MF_M3D_TPOSE ? "tpose" : rest == MF_M3D_APOSE ? "apose" : "?";
}
