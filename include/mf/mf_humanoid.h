/* mf_humanoid.h — the humanoid map and the canonical joint space (offline module).
 *
 * Any humanoid rig (Mixamo, Unreal-style, Blender/Rigify, motion capture, unnamed bones) is
 * mapped onto one canonical bone set (VRM 1.0's humanoid bones), and poses are written as
 * anatomical joint angles that mean the same on every rig:
 *
 *   - axes as glTF: Y up, the character faces +Z, +X is its left; metres;
 *   - reference pose: the canonical T-pose (legs straight down, arms straight out along ±X,
 *     palms down); every angle is relative to it, so an A-pose rig takes the same angles;
 *   - per bone flex / abduct / twist in degrees, composed twist → abduct → flex (intrinsic) in
 *     the bone's joint frame, mirrored left/right (the same numbers are the same anatomical
 *     motion on both sides); hinges (LowerLeg, LowerArm) take flex only;
 *   - the hips take an offset (metres) and yaw / pitch / roll, stored as twist / flex / abduct.
 *
 * docs/humanoid.md gives every bone's axes and sign conventions and the limits table.
 *
 *     mf_humanoid_skeleton *s;  mf_humanoid_map map;  mf_humanoid_rig *rig;
 *     mf_humanoid_skeleton_from_gltf(model, -1, "hero.glb", &s, &diag);
 *     mf_humanoid_detect(s, NULL, &map, &diag);             // names, then structure
 *     mf_humanoid_rig_create(s, &map, &rig, &diag);
 *     mf_humanoid_to_local(rig, MF_HB_LEFT_LOWER_LEG, (mf_humanoid_angles){60, 0, 0}, &q, &diag);
 */
#ifndef MF_HUMANOID_H
#define MF_HUMANOID_H

#include "mf/mf_base.h"
#include "mf/mf_math3d.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mf_gltf;

/* ---- canonical bones (VRM 1.0 humanoid set, in VRM's order) ---- */

typedef enum mf_humanoid_bone {
    MF_HB_HIPS, MF_HB_SPINE, MF_HB_CHEST, MF_HB_UPPER_CHEST, MF_HB_NECK,
    MF_HB_HEAD, MF_HB_LEFT_EYE, MF_HB_RIGHT_EYE, MF_HB_JAW,
    MF_HB_LEFT_UPPER_LEG, MF_HB_LEFT_LOWER_LEG, MF_HB_LEFT_FOOT, MF_HB_LEFT_TOES,
    MF_HB_RIGHT_UPPER_LEG, MF_HB_RIGHT_LOWER_LEG, MF_HB_RIGHT_FOOT, MF_HB_RIGHT_TOES,
    MF_HB_LEFT_SHOULDER, MF_HB_LEFT_UPPER_ARM, MF_HB_LEFT_LOWER_ARM, MF_HB_LEFT_HAND,
    MF_HB_RIGHT_SHOULDER, MF_HB_RIGHT_UPPER_ARM, MF_HB_RIGHT_LOWER_ARM, MF_HB_RIGHT_HAND,
    MF_HB_LEFT_THUMB_METACARPAL, MF_HB_LEFT_THUMB_PROXIMAL, MF_HB_LEFT_THUMB_DISTAL,
    MF_HB_LEFT_INDEX_PROXIMAL, MF_HB_LEFT_INDEX_INTERMEDIATE, MF_HB_LEFT_INDEX_DISTAL,
    MF_HB_LEFT_MIDDLE_PROXIMAL, MF_HB_LEFT_MIDDLE_INTERMEDIATE, MF_HB_LEFT_MIDDLE_DISTAL,
    MF_HB_LEFT_RING_PROXIMAL, MF_HB_LEFT_RING_INTERMEDIATE, MF_HB_LEFT_RING_DISTAL,
    MF_HB_LEFT_LITTLE_PROXIMAL, MF_HB_LEFT_LITTLE_INTERMEDIATE, MF_HB_LEFT_LITTLE_DISTAL,
    MF_HB_RIGHT_THUMB_METACARPAL, MF_HB_RIGHT_THUMB_PROXIMAL, MF_HB_RIGHT_THUMB_DISTAL,
    MF_HB_RIGHT_INDEX_PROXIMAL, MF_HB_RIGHT_INDEX_INTERMEDIATE, MF_HB_RIGHT_INDEX_DISTAL,
    MF_HB_RIGHT_MIDDLE_PROXIMAL, MF_HB_RIGHT_MIDDLE_INTERMEDIATE, MF_HB_RIGHT_MIDDLE_DISTAL,
    MF_HB_RIGHT_RING_PROXIMAL, MF_HB_RIGHT_RING_INTERMEDIATE, MF_HB_RIGHT_RING_DISTAL,
    MF_HB_RIGHT_LITTLE_PROXIMAL, MF_HB_RIGHT_LITTLE_INTERMEDIATE, MF_HB_RIGHT_LITTLE_DISTAL,
    MF_HB_COUNT
} mf_humanoid_bone;

