/* mf_automesh.h — a mesh for an image, traced from its alpha (docs/automesh.md).
 *
 * Offline module (libmf_offline). Steps: pixels with alpha >= alpha_threshold are opaque; the
 * mask is grown by a margin (so simplification cannot cut opaque pixels off) and traced with
 * marching squares; every outline is simplified with Douglas–Peucker and split into segments
 * no longer than the grid spacing; interior points are placed on a triangular grid; a
 * constrained Delaunay triangulation (mf_triangulate.h) whose segments are the outlines makes
 * the triangles. The mesh never leaves the image rectangle and covers every opaque pixel
 * (checked; the tolerance is lowered until it holds).
 *
 * Several islands and holes: the largest island's outline is the hull (the first `hull`
 * vertices, in order); other islands and holes are further loops whose vertices follow, and
 * every loop segment, hull included, is listed in `edges`.
 *
 *     mf_automesh m;
 *     if (mf_automesh_image(img.rgba, img.width, img.height, img.width * 4, NULL, &m, &diag) == MF_OK) {
 *         ... m.xy, m.uvs, m.triangles ...
 *     }
 *     mf_automesh_free(&m);
 */
#ifndef MF_AUTOMESH_H
#define MF_AUTOMESH_H

#include "mf/mf_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero in any field means its default. */
typedef struct mf_automesh_options {
    int32_t alpha_threshold; /* 1..255: alpha >= this is opaque; default 1 */
    float density;           /* > 0, more means more vertices; default 1 (about 8 grid steps
                                along the image's longer side per unit of density) */
    float spacing;           /* interior grid step in pixels; default from density */
    float tolerance;         /* Douglas–Peucker tolerance in pixels; default from spacing;
                                negative: no simplification */
} mf_automesh_options;

typedef struct mf_automesh {
    int32_t vertex_count;
    float *xy;               /* 2 * vertex_count, image pixels, Y down, within [0,w] x [0,h] */
    float *uvs;              /* 2 * vertex_count, 0..1 (x / w, y / h) */
    int32_t hull;            /* the first `hull` vertices are the main outline, in order */
    int32_t loop_count;      /* outlines and holes, hull first */
    int32_t *loop_sizes;     /* loop_count vertex counts; loops follow each other in xy */
    int32_t triangle_count;
    int32_t *triangles;      /* 3 * triangle_count vertex indices */
    int32_t edge_count;
    int32_t *edges;          /* 2 * edge_count vertex indices: every loop segment */
    /* Quality figures. */
    float min_angle;         /* smallest angle of any triangle, degrees */
    float min_interior_angle;/* smallest angle of triangles with no edge on a loop */
    float good_share;        /* share of triangles whose smallest angle is >= 20 degrees */
    float spacing_used, tolerance_used;
} mf_automesh;

/* rgba: straight-alpha RGBA8 rows, `stride` bytes apart. MF_ERR_INVALID (with diag) for an
 * image with no opaque pixel; MF_ERR_ARGUMENT for bad sizes or options. */
mf_result mf_automesh_image(const uint8_t *rgba, int32_t w, int32_t h, int32_t stride,
                            const mf_automesh_options *o, mf_automesh *out, mf_diag *diag);
void mf_automesh_free(mf_automesh *m);

#ifdef __cplusplus
}
#endif
#endif
