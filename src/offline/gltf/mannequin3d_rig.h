/* The generated 3D mannequin's skeleton table and node layout (shared by the model builder and
 * the ground-truth lookup). Not public. */
#ifndef MF_MANNEQUIN3D_RIG_H
#define MF_MANNEQUIN3D_RIG_H
#include "mf/mf_mannequin3d.h"

/* Logical bones: 8 central ones, then the left side, then the right side (mirrored). */
enum {
    M3D_ROOT, M3D_HIPS, M3D_SPINE, M3D_CHEST, M3D_UPPER_CHEST, M3D_NECK, M3D_HEAD, M3D_HEAD_END,
    M3D_LEFT0, /* shoulder, upper arm, lower arm, hand, thumb 1-2, index 1-2, upper leg, lower leg, foot, toes, toe end */
    M3D_SIDE_COUNT = 13,
    M3D_RIGHT0 = M3D_LEFT0 + M3D_SIDE_COUNT,
    M3D_BONE_COUNT = M3D_RIGHT0 + M3D_SIDE_COUNT
};
/* side-relative offsets */
enum { M3D_S_SHOULDER, M3D_S_UPPER_ARM, M3D_S_LOWER_ARM, M3D_S_HAND, M3D_S_THUMB1, M3D_S_THUMB2, M3D_S_INDEX1,
       M3D_S_INDEX2, M3D_S_UPPER_LEG, M3D_S_LOWER_LEG, M3D_S_FOOT, M3D_S_TOES, M3D_S_TOE_END };

typedef struct m3d_bone {
    char canon[32];        /* VRM name ("LeftUpperLeg"), "" for helper bones */
    char name[48];         /* in the chosen naming; "" = the node has no name */
    bool named;
    int parent;            /* logical, -1 for the skeleton root */
    mf_vec3 head;          /* T-pose world position */
    mf_vec3 tail;          /* T-pose end of the bone's segment (the box runs head → tail) */
    float half_w, half_d;  /* box half sizes across the segment; 0: no box */
} m3d_bone;

typedef struct m3d_layout {
    m3d_bone bones[M3D_BONE_COUNT];
    int node_of[M3D_BONE_COUNT]; /* node index, -1 when this naming lacks the bone */
    int bone_of_node[M3D_BONE_COUNT + 2];
    int container;               /* "Armature" node or -1 */
    int mesh_node;
    int node_count;
} m3d_layout;

void mf_m3d__layout(mf_m3d_naming naming, m3d_layout *out);
#endif