typedef enum mf_humanoid_side { MF_HSIDE_CENTER, MF_HSIDE_LEFT, MF_HSIDE_RIGHT } mf_humanoid_side;

/* "Hips", "LeftUpperLeg", "LeftIndexProximal" …; NULL out of range. */
const char *mf_humanoid_bone_name(mf_humanoid_bone b);
/* The bone with that canonical name (exact, case-sensitive), or -1. */
int mf_humanoid_bone_from_name(const char *name);
/* The closest canonical name for a "did you mean" (NULL when none is close). */
const char *mf_humanoid_bone_suggest(const char *name);
/* Hips, Spine, Chest, Neck, Head and per side UpperLeg, LowerLeg, Foot, UpperArm, LowerArm, Hand. */
bool mf_humanoid_bone_required(mf_humanoid_bone b);
/* The canonical parent (UpperChest → Chest, LeftHand → LeftLowerArm …), -1 for Hips. */
int mf_humanoid_bone_parent(mf_humanoid_bone b);
mf_humanoid_side mf_humanoid_bone_side(mf_humanoid_bone b);
/* The same bone on the other side; centre bones are their own mirror. */
mf_humanoid_bone mf_humanoid_bone_mirror(mf_humanoid_bone b);
/* LowerLeg and LowerArm: flex only. */
bool mf_humanoid_bone_is_hinge(mf_humanoid_bone b);

/* ---- angles and limits ---- */

typedef enum mf_humanoid_component { MF_HC_FLEX, MF_HC_ABDUCT, MF_HC_TWIST, MF_HC_COUNT } mf_humanoid_component;

/* Degrees. For the hips: flex = pitch (+ leans forward), abduct = roll (+ leans left),
 * twist = yaw (+ turns left). */
typedef struct mf_humanoid_angles { float flex, abduct, twist; } mf_humanoid_angles;

/* "flex", "abduct", "twist". */
const char *mf_humanoid_component_name(mf_humanoid_component c);
/* Component of angles by index. */
float mf_humanoid_angle(mf_humanoid_angles a, mf_humanoid_component c);

/* HumanoidLimits: range of motion per bone and component, degrees (min ≤ max; hinges have
 * abduct and twist 0…0). The same table for every character. */
typedef struct mf_humanoid_limit { float min[MF_HC_COUNT], max[MF_HC_COUNT]; } mf_humanoid_limit;
const mf_humanoid_limit *mf_humanoid_limits(mf_humanoid_bone b);

/* The angles that give the mirrored motion on the mirrored bone: the same numbers for a
 * left/right bone, abduct and twist negated for a centre bone (they lean and turn to a side). */
mf_humanoid_angles mf_humanoid_angles_mirror(mf_humanoid_bone b, mf_humanoid_angles a);

/* ---- skeleton view: what detection and the joint space read ---- */

