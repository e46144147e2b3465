/* mfe skel automesh RIG.mskel --slot S [--attachment A] [--density D] [--json]
 * Replaces a slot's Region (or unweighted Mesh) attachment by a Mesh traced from its image
 * (mf_automesh.h), placed where the region was, and writes the rig back canonically. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mf/mf_automesh.h"
#include "mf/mf_png.h"
#include "mf/mf_skeleton.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/suggest.h"

static const char *slot_name_at(const void *ctx, int i) { return ((const mf_skeleton *)ctx)->slots[i].name; }

/* Maps image pixels (Y down) to the slot bone's space: an affine map m[6] with
 * bone = (m0 * px + m1 * py + m2, m3 * px + m4 * py + m5). */
static void region_map(const mf_attachment *a, int32_t w, int32_t h, double m[6])
{
    double c = cos(a->rot * 3.14159265358979323846 / 180), s = sin(a->rot * 3.14159265358979323846 / 180);
    /* region-local: lx = (px / w - 0.5) * width * sx, ly = (0.5 - py / h) * height * sy */
    double ax = a->width * a->sx / w, ay = -a->height * a->sy / h;
    double bx = -0.5 * a->width * a->sx, by = 0.5 * a->height * a->sy;
    m[0] = c * ax, m[1] = -s * ay, m[2] = c * bx - s * by + a->x;
    m[3] = s * ax, m[4] = c * ay, m[5] = s * bx + c * by + a->y;
}

/* Solves the 3x3 system A x = b (Cramer); false when singular. */
static bool solve3(const double A[9], const double b[3], double x[3])
{
    double det = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
                 A[2] * (A[3] * A[7] - A[4] * A[6]);
    if (fabs(det) < 1e-12) return false;
    for (int k = 0; k < 3; k++) {
        double M[9];
        memcpy(M, A, sizeof M);
        for (int r = 0; r < 3; r++) M[3 * r + k] = b[r];
        x[k] = (M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) +
                M[2] * (M[3] * M[7] - M[4] * M[6])) / det;
    }
    return true;
}

/* For an existing unweighted mesh: the least-squares affine map from image pixels to its
 * vertices (exact for a mesh that was not deformed by hand). */
static bool mesh_map(const mf_attachment *a, int32_t w, int32_t h, double m[6])
{
    double A[9] = {0}, bx[3] = {0}, by[3] = {0};
    for (int32_t i = 0; i < a->vertices.count; i++) {
        double p[3] = {a->uvs[2 * i] * w, a->uvs[2 * i + 1] * h, 1};
        for (int r = 0; r < 3; r++) {
            for (int k = 0; k < 3; k++) A[3 * r + k] += p[r] * p[k];
            bx[r] += p[r] * a->vertices.xy[2 * i];
            by[r] += p[r] * a->vertices.xy[2 * i + 1];
        }
    }
    return solve3(A, bx, m) && solve3(A, by, m + 3);
}

/* Snaps the map to a grid (scales to 2^-20, offsets to 2^-12) so that the map fitted back
 * from a mesh this command wrote is the very one it used: re-meshing gives the same file. */
static void snap_map(double m[6])
{
    for (int k = 0; k < 6; k++) {
        double q = (k == 2 || k == 5) ? 4096.0 : 1048576.0;
        m[k] = round(m[k] * q) / q;
    }
}

/* Copies the mesh into the attachment (memory owned by the skeleton). */
static mf_result apply(mf_skeleton *sk, mf_attachment *a, const mf_automesh *mesh, const double m[6], int32_t w,
                       int32_t h)
{
    int32_t n = mesh->vertex_count;
    float *xy = mf_skeleton_alloc(sk, (size_t)n * 2 * sizeof *xy);
    float *uvs = mf_skeleton_alloc(sk, (size_t)n * 2 * sizeof *uvs);
    int32_t *tris = mf_skeleton_alloc(sk, (size_t)mesh->triangle_count * 3 * sizeof *tris);
    int32_t *edges = mf_skeleton_alloc(sk, (size_t)mesh->edge_count * 2 * sizeof *edges);
    if (!xy || !uvs || !tris || !edges) return MF_ERR_NOMEM;
    for (int32_t i = 0; i < n; i++) {
        double px = mesh->xy[2 * i], py = mesh->xy[2 * i + 1];
        xy[2 * i] = (float)(m[0] * px + m[1] * py + m[2]);
        xy[2 * i + 1] = (float)(m[3] * px + m[4] * py + m[5]);
        uvs[2 * i] = mesh->uvs[2 * i], uvs[2 * i + 1] = mesh->uvs[2 * i + 1];
    }
    /* Image Y points down, bone Y up: reverse each triangle so it stays counter-clockwise
     * when the map flips. */
    bool flip = m[0] * m[4] - m[1] * m[3] < 0;
    for (int32_t t = 0; t < mesh->triangle_count; t++) {
        tris[3 * t] = mesh->triangles[3 * t];
        tris[3 * t + 1] = mesh->triangles[3 * t + (flip ? 2 : 1)];
        tris[3 * t + 2] = mesh->triangles[3 * t + (flip ? 1 : 2)];
    }
    memcpy(edges, mesh->edges, (size_t)mesh->edge_count * 2 * sizeof *edges);
    a->type = MF_ATTACH_MESH;
    a->vertices = (mf_vertices){0};
    a->vertices.count = n;
    a->vertices.xy = xy;
    a->uv_count = n;
    a->uvs = uvs;
    a->triangle_count = mesh->triangle_count;
    a->triangles = tris;
    a->hull = mesh->hull;
    a->edge_count = mesh->edge_count;
    a->edges = edges;
    a->width = (float)w, a->height = (float)h;
    a->x = a->y = a->rot = 0, a->sx = a->sy = 1;
    return MF_OK;
}

