/* mf_mannequin3d.h — generated 3D test characters: a skinned humanoid in several bone
 * namings and rest poses, for the humanoid tools and their tests.
 *
 * The figure is about 1.8 m tall, Y up, faces +Z, its left side is +X, feet on y = 0. Mesh
 * parts (boxes around bones) are rigidly weighted to their bones, with inverse bind matrices
 * that invert each joint's rest world matrix, and a base-colour material.
 */
#ifndef MF_MANNEQUIN3D_H
#define MF_MANNEQUIN3D_H

#include "mf/mf_gltf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mf_m3d_naming {
    MF_M3D_MIXAMO,    /* mixamorig:Hips, mixamorig:LeftUpLeg … */
    MF_M3D_UNREAL,    /* root, pelvis, spine_01, thigh_l … */
    MF_M3D_BLENDER,   /* Rigify deform bones DEF-spine, DEF-thigh.L …; bones point along local +Y */
    MF_M3D_UNNAMED    /* "Bone.012" or no name, children shuffled: only structure tells */
} mf_m3d_naming;

typedef enum mf_m3d_rest {
    MF_M3D_TPOSE,     /* arms horizontal */
    MF_M3D_APOSE      /* arms about 45° down from horizontal */
} mf_m3d_rest;

#define MF_M3D_NAMING_COUNT 4
#define MF_M3D_REST_COUNT 2

/* A skinned humanoid (~1.8 m, Y up, facing +Z, left = +X) with simple mesh parts weighted to it. */
mf_result mf_mannequin3d_create(mf_m3d_naming naming, mf_m3d_rest rest, mf_gltf **out, mf_diag *diag);

/* Ground truth for tests: the node index (in every model made with that naming, whatever the
 * rest) of a canonical humanoid bone named as VRM 1.0 in PascalCase: "Hips", "Spine", "Chest",
 * "UpperChest", "Neck", "Head", "LeftShoulder", "LeftUpperArm", "LeftLowerArm", "LeftHand",
 * "LeftIndexProximal", "LeftIndexIntermediate", "LeftThumbMetacarpal", "LeftThumbProximal",
 * "LeftUpperLeg",
 * "LeftLowerLeg", "LeftFoot", "LeftToes" and the Right… ones. -1 for any other name. */
int32_t mf_mannequin3d_node(mf_m3d_naming naming, const char *canonical);

/* "mixamo", "unreal", "blender", "unnamed"; "tpose", "apose" (for file names). */
const char *mf_m3d_naming_name(mf_m3d_naming naming);
const char *mf_m3d_rest_name(mf_m3d_rest rest);

#ifdef __cplusplus
}
#endif
#endif