typedef struct mf_humanoid_skeleton {
    int32_t bone_count;
    char **names;              /* display names: the node name, or "#<node>" when it is empty
                                  or not unique (overrides may use either) */
    int32_t *parents;          /* -1 for roots; a parent always comes before its children */
    int32_t *nodes;            /* glTF node per bone; -1 for skeletons made from arrays */
    mf_vec3 *rest_translation; /* local rest TRS */
    mf_quat *rest_rotation;
    mf_vec3 *rest_scale;
    mf_mat4 *rest_world;       /* world matrices of the rest pose */
    mf_mat4 *parent_world;     /* world matrix of each bone's parent (for roots: of the node
                                  above the skeleton, identity when none) */
    char file[256];            /* for messages, may be empty */
    void *mem;
} mf_humanoid_skeleton;

/* From arrays: parents[i] < i or -1; scales may be NULL (ones); names may be NULL or hold
 * NULL / empty names. Root bones sit at the world origin frame. */
mf_result mf_humanoid_skeleton_from_arrays(int32_t count, const char *const *names, const int32_t *parents,
                                           const mf_vec3 *translations, const mf_quat *rotations,
                                           const mf_vec3 *scales, mf_humanoid_skeleton **out, mf_diag *diag);
/* From a glTF skin (skin -1: the skin with the most joints): its joints plus the nodes that
 * connect them, ordered parents first. file names the model in messages. A model without
 * skins is an error ("not rigged"). */
mf_result mf_humanoid_skeleton_from_gltf(const struct mf_gltf *g, int32_t skin, const char *file,
                                         mf_humanoid_skeleton **out, mf_diag *diag);
void mf_humanoid_skeleton_free(mf_humanoid_skeleton *s);
/* Bone index by display name (or the node name), -1 when none. */
int32_t mf_humanoid_skeleton_find(const mf_humanoid_skeleton *s, const char *name);
/* Forward kinematics: world matrices from local TRS (NULL arrays: the rest values). */
void mf_humanoid_skeleton_pose_world(const mf_humanoid_skeleton *s, const mf_vec3 *t, const mf_quat *r,
                                     const mf_vec3 *sc, mf_mat4 *world);

/* ---- the map and its detection ---- */

typedef enum mf_humanoid_source {
    MF_HSRC_NONE, MF_HSRC_NAME, MF_HSRC_STRUCTURE, MF_HSRC_OVERRIDE
} mf_humanoid_source;

/* "-", "name", "structure", "override". */
const char *mf_humanoid_source_name(mf_humanoid_source s);

/* Canonical bone → rig bone, with the report: where each came from and how sure it is. */
typedef struct mf_humanoid_map {
    int32_t bone[MF_HB_COUNT];             /* rig bone index, -1 unmapped */
    mf_humanoid_source source[MF_HB_COUNT];
    float confidence[MF_HB_COUNT];         /* 0…1 */
    char naming[16];                       /* the name table that matched best: "mixamo",
                                              "unreal", "blender", "mocap", "vrm", "" */
    mf_vec3 forward, up;                   /* the character's axes found in the rest pose */
} mf_humanoid_map;

/* Overrides from the model's sidecar MODEL.meta.json:
 *   { "importer": "model", "settings": { "humanoid": { "LeftUpperLeg": "Thigh.L" } } }
 * A rig bone name maps that canonical bone; null leaves it unmapped. */
typedef struct mf_humanoid_overrides {
    const char *bone[MF_HB_COUNT];  /* NULL: no override */
    bool unmap[MF_HB_COUNT];        /* true: "Bone": null */
    char file[256];                 /* the sidecar, for messages */
    void *mem;
} mf_humanoid_overrides;

/* MODEL + ".meta.json". */
void mf_humanoid_meta_path(const char *model, char *out, size_t size);
/* Reads the overrides from a sidecar. A missing file gives empty overrides (*found false);
 * malformed JSON, unknown canonical names and wrong types are located errors. */
