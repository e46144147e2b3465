/* mf_triangulate.h — constrained Delaunay triangulation of points and segments.
 *
 * Offline module (libmf_offline). Points are inserted incrementally into a Delaunay
 * triangulation (edge flips), each segment is then recovered by flipping the edges it crosses
 * and the Delaunay property is restored around it; with MF_TRI_CLIP_EVEN_ODD the triangles
 * outside the segments (even-odd rule: outlines and holes alike) are removed.
 *
 *     float xy[] = { 0,0, 10,0, 10,10, 0,10, 5,5 };
 *     int32_t seg[] = { 0,1, 1,2, 2,3, 3,0 };
 *     mf_tri_input in = { 5, xy, 4, seg, MF_TRI_CLIP_EVEN_ODD };
 *     mf_triangulation t;
 *     if (mf_triangulate(&in, &t, &diag) == MF_OK) { ... t.triangles[3 * i + k] ... }
 *     mf_triangulation_free(&t);
 *
 * Properties: no new points are added; duplicate points are merged (triangles use the first
 * index); a point lying on a segment splits it; segments that cross each other are an error
 * (MF_ERR_INVALID naming both). Triangles are counter-clockwise in the caller's frame
 * (positive signed area with +Y up; they look clockwise in an image with Y down).
 * Coordinates must be finite with magnitude up to MF_TRI_MAX_COORD.
 */
#ifndef MF_TRIANGULATE_H
#define MF_TRIANGULATE_H

#include "mf/mf_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MF_TRI_MAX_COORD 1.0e6f
#define MF_TRI_MAX_POINTS (1 << 22)

enum {
    MF_TRI_KEEP_ALL = 0,      /* every triangle of the convex hull */
    MF_TRI_CLIP_EVEN_ODD = 1  /* only triangles inside the segments (even-odd rule) */
};

typedef struct mf_tri_input {
    int32_t point_count;
    const float *xy;          /* 2 * point_count */
    int32_t segment_count;
    const int32_t *segments;  /* 2 * segment_count point indices */
    int32_t flags;            /* MF_TRI_KEEP_ALL or MF_TRI_CLIP_EVEN_ODD */
} mf_tri_input;

typedef struct mf_triangulation {
    int32_t triangle_count;
    int32_t *triangles;       /* 3 * triangle_count indices into the input points, malloc'd */
} mf_triangulation;

mf_result mf_triangulate(const mf_tri_input *in, mf_triangulation *out, mf_diag *diag);
void mf_triangulation_free(mf_triangulation *t);

/* Smallest interior angle of triangle (a, b, c) of xy, in degrees (0 for degenerate ones). */
float mf_triangle_min_angle(const float *xy, int32_t a, int32_t b, int32_t c);

#ifdef __cplusplus
}
#endif
#endif
