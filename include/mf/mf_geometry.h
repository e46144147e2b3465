/* mf_geometry.h — world geometry of a posed instance (mf_pose.h): CPU skinning of regions and
 * meshes, clipping, bounding boxes, points, path points, pose bounds and the draw list.
 *
 * Runtime module (libmf_runtime): C11 + libm. mf_draw_list_create() sizes every buffer from the
 * data (worst case, clipping included); building a draw list per frame allocates nothing.
 * Create clears only the list's struct and items: the vertex, uv and index capacity is written
 * by builds as they use it, so with an allocator that maps fresh pages (malloc's large blocks,
 * an mf_instance_arena's chunks) the part clipping's worst case reserves and no frame reaches
 * is never committed.
 *
 *     mf_draw_list *dl;  mf_draw_list_create(&data, NULL, &dl);
 *     per frame, after mf_pose_update_world():
 *         mf_draw_list_build(dl, pose);
 *         for (int32_t i = 0; i < dl->item_count; i++) {
 *             const mf_draw_item *it = &dl->items[i];
 *             draw(it->blend, it->light, it->dark, dl->vertices + 2 * it->vertex_first,
 *                  dl->uvs + 2 * it->vertex_first, it->vertex_count,
 *                  dl->indices + it->index_first, it->index_count);   // indices item-relative
 *         }
 *
 * Skinning elsewhere (a GPU): mf_draw_list_build_items() lists the same items without writing
 * the vertices of unclipped ones; mf_pose_palette() gives the bones' world matrices.
 *
 * World vertices alone (hit tests, a renderer of the host's own): every visible region and mesh
 * in draw order in one call, into a buffer sized once from the data:
 *
 *     int32_t cap = mf_skel_data_world_vertex_cap(&data);              // 0: nothing to draw
 *     float *xy = cap > 0 ? malloc(2 * sizeof(float) * (size_t)cap) : NULL;
 *     int32_t *first = malloc(sizeof(int32_t) * data.slot_count);   // or NULL
 *     int32_t pairs = mf_pose_world_vertices_all(pose, xy, cap, first);  // first[slot]: its start
 */
#ifndef MF_GEOMETRY_H
#define MF_GEOMETRY_H

#include "mf/mf_pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* World vertices (x, y pairs, skeleton space) of an attachment on a slot, with the slot's
 * deform when it holds that attachment's: regions (4 corners), meshes, bounding boxes, paths
 * and clipping polygons. Returns the vertex count written, 0 for points or when out (cap
 * vertices) is too small or arguments are bad. */
int32_t mf_pose_world_vertices(const mf_pose *pose, int32_t slot, int32_t attachment, float *out,
                               int32_t cap);

/* The world vertices of every region and mesh a visible slot shows (its bone active), in draw
 * order, one after another in out (x, y pairs): what mf_pose_world_vertices gives each, the same
 * bits, in one call without a call a slot. first (NULL, or one int32 a slot): the pair at which
 * each slot's vertices start in out, -1 for a slot that shows none (or an attachment without
 * vertices). Returns the pairs written; -1 when pose is NULL, cap < 0, out is NULL with cap > 0
 * (out may be NULL with cap 0: a pose that shows nothing), or out (cap pairs) is too small, out
 * and first then written only up to the attachment that did not fit. mf_skel_data_world_vertex_cap
 * gives a cap large enough for every pose of the data whose slots show their own attachments (as
 * skins, timelines and mf_pose_reset set them; a host that puts another slot's attachment on a
 * slot may need more). Clipping attachments do not clip here (mf_draw_list_build clips). */
int32_t mf_pose_world_vertices_all(const mf_pose *pose, float *out, int32_t cap, int32_t *first);

/* The most pairs mf_pose_world_vertices_all writes for poses of data: per slot its largest
 * region or mesh, summed (0 for NULL or data that draws nothing; INT32_MAX where the sum is
 * larger, which no valid build reaches). */
int32_t mf_skel_data_world_vertex_cap(const mf_skel_data *data);

/* A point attachment's world position and rotation (degrees). MF_ERR_ARGUMENT if not a point. */
mf_result mf_pose_point_world(const mf_pose *pose, int32_t slot, int32_t attachment, float *x,
                              float *y, float *rot);

/* Conservative bounds of everything drawn (regions and meshes of visible slots):
 * out = {min x, min y, max x, max y}; false when nothing is drawn. */
bool mf_pose_bounds(const mf_pose *pose, float out[4]);

/* One thing to draw, in draw order. */
typedef struct mf_draw_item {
    int32_t slot, attachment;
    int32_t image;       /* IMAGES index of the frame drawn (sequences resolved), -1 none */
    uint8_t blend;       /* MF_SD_BLEND_* */
    bool has_dark, clipped;
    float light[4];      /* slot colour × attachment colour, straight */
    float dark[3];       /* the slot's dark colour (two-colour tint) */
    int32_t vertex_first, vertex_count; /* into vertices / uvs (pairs) */
    int32_t index_first, index_count;   /* into indices; values relative to vertex_first */
    int32_t uv_set;      /* the attachment's uv set drawn (its sequence frame when packed) */
} mf_draw_item;