mf_result mf_humanoid_overrides_load(const char *meta_path, mf_humanoid_overrides *ov, bool *found,
                                     mf_diag *diag);
/* The same from memory; file names the sidecar in messages. */
mf_result mf_humanoid_overrides_parse(const char *text, size_t len, const char *file, mf_humanoid_overrides *ov,
                                      mf_diag *diag);
void mf_humanoid_overrides_free(mf_humanoid_overrides *ov);

/* Detect(skeleton, overrides): step 1 names (prefixes such as "mixamorig:", "DEF-" stripped,
 * case and separators folded, side tokens Left/L/.L/_L/l_ found; tables for Mixamo,
 * Unreal-style, Blender/Rigify, motion capture and VRM names), step 2 structure for what names
 * did not map, then the overrides win. Fills map even when it fails. Missing required bones:
 * MF_ERR_INVALID naming them; an override naming an unknown rig bone: MF_ERR_INVALID located
 * in the sidecar. ov may be NULL. */
mf_result mf_humanoid_detect(const mf_humanoid_skeleton *s, const mf_humanoid_overrides *ov,
                             mf_humanoid_map *map, mf_diag *diag);
/* The canonical bone a rig bone is mapped to, or -1. */
int mf_humanoid_map_canonical(const mf_humanoid_map *map, int32_t rig_bone);
/* Writes the map into the sidecar's settings.humanoid (canonical name → rig bone name),
 * keeping every other key; creates the file when missing. Atomic. */
mf_result mf_humanoid_meta_write(const char *meta_path, const mf_humanoid_skeleton *s,
                                 const mf_humanoid_map *map, mf_diag *diag);

/* ---- the joint space bound to one rig ---- */

typedef enum mf_humanoid_rest_kind { MF_REST_T, MF_REST_A, MF_REST_OTHER } mf_humanoid_rest_kind;
/* "T", "A", "other". */
const char *mf_humanoid_rest_kind_name(mf_humanoid_rest_kind k);

/* Metres (world units of the model). Leg: hip joint → knee → ankle; arm: shoulder joint →
 * elbow → wrist; both the mean of the two sides. Shoulder width: between the shoulder joints. */
typedef struct mf_humanoid_proportions {
    float height, hip_height, leg_length, arm_length, shoulder_width;
} mf_humanoid_proportions;

typedef struct mf_humanoid_rig mf_humanoid_rig;

/* Builds the joint frames once from the rest pose. Needs every required bone mapped. The rig
 * keeps pointers to s (not to map): s must outlive it. */
mf_result mf_humanoid_rig_create(const mf_humanoid_skeleton *s, const mf_humanoid_map *map,
                                 mf_humanoid_rig **out, mf_diag *diag);
void mf_humanoid_rig_free(mf_humanoid_rig *r);
const mf_humanoid_skeleton *mf_humanoid_rig_skeleton(const mf_humanoid_rig *r);
/* The rig bone of a canonical bone, -1 when unmapped. */
int32_t mf_humanoid_rig_bone(const mf_humanoid_rig *r, mf_humanoid_bone b);
mf_humanoid_proportions mf_humanoid_rig_proportions(const mf_humanoid_rig *r);
/* T, A or other; *arm_angle (may be NULL) gets the upper arms' mean angle below the
 * horizontal in degrees. */
mf_humanoid_rest_kind mf_humanoid_rig_rest_kind(const mf_humanoid_rig *r, float *arm_angle);
/* The joint frame of a bone in the canonical T-pose, world space: the twist axis (the bone's
 * direction for left and centre bones, its opposite for right ones), and the axes flex and
 * abduct turn about (right-hand rule, positive angles). false when the bone is unmapped. */
bool mf_humanoid_rig_frame(const mf_humanoid_rig *r, mf_humanoid_bone b, mf_vec3 *twist_axis,
                           mf_vec3 *abduct_axis, mf_vec3 *flex_axis);
