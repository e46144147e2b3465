/* Shared by the humanoid sources: the skeleton's tree and geometry, name classes, structure. */
#ifndef MF_HUMANOID_INTERNAL_H
#define MF_HUMANOID_INTERNAL_H

#include "mf/mf_humanoid.h"

/* The left-side (or centre) bone with the same role. */
mf_humanoid_bone mf_hb_left(mf_humanoid_bone b);

/* ---- tree and geometry of a skeleton view ---- */

typedef struct mf_htree {
    int32_t n;
    int32_t *child_count;
    int32_t **children;   /* per bone, in bone order */
    int32_t *depth;
    int32_t *pre;         /* bones in depth-first order; a subtree is pre[tin[b] … tout[b]) */
    int32_t *tin, *tout;
    mf_vec3 *pos;         /* rest world pivot of each bone */
    float size;           /* diagonal of the pivots' bounding box (> 0) */
} mf_htree;

bool mf_htree_init(mf_htree *t, const mf_humanoid_skeleton *s);
void mf_htree_free(mf_htree *t);
/* True when a is b or one of b's ancestors. */
bool mf_htree_is_ancestor(const mf_htree *t, int32_t a, int32_t b);
int32_t mf_htree_lca(const mf_humanoid_skeleton *s, const mf_htree *t, int32_t a, int32_t b);
/* The bones from `from` (exclusive) down to `to` (inclusive) into out (at most cap); returns
 * the count, -1 when from is not an ancestor of to. */
int32_t mf_htree_path(const mf_humanoid_skeleton *s, int32_t from, int32_t to, int32_t *out, int32_t cap);
/* Pivots closer than this are the same point. */
float mf_htree_eps(const mf_htree *t);

/* ---- names ---- */

/* What a rig bone's name says. */
typedef enum mf_hname_kind {
    MF_HN_NONE,      /* no table knows it */
    MF_HN_SKIP,      /* end, twist, IK or helper bones: never mapped by name */
    MF_HN_BONE,      /* a canonical bone (bone, with its side) */
    MF_HN_SPINE,     /* a spine segment whose role depends on its place in the chain */
    MF_HN_NECK,      /* a neck segment: the lowest one is Neck */
    MF_HN_RIGIFY_SPINE /* Blender "spine" / "spine.00N": N is the segment from the hips */
} mf_hname_kind;

typedef struct mf_hname {
    mf_hname_kind kind;
    int bone;        /* MF_HN_BONE: the canonical bone */
    int number;      /* MF_HN_SPINE / NECK / RIGIFY_SPINE: the number in the name, -1 none */
    int namings;     /* bit i: the convention mf_hname_naming(i) uses this name */
    int flags;       /* MF_HNF_SHOULDER_WORD: "shoulder", which BVH files use for the upper arm */
    int priority;    /* 2, or 1 for Rigify's ORG- bones (deform bones win) */
} mf_hname;

enum { MF_HNF_SHOULDER_WORD = 1 };

/* Classifies one bone name. */
mf_hname mf_hname_classify(const char *name);
/* "mixamo", "unreal", "blender", "mocap", "vrm" by index; NULL past the end. */
const char *mf_hname_naming(int index);
/* Normalised stem and side for tests and messages: "LeftUpLeg" → "upleg", side 'L'. */
void mf_hname_normalise(const char *name, char *stem, size_t size, char *side);

/* ---- detection steps ---- */

/* Step 1: fills map (bone / source / confidence) from names alone. */
void mf_hdetect_names(const mf_humanoid_skeleton *s, const mf_htree *t, mf_humanoid_map *map);
/* Unmaps bones whose rig bone does not lie below their canonical parent's. */
void mf_hmap_enforce_hierarchy(const mf_htree *t, mf_humanoid_map *map);
/* Step 2: fills map from the structure alone (names ignored); also map->forward and up.
 * Returns false when no humanoid structure was found. */
bool mf_hdetect_structure(const mf_humanoid_skeleton *s, const mf_htree *t, mf_humanoid_map *map);
/* Spine, Chest, UpperChest from the chain strictly between hips and top (inclusive of top
 * when include_top): 1 → Spine; 2 → Spine, Chest; 3+ → first, middle, last. */
int32_t mf_hspine_assign(const int32_t *chain, int32_t n, int32_t out[3]);
/* The character's up and forward in world space: signed world axes found from the feet and
 * head of a map (pivots of mapped bones); false when they cannot be told. */
bool mf_hdetect_axes(const mf_humanoid_skeleton *s, const mf_htree *t, const mf_humanoid_map *map,
                     mf_vec3 *up, mf_vec3 *forward);

/* The nearest world axis (±X, ±Y, ±Z) to v. */
mf_vec3 mf_hsnap_axis(mf_vec3 v);

/* ---- the joint space ---- */

/* A rotation in double precision, so that angle round trips stay far inside 0.01°. */
typedef struct mf_dquat { double x, y, z, w; } mf_dquat;

mf_dquat mf_dq(mf_quat q);
mf_quat mf_dq_f(mf_dquat q);
mf_dquat mf_dq_mul(mf_dquat a, mf_dquat b);
mf_dquat mf_dq_conj(mf_dquat q);
/* Rotation about a unit world axis, radians. */
mf_dquat mf_dq_axis_angle(double ax, double ay, double az, double radians);

/* Per mapped canonical bone: the joint frame. Q (world, T-pose) = B · Rx(twist) Ry(abduct)
 * Rz(sigma·flex) · B⁻¹ and the rig's local rotation L = pre · R · post. */
typedef struct mf_hjoint {
    bool mapped;
    mf_vec3 twist_axis, abduct_axis, flex_axis; /* world, T-pose */
    double sigma;                               /* ±1: makes (twist, abduct, sigma·flex) right-handed */
    mf_dquat pre, post;                         /* T_parent⁻¹ · B and B⁻¹ · T_bone */
} mf_hjoint;

struct mf_humanoid_rig {
    const mf_humanoid_skeleton *s;
    mf_humanoid_map map;
    mf_vec3 left, up, forward;   /* the character's axes in world space */
    mf_quat *tpose;              /* per rig bone: T-pose world rotation */
    mf_mat4 hips_parent_inv;     /* for hips offsets */
    mf_hjoint joint[MF_HB_COUNT];
    mf_humanoid_proportions proportions;
    mf_humanoid_rest_kind rest_kind;
    float arm_angle;
};

#endif