typedef struct mf_draw_list {
    int32_t item_count, item_cap;
    mf_draw_item *items;
    int32_t vertex_count, vertex_cap;   /* pairs */
    float *vertices, *uvs;
    int32_t index_count, index_cap;
    uint16_t *indices;
    /* the most vertices and indices a build writes when nothing is clipped (the caps add
     * clipping's worst case) */
    int32_t vertex_unclipped, index_unclipped;
    int32_t overflow;   /* items left out because a buffer was full (0 unless data lies) */
    /* items of the last build whose uvs and indices stayed in place from the build before
     * (same slot, attachment, uv set and position, not clipped): only their vertices were
     * written. The arrays are the list's: a host reads them and never writes them. */
    int32_t items_kept;
    /* scratch: clip polygon and its convex pieces, clipping temporaries */
    int32_t clip_cap;
    float *clip_poly, *clip_tmp_a, *clip_tmp_b, *skin;
    int32_t *clip_piece_first, *clip_piece_count;
    int32_t piece_count;
    const mf_skel_data *data; /* the view it was created for (and sized from): its own copy of a
                               * loaded one (mf_draw_list_create) */
    mf_allocator alloc;
    void *cold; /* the second block (mf_alloc_cold): uvs, indices, clipping scratch */
    /* slot tracking (mf_pose_set_slot_tracking): the pose of the last build when that build
     * may stand (nothing clipped or left out), NULL none, and its count of slot changes then */
    const void *kept_pose;
    uint32_t kept_stamp;
    /* with kept_pose: what skinning needs of the items, 3 ints an item (slot, attachment,
     * vertex_first), so that a kept build reads these few lines instead of every item's; -1:
     * not listed yet (the first kept build lists them) */
    int32_t job_count;
    int32_t *jobs;
} mf_draw_list;

/* The list keeps its own copy of a loaded view *data (which need not outlive it); the blob it
 * points into must stay loaded while the list is built or added to a batch. (A view not from
 * mf_skel_data_load, bytes NULL, is kept by address and must outlive the list.) */
mf_result mf_draw_list_create(const mf_skel_data *data, const mf_allocator *alloc,
                              mf_draw_list **out);
void mf_draw_list_destroy(mf_draw_list *dl);
/* Fills the list from a posed instance (world transforms current). The pose must be of the
 * data the list was created for (that view or a copy of it: the same loaded blob), which stays
 * loaded while the list is used. MF_OK; MF_ERR_ARGUMENT: dl or pose NULL, or the pose is of
 * other data: the list is left empty (no items) and nothing else is written. */
mf_result mf_draw_list_build(mf_draw_list *dl, const mf_pose *pose);
/* With the pose's slot tracking on (mf_pose_set_slot_tracking), a build that follows a build of
 * the same pose into the same list that met no clipping attachment and left nothing out, with
 * no slot change since, keeps every item as it is (items_kept = item_count) and writes only the
 * vertices (mf_draw_list_build_items: nothing). */

/* mf_draw_list_build for a host that skins on its own (a GPU skinner, mf_gpu.h, or the host's
 * code from mf_pose_palette): the same checks and results, the same items (every field), counts,
 * uvs, indices, items_kept and overflow, and clipped items with their whole clipped geometry
 * (clipping needs the skinned vertices, so they are skinned here as by a build), except that
 * the vertices of unclipped items are not written: their range of vertices (vertex_first,
 * vertex_count pairs) is left as it was, for the host to fill or to skin into a buffer of its
 * own. Builds of both kinds may alternate on one list: an item kept from a build_items (its
 * uvs and indices in place) still gets its vertices written by a following
 * mf_draw_list_build, which skins every item it lists. */
mf_result mf_draw_list_build_items(mf_draw_list *dl, const mf_pose *pose);
/* Both builds write the pose's private scratch (its skinning matrices, slot tracking's note):
 * a pose is built by one thread at a time, as it is posed (mf_pose.h). */

/* Each bone's world transform (as of the last world update) as 6 floats {a, b, wx, c, d, wy},
 * bone_count × 6 floats in bone order, so that a vertex (x, y) in a bone's space is at
 * (a x + b y + wx, c x + d y + wy): the matrices mf_pose_world_vertices skins with (a weighted
 * vertex is the weighted sum of its influences through their bones). For a host or GPU that
 * skins the unclipped items of mf_draw_list_build_items. Nothing written past bone_count × 6
 * floats; does nothing when pose or out is NULL. */
void mf_pose_palette(const mf_pose *pose, float *out);

/* Splits a simple polygon (n points, either winding) into convex pieces by ear clipping and
 * merging: writes the pieces' points (counter-clockwise in a Y-up sense... see geometry.c)
 * into out_points (cap points), first / count per piece into the arrays (piece_cap). Returns
 * the piece count, 0 when the polygon is degenerate or buffers are too small. scratch: n
 * ints. */
int32_t mf_convex_decompose(const float *poly, int32_t n, float *out_points, int32_t cap,
                            int32_t *piece_first, int32_t *piece_count, int32_t piece_cap,
                            int32_t *scratch);

/* Clips the convex or concave polygon `in` (n points) against one convex polygon `clip` (m
 * points, consistent winding): Sutherland–Hodgman. Returns the output point count (<= n + m),
 * written to out (cap points); tmp holds cap points. */
int32_t mf_clip_convex(const float *in, int32_t n, const float *clip, int32_t m, float *out,
                       float *tmp, int32_t cap);

#ifdef __cplusplus
}
#endif
#endif