/* The T-pose world rotation of a rig bone (what the rig bone's world rotation is when every
 * mapped bone holds zero angles). */
mf_quat mf_humanoid_rig_tpose_world(const mf_humanoid_rig *r, int32_t rig_bone);

/* Angles → the rig bone's local rotation (relative to its rig parent). Unmapped bone, or a
 * hinge given abduct or twist: MF_ERR_INVALID with a message. */
mf_result mf_humanoid_to_local(const mf_humanoid_rig *r, mf_humanoid_bone b, mf_humanoid_angles a,
                               mf_quat *local, mf_diag *diag);
/* The rig bone's local rotation → angles (all three components, also for hinges, so off-hinge
 * motion shows). */
mf_result mf_humanoid_from_local(const mf_humanoid_rig *r, mf_humanoid_bone b, mf_quat local,
                                 mf_humanoid_angles *a, mf_diag *diag);
/* Hips offset (metres, character axes, from the rest position) ↔ the hips bone's local
 * translation. */
mf_vec3 mf_humanoid_hips_offset_to_local(const mf_humanoid_rig *r, mf_vec3 offset);
mf_vec3 mf_humanoid_hips_offset_from_local(const mf_humanoid_rig *r, mf_vec3 local_translation);

/* ---- poses ---- */

/* A full canonical pose: angles for every canonical bone (unmapped ones are ignored when
 * applied) and the hips offset. */
typedef struct mf_humanoid_pose {
    mf_humanoid_angles joint[MF_HB_COUNT];
    mf_vec3 hips_offset;
} mf_humanoid_pose;

/* The rig's own rest pose in canonical terms. */
mf_result mf_humanoid_rig_rest_pose(const mf_humanoid_rig *r, mf_humanoid_pose *out, mf_diag *diag);
/* Local TRS of every rig bone for a pose: mapped bones converted, the others at rest. t, q
 * have bone_count entries. */
mf_result mf_humanoid_pose_to_locals(const mf_humanoid_rig *r, const mf_humanoid_pose *p, mf_vec3 *t,
                                     mf_quat *q, mf_diag *diag);

/* The named poses (data/humanoid/poses.json, compiled into the library): tpose, rest, stand. */
typedef struct mf_humanoid_named_pose {
    char *name, *description;
    bool from_rest;           /* "rest": the rig's own rest, converted (pose unused) */
    mf_humanoid_pose pose;    /* zeros plus the values the file gives */
    uint8_t given[MF_HB_COUNT]; /* bit per component (1 << mf_humanoid_component) the file sets */
    bool hips_offset_given;
} mf_humanoid_named_pose;

typedef struct mf_humanoid_pose_set {
    int32_t count;
    mf_humanoid_named_pose *poses;
    void *mem;
} mf_humanoid_pose_set;

/* The text of data/humanoid/poses.json as built into the library. */
const char *mf_humanoid_poses_json(void);
/* Parses a poses file (the built-in one with text = mf_humanoid_poses_json()). Unknown bones
 * and components, hinge components other than flex and values outside the limits are located
 * errors. */
mf_result mf_humanoid_poses_parse(const char *text, size_t len, const char *file, mf_humanoid_pose_set **out,
                                  mf_diag *diag);
mf_result mf_humanoid_poses_builtin(mf_humanoid_pose_set **out, mf_diag *diag);
void mf_humanoid_poses_free(mf_humanoid_pose_set *set);
/* The named pose, or NULL (diag gets "unknown pose "x" (did you mean "stand"?)"). */
const mf_humanoid_named_pose *mf_humanoid_poses_find(const mf_humanoid_pose_set *set, const char *name,
                                                     mf_diag *diag);
/* The pose for a rig: "rest" converted from the rig, the others as written. */
mf_result mf_humanoid_pose_resolve(const mf_humanoid_named_pose *np, const mf_humanoid_rig *r,
                                   mf_humanoid_pose *out, mf_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