typedef struct args {
    const char *rig, *slot, *attachment;
    float density;
    bool json;
} args;

static int parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        bool has_next = i + 1 < argc;
        if (mfe_is_flag(s, "--json")) a->json = true;
        else if (mfe_is_flag(s, "--slot") && has_next) a->slot = argv[++i];
        else if (mfe_is_flag(s, "--attachment") && has_next) a->attachment = argv[++i];
        else if (mfe_is_flag(s, "--density") && has_next) {
            char *end;
            double d = strtod(argv[++i], &end);
            if (*end || !(d > 0 && d <= 1000))
                return mfe_usage_error("skel", "automesh", "--density %s: expected a number in (0, 1000]", argv[i]);
            a->density = (float)d;
        } else if (s[0] == '-' && s[1]) return mfe_usage_error("skel", "automesh", "unknown option or missing value: %s", s);
        else if (a->rig) return mfe_usage_error("skel", "automesh", "more than one rig given");
        else a->rig = s;
    }
    if (!a->rig) return mfe_usage_error("skel", "automesh", "no rig given");
    if (!a->slot) return mfe_usage_error("skel", "automesh", "--slot is required");
    return -1;
}

/* The attachments to mesh: (slot, name) in every skin. */
static int find_targets(const mf_skeleton *sk, const args *a, int32_t slot, const char **name_out, mf_diag *d)
{
    const char *name = a->attachment ? a->attachment : sk->slots[slot].attachment;
    if (!name) {
        /* no setup attachment: take the slot's only attachment name, if there is one */
        for (int32_t s = 0; s < sk->skin_count; s++)
            for (int32_t i = 0; i < sk->skins[s].attachment_count; i++) {
                const mf_attachment *at = &sk->skins[s].attachments[i];
                if (at->slot != slot) continue;
                if (name && strcmp(name, at->name) != 0) {
                    mf_diag_set(d, a->rig, "", "slot \"%s\" has several attachments and none in the setup pose: "
                                "pick one with --attachment", sk->slots[slot].name);
                    return -1;
                }
                name = at->name;
            }
    }
    int found = 0;
    for (int32_t s = 0; s < sk->skin_count; s++)
        if (name && mf_skin_find_attachment(&sk->skins[s], slot, name)) found++;
    if (!found) {
        mf_diag_set(d, a->rig, "", "slot \"%s\" has no attachment%s%s%s", sk->slots[slot].name, name ? " \"" : "",
                    name ? name : "", name ? "\"" : "");
        return -1;
    }
    *name_out = name;
    return found;
}

static void print_json_result(const args *a, const char *name, const mf_automesh *m, int count)
{
    mf_buf b = {0};
    mf_buf_puts(&b, "{\"rig\": ");
    mf_buf_string(&b, a->rig);
    mf_buf_puts(&b, ", \"slot\": ");
    mf_buf_string(&b, a->slot);
    mf_buf_puts(&b, ", \"attachment\": ");
    mf_buf_string(&b, name);
    mf_buf_printf(&b, ", \"meshed\": %d, \"vertices\": %d, \"triangles\": %d, \"hull\": %d, \"loops\": %d, ", count,
                  (int)m->vertex_count, (int)m->triangle_count, (int)m->hull, (int)m->loop_count);
    mf_buf_puts(&b, "\"minAngle\": ");
    mf_buf_number(&b, roundf(m->min_angle * 100) / 100);
    mf_buf_puts(&b, ", \"minInteriorAngle\": ");
    mf_buf_number(&b, roundf(m->min_interior_angle * 100) / 100);
    mf_buf_puts(&b, ", \"share20\": ");
    mf_buf_number(&b, roundf(m->good_share * 1000) / 1000);
    mf_buf_puts(&b, ", \"tolerance\": ");
    mf_buf_number(&b, m->tolerance_used);
    mf_buf_puts(&b, ", \"spacing\": ");
    mf_buf_number(&b, m->spacing_used);
    mf_buf_puts(&b, "}\n");
    fputs(b.data ? b.data : "", stdout);
    mf_buf_free(&b);
}

