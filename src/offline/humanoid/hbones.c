/* The canonical bone set: names, hierarchy, sides, hinges and the HumanoidLimits table. */
#include <string.h>

#include "humanoid_internal.h"
#include "util/suggest.h"

static const char *const NAMES[MF_HB_COUNT + 1] = {
    "Hips", "Spine", "Chest", "UpperChest", "Neck",
    "Head", "LeftEye", "RightEye", "Jaw",
    "LeftUpperLeg", "LeftLowerLeg", "LeftFoot", "LeftToes",
    "RightUpperLeg", "RightLowerLeg", "RightFoot", "RightToes",
    "LeftShoulder", "LeftUpperArm", "LeftLowerArm", "LeftHand",
    "RightShoulder", "RightUpperArm", "RightLowerArm", "RightHand",
    "LeftThumbMetacarpal", "LeftThumbProximal", "LeftThumbDistal",
    "LeftIndexProximal", "LeftIndexIntermediate", "LeftIndexDistal",
    "LeftMiddleProximal", "LeftMiddleIntermediate", "LeftMiddleDistal",
    "LeftRingProximal", "LeftRingIntermediate", "LeftRingDistal",
    "LeftLittleProximal", "LeftLittleIntermediate", "LeftLittleDistal",
    "RightThumbMetacarpal", "RightThumbProximal", "RightThumbDistal",
    "RightIndexProximal", "RightIndexIntermediate", "RightIndexDistal",
    "RightMiddleProximal", "RightMiddleIntermediate", "RightMiddleDistal",
    "RightRingProximal", "RightRingIntermediate", "RightRingDistal",
    "RightLittleProximal", "RightLittleIntermediate", "RightLittleDistal",
    NULL,
};

const char *mf_humanoid_bone_name(mf_humanoid_bone b)
{
    return (int)b >= 0 && b < MF_HB_COUNT ? NAMES[b] : NULL;
}

int mf_humanoid_bone_from_name(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < MF_HB_COUNT; i++)
        if (strcmp(NAMES[i], name) == 0) return i;
    return -1;
}

const char *mf_humanoid_bone_suggest(const char *name) { return mf_suggest_list(name, NAMES); }

bool mf_humanoid_bone_required(mf_humanoid_bone b)
{
    switch (b) {
    case MF_HB_HIPS: case MF_HB_SPINE: case MF_HB_CHEST: case MF_HB_NECK: case MF_HB_HEAD:
    case MF_HB_LEFT_UPPER_LEG: case MF_HB_LEFT_LOWER_LEG: case MF_HB_LEFT_FOOT:
    case MF_HB_RIGHT_UPPER_LEG: case MF_HB_RIGHT_LOWER_LEG: case MF_HB_RIGHT_FOOT:
    case MF_HB_LEFT_UPPER_ARM: case MF_HB_LEFT_LOWER_ARM: case MF_HB_LEFT_HAND:
    case MF_HB_RIGHT_UPPER_ARM: case MF_HB_RIGHT_LOWER_ARM: case MF_HB_RIGHT_HAND:
        return true;
    default:
        return false;
    }
}

mf_humanoid_side mf_humanoid_bone_side(mf_humanoid_bone b)
{
    if ((int)b < 0 || b >= MF_HB_COUNT) return MF_HSIDE_CENTER;
    if (strncmp(NAMES[b], "Left", 4) == 0) return MF_HSIDE_LEFT;
    if (strncmp(NAMES[b], "Right", 5) == 0) return MF_HSIDE_RIGHT;
    return MF_HSIDE_CENTER;
}

mf_humanoid_bone mf_humanoid_bone_mirror(mf_humanoid_bone b)
{
    switch (b) {
    case MF_HB_LEFT_EYE: return MF_HB_RIGHT_EYE;
    case MF_HB_RIGHT_EYE: return MF_HB_LEFT_EYE;
    default: break;
    }
    if (b >= MF_HB_LEFT_UPPER_LEG && b <= MF_HB_LEFT_TOES) return b + 4;
    if (b >= MF_HB_RIGHT_UPPER_LEG && b <= MF_HB_RIGHT_TOES) return b - 4;
    if (b >= MF_HB_LEFT_SHOULDER && b <= MF_HB_LEFT_HAND) return b + 4;
    if (b >= MF_HB_RIGHT_SHOULDER && b <= MF_HB_RIGHT_HAND) return b - 4;
    if (b >= MF_HB_LEFT_THUMB_METACARPAL && b <= MF_HB_LEFT_LITTLE_DISTAL) return b + 15;
    if (b >= MF_HB_RIGHT_THUMB_METACARPAL && b <= MF_HB_RIGHT_LITTLE_DISTAL) return b - 15;
    return b;
}

/* The left-side (or centre) bone with the same role. */
mf_humanoid_bone mf_hb_left(mf_humanoid_bone b)
{
    return mf_humanoid_bone_side(b) == MF_HSIDE_RIGHT ? mf_humanoid_bone_mirror(b) : b;
}

int mf_humanoid_bone_parent(mf_humanoid_bone b)
{
    mf_humanoid_bone l = mf_hb_left(b);
    bool right = l != b;
    int p;
    switch (l) {
    case MF_HB_HIPS: return -1;
    case MF_HB_SPINE: return MF_HB_HIPS;
    case MF_HB_CHEST: return MF_HB_SPINE;
    case MF_HB_UPPER_CHEST: return MF_HB_CHEST;
    case MF_HB_NECK: return MF_HB_UPPER_CHEST;
    case MF_HB_HEAD: return MF_HB_NECK;
    case MF_HB_LEFT_EYE: case MF_HB_JAW: return MF_HB_HEAD;
    case MF_HB_LEFT_UPPER_LEG: return MF_HB_HIPS;
    case MF_HB_LEFT_SHOULDER: return MF_HB_UPPER_CHEST;
    case MF_HB_LEFT_UPPER_ARM: p = MF_HB_LEFT_SHOULDER; break;
    case MF_HB_LEFT_THUMB_METACARPAL: case MF_HB_LEFT_INDEX_PROXIMAL: case MF_HB_LEFT_MIDDLE_PROXIMAL:
    case MF_HB_LEFT_RING_PROXIMAL: case MF_HB_LEFT_LITTLE_PROXIMAL:
        p = MF_HB_LEFT_HAND;
        break;
    default: p = (int)l - 1; break; /* the rest follow their parent in the enum */
    }
    return right ? (int)mf_humanoid_bone_mirror((mf_humanoid_bone)p) : p;
}

bool mf_humanoid_bone_is_hinge(mf_humanoid_bone b)
{
    return b == MF_HB_LEFT_LOWER_LEG || b == MF_HB_RIGHT_LOWER_LEG || b == MF_HB_LEFT_LOWER_ARM ||
           b == MF_HB_RIGHT_LOWER_ARM;
}

const char *mf_humanoid_component_name(mf_humanoid_component c)
{
    switch (c) {
    case MF_HC_FLEX: return "flex";
    case MF_HC_ABDUCT: return "abduct";
    case MF_HC_TWIST: return "twist";
    default: return "?";
    }
}

float mf_humanoid_angle(mf_humanoid_angles a, mf_humanoid_component c)
{
    return c == MF_HC_FLEX ? a.flex : c == MF_HC_ABDUCT ? a.abduct : a.twist;
}

mf_humanoid_angles mf_humanoid_angles_mirror(mf_humanoid_bone b, mf_humanoid_angles a)
{
    if (mf_humanoid_bone_side(b) == MF_HSIDE_CENTER) {
        a.abduct = -a.abduct;
        a.twist = -a.twist;
    }
    return a;
}

/* HumanoidLimits: {flex min, abduct min, twist min}, {… max}. The seed's typical values where it
 * gives them (hip flex -30…130, knee 0…150, ankle -50…30, spine -30…60 per bone, shoulder
 * abduct -90…90, elbow 0…150); the rest from common ranges of motion, kept a little generous
 * so stylised poses pass. */