int mfe_skel_automesh(int argc, char **argv)
{
    args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0) return rc;
    mf_diag d;
    mf_diag_clear(&d);
    mf_skeleton *sk = NULL;
    if (mf_skeleton_load(a.rig, &sk, &d) != MF_OK) return mfe_report(&d);
    int32_t slot = mf_skeleton_find_slot(sk, a.slot);
    if (slot < 0) {
        char sug[300];
        mf_suggest_suffix(sug, sizeof sug, mf_suggest(a.slot, sk->slot_count, slot_name_at, sk));
        mf_diag_set(&d, a.rig, "slots", "unknown slot \"%s\"%s", a.slot, sug);
        mf_skeleton_free(sk);
        return mfe_report(&d);
    }
    const char *name = NULL;
    int count = find_targets(sk, &a, slot, &name, &d);
    if (count < 0) {
        mf_skeleton_free(sk);
        return mfe_report(&d);
    }
    char rel[4096], path[8800];
    mf_path_dir(a.rig, rel, sizeof rel);
    const char *images = sk->import.images ? sk->import.images : "images/";
    mf_automesh last = {0};
    mf_automesh_options opt = {0};
    opt.density = a.density;
    int done = 0;
    for (int32_t s = 0; s < sk->skin_count && rc < 0; s++) {
        mf_attachment *at = (mf_attachment *)mf_skin_find_attachment(&sk->skins[s], slot, name);
        if (!at) continue;
        if (at->type != MF_ATTACH_REGION && !(at->type == MF_ATTACH_MESH && at->vertices.xy)) {
            mf_diag_set(&d, a.rig, "", "skins.%s: attachment \"%s\" is a %s%s; automesh takes a Region or an "
                        "unweighted Mesh", sk->skins[s].name, name, mf_attachment_type_name(at->type),
                        at->type == MF_ATTACH_MESH ? " with weights" : "");
            rc = mfe_report(&d);
            break;
        }
        if (at->sequence.count > 0) {
            mf_diag_set(&d, a.rig, "", "skins.%s: attachment \"%s\" is an image sequence; automesh one frame by hand",
                        sk->skins[s].name, name);
            rc = mfe_report(&d);
            break;
        }
        const char *image = at->image ? at->image : at->name;
        snprintf(path, sizeof path, "%s%s%s%s.png", images[0] == '/' ? "" : rel, images,
                 images[0] && images[strlen(images) - 1] != '/' ? "/" : "", image);
        mf_image img = {0};
        if (mf_png_load(path, &img, &d) != MF_OK) {
            rc = mfe_report(&d);
            break;
        }
        double m[6];
        bool mapped = true;
        if (at->type == MF_ATTACH_REGION) region_map(at, img.width, img.height, m);
        else mapped = mesh_map(at, img.width, img.height, m);
        snap_map(m);
        mf_automesh_free(&last);
        mf_result r = mapped ? mf_automesh_image(img.rgba, img.width, img.height, img.width * 4, &opt, &last, &d)
                             : MF_ERR_INVALID;
        if (!mapped) mf_diag_set(&d, a.rig, "", "skins.%s: mesh \"%s\" has UVs that do not span the image",
                                 sk->skins[s].name, name);
        else if (r != MF_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", d.message);
            mf_diag_set(&d, path, "", "%s", msg);
        }
        if (r == MF_OK) r = apply(sk, at, &last, m, img.width, img.height);
        mf_image_free(&img);
        if (r != MF_OK) {
            if (r == MF_ERR_NOMEM) mf_diag_set(&d, a.rig, "", "out of memory");
            rc = mfe_report(&d);
            break;
        }
        done++;
    }
    if (rc < 0 && mf_skeleton_save(sk, a.rig, &d) != MF_OK) rc = mfe_report(&d);
    if (rc < 0) {
        if (a.json) print_json_result(&a, name, &last, done);
        else
            printf("%s: slot %s attachment %s: mesh of %d vertices (hull %d, %d loops), %d triangles; min angle %.1f "
                   "(interior %.1f), %.0f%% of triangles >= 20 deg; tolerance %.2f px, spacing %.1f px%s\n",
                   a.rig, a.slot, name, (int)last.vertex_count, (int)last.hull, (int)last.loop_count,
                   (int)last.triangle_count, (double)last.min_angle, (double)last.min_interior_angle,
                   (double)last.good_share * 100, (double)last.tolerance_used, (double)last.spacing_used,
                   done > 1 ? " (in every skin having it)" : "");
        rc = MFE_OK;
    }
    mf_automesh_free(&last);
    mf_skeleton_free(sk);
    return rc;
}