#define LIM(f0, a0, t0, f1, a1, t1) {{f0, a0, t0}, {f1, a1, t1}}
#define L_SPINE LIM(-30, -30, -30, 60, 30, 30)
#define L_NECK LIM(-45, -35, -50, 45, 35, 50)
#define L_EYE LIM(-30, -35, 0, 30, 35, 0)
#define L_UPPER_LEG LIM(-30, -30, -45, 130, 70, 45)
#define L_LOWER_LEG LIM(0, 0, 0, 150, 0, 0)
#define L_FOOT LIM(-50, -30, -35, 30, 30, 35)
#define L_TOES LIM(-40, -10, -10, 70, 10, 10)
#define L_SHOULDER LIM(-20, -15, -15, 30, 35, 15)
#define L_UPPER_ARM LIM(-60, -90, -90, 135, 90, 90)
#define L_LOWER_ARM LIM(0, 0, 0, 150, 0, 0)
#define L_HAND LIM(-70, -30, -90, 80, 20, 90)
#define L_THUMB1 LIM(-20, -20, -30, 50, 60, 30)
#define L_THUMB2 LIM(-10, -10, -10, 60, 10, 10)
#define L_THUMB3 LIM(-20, 0, 0, 80, 0, 0)
#define L_FINGER1 LIM(-20, -20, -5, 90, 20, 5)
#define L_FINGER2 LIM(0, 0, 0, 100, 0, 0)
#define L_FINGER3 LIM(-10, 0, 0, 80, 0, 0)
#define L_HAND_SET(S) \
    [MF_HB_##S##_THUMB_METACARPAL] = L_THUMB1, [MF_HB_##S##_THUMB_PROXIMAL] = L_THUMB2, \
    [MF_HB_##S##_THUMB_DISTAL] = L_THUMB3, [MF_HB_##S##_INDEX_PROXIMAL] = L_FINGER1, \
    [MF_HB_##S##_INDEX_INTERMEDIATE] = L_FINGER2, [MF_HB_##S##_INDEX_DISTAL] = L_FINGER3, \
    [MF_HB_##S##_MIDDLE_PROXIMAL] = L_FINGER1, [MF_HB_##S##_MIDDLE_INTERMEDIATE] = L_FINGER2, \
    [MF_HB_##S##_MIDDLE_DISTAL] = L_FINGER3, [MF_HB_##S##_RING_PROXIMAL] = L_FINGER1, \
    [MF_HB_##S##_RING_INTERMEDIATE] = L_FINGER2, [MF_HB_##S##_RING_DISTAL] = L_FINGER3, \
    [MF_HB_##S##_LITTLE_PROXIMAL] = L_FINGER1, [MF_HB_##S##_LITTLE_INTERMEDIATE] = L_FINGER2, \
    [MF_HB_##S##_LITTLE_DISTAL] = L_FINGER3
#define L_LIMB_SET(S) \
    [MF_HB_##S##_UPPER_LEG] = L_UPPER_LEG, [MF_HB_##S##_LOWER_LEG] = L_LOWER_LEG, \
    [MF_HB_##S##_FOOT] = L_FOOT, [MF_HB_##S##_TOES] = L_TOES, [MF_HB_##S##_SHOULDER] = L_SHOULDER, \
    [MF_HB_##S##_UPPER_ARM] = L_UPPER_ARM, [MF_HB_##S##_LOWER_ARM] = L_LOWER_ARM, \
    [MF_HB_##S##_HAND] = L_HAND, [MF_HB_##S##_EYE] = L_EYE

static const mf_humanoid_limit LIMITS[MF_HB_COUNT] = {
    [MF_HB_HIPS] = LIM(-90, -60, -180, 90, 60, 180),
    [MF_HB_SPINE] = L_SPINE, [MF_HB_CHEST] = L_SPINE, [MF_HB_UPPER_CHEST] = L_SPINE,
    [MF_HB_NECK] = L_NECK, [MF_HB_HEAD] = L_NECK,
    [MF_HB_JAW] = LIM(-5, -10, 0, 30, 10, 0),
    L_LIMB_SET(LEFT), L_LIMB_SET(RIGHT), L_HAND_SET(LEFT), L_HAND_SET(RIGHT),
};

const mf_humanoid_limit *mf_humanoid_limits(mf_humanoid_bone b)
{
    return (int)b >= 0 && b < MF_HB_COUNT ? &LIMITS[b] : NULL;
}

const char *mf_humanoid_source_name(mf_humanoid_source s)
{
    switch (s) {
    case MF_HSRC_NAME: return "name";
    case MF_HSRC_STRUCTURE: return "structure";
    case MF_HSRC_OVERRIDE: return "override";
    default: return "-";
    }
}

const char *mf_humanoid_rest_kind_name(mf_humanoid_rest_kind k)
{
    return k == MF_REST_T ? "T" : k == MF_REST_A ? "A" : "other";
}
