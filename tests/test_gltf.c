/* glTF reader and writer: fixtures in every container (.glb, .gltf with a data: URI, .gltf with
 * an external .bin), every accessor kind (strided, normalised, sparse), all interpolations,
 * round trips, reproducible output, an independent loader (assimp) and exact located errors. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mf/mf_gltf.h"
#include "mf/mf_mannequin3d.h"
#include "gltf/gltf_internal.h"
#include "util/arena.h"

/* ---- building fixtures ------------------------------------------------------------------ */

typedef struct bin {
    uint8_t d[1024];
    size_t n;
} bin;

static void b_u8(bin *b, uint8_t v) { b->d[b->n++] = v; }
static void b_u16(bin *b, uint16_t v)
{
    b_u8(b, (uint8_t)v);
    b_u8(b, (uint8_t)(v >> 8));
}
static void b_f32(bin *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    b_u16(b, (uint16_t)u);
    b_u16(b, (uint16_t)(u >> 16));
}
static void b_f32s(bin *b, int n, const float *v)
{
    for (int i = 0; i < n; i++) b_f32(b, v[i]);
}

/* ' → " in a malloc'd copy, so the JSON in this file stays readable */
static char *q(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    for (size_t i = 0;; i++) {
        d[i] = s[i] == '\'' ? '"' : s[i];
        if (!s[i]) break;
    }
    return d;
}

/* the JSON with @URI@ replaced by text (the buffer's ,"uri" part or nothing) */
static char *with_uri(const char *json, const char *uri_part)
{
    const char *at = strstr(json, "@URI@");
    if (!at) return q(json);
    char *out = malloc(strlen(json) + strlen(uri_part) + 1);
    sprintf(out, "%.*s%s%s", (int)(at - json), json, uri_part, at + 5);
    char *j = q(out);
    free(out);
    return j;
}

static uint8_t *make_glb(const char *json, const bin *b, size_t *size)
{
    size_t jl = (strlen(json) + 3) & ~(size_t)3, bl = b ? (b->n + 3) & ~(size_t)3 : 0;
    *size = 12 + 8 + jl + (b ? 8 + bl : 0);
    uint8_t *o = calloc(1, *size);
    uint32_t hdr[5] = {0x46546C67u, 2, (uint32_t)*size, (uint32_t)jl, 0x4E4F534Au};
    memcpy(o, hdr, 20);
    memset(o + 20, ' ', jl);
    memcpy(o + 20, json, strlen(json));
    if (b) {
        uint32_t ch[2] = {(uint32_t)bl, 0x004E4942u};
        memcpy(o + 20 + jl, ch, 8);
        memcpy(o + 28 + jl, b->d, b->n);
    }
    return o;
}

static char *data_uri(const bin *b)
{
    char *s = malloc(64 + b->n * 2);
    strcpy(s, ",'uri':'data:application/octet-stream;base64,");
    mf_base64_encode(b->d, b->n, s + strlen(s));
    s[strlen(",'uri':'data:application/octet-stream;base64,") + (b->n + 2) / 3 * 4] = '\0';
    strcat(s, "'");
    return s;
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

/* ---- the main fixture: a skinned triangle with every accessor kind -------------------------- */

static const char *k_fixture =
    "{'asset':{'version':'2.0','generator':'hand'},'scene':0,'scenes':[{'nodes':[0,1]}],"
    "'nodes':[{'name':'Body','mesh':0,'skin':0},"
    "{'name':'Hip','children':[2],'translation':[0,0.5,0]},"
    "{'name':'Leg','matrix':[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,1,0,1]}],"
    "'meshes':[{'name':'tri','primitives':[{'attributes':{'POSITION':0,'NORMAL':1,'TEXCOORD_0':2,'JOINTS_0':3,"
    "'WEIGHTS_0':4},'indices':5,'material':0}]}],"
    "'skins':[{'name':'rig','joints':[1,2],'inverseBindMatrices':6,'skeleton':1}],"
    "'materials':[{'name':'paint','pbrMetallicRoughness':{'baseColorFactor':[0.5,0.25,1,1],"
    "'baseColorTexture':{'index':0},'metallicFactor':0,'roughnessFactor':0.5},'doubleSided':true}],"
    "'textures':[{'source':0}],'images':[{'name':'skin.png','bufferView':11,'mimeType':'image/png'}],"
    "'animations':[{'name':'Move','channels':["
    "{'sampler':0,'target':{'node':1,'path':'translation'}},{'sampler':1,'target':{'node':2,'path':'scale'}},"
    "{'sampler':2,'target':{'node':2,'path':'rotation'}}],"
    "'samplers':[{'input':7,'output':8},{'input':7,'output':9,'interpolation':'STEP'},"
    "{'input':7,'output':10,'interpolation':'CUBICSPLINE'}]}],"
    "'accessors':["
    "{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3','min':[0,0,0],'max':[1,1,0]},"
    "{'bufferView':1,'componentType':5126,'count':3,'type':'VEC3'},"
    "{'bufferView':2,'componentType':5121,'normalized':true,'count':3,'type':'VEC2'},"
    "{'bufferView':3,'componentType':5121,'count':3,'type':'VEC4'},"
    "{'bufferView':4,'componentType':5123,'normalized':true,'count':3,'type':'VEC4'},"
    "{'bufferView':5,'componentType':5121,'count':3,'type':'SCALAR'},"
    "{'bufferView':6,'componentType':5126,'count':2,'type':'MAT4'},"
    "{'bufferView':7,'componentType':5126,'count':2,'type':'SCALAR','min':[0],'max':[1]},"
    "{'bufferView':8,'componentType':5126,'count':2,'type':'VEC3'},"
    "{'bufferView':9,'componentType':5126,'count':2,'type':'VEC3'},"
    "{'bufferView':10,'componentType':5122,'normalized':true,'count':6,'type':'VEC4'}],"
    "'bufferViews':["
    "{'buffer':0,'byteOffset':0,'byteLength':36,'target':34962},"
    "{'buffer':0,'byteOffset':36,'byteLength':36,'target':34962},"
    "{'buffer':0,'byteOffset':72,'byteLength':12,'byteStride':4,'target':34962},"
    "{'buffer':0,'byteOffset':84,'byteLength':12,'target':34962},"
    "{'buffer':0,'byteOffset':96,'byteLength':24,'target':34962},"
    "{'buffer':0,'byteOffset':120,'byteLength':3,'target':34963},"
    "{'buffer':0,'byteOffset':124,'byteLength':128},"
    "{'buffer':0,'byteOffset':252,'byteLength':8},"
    "{'buffer':0,'byteOffset':260,'byteLength':24},"
    "{'buffer':0,'byteOffset':284,'byteLength':24},"
    "{'buffer':0,'byteOffset':308,'byteLength':48},"
    "{'buffer':0,'byteOffset':356,'byteLength':12}],"
    "'buffers':[{'byteLength':368@URI@}]}";

static const uint8_t k_png[12] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 'a', 'b', 'c', 'd'};

static void fixture_bin(bin *b)
{
    memset(b, 0, sizeof *b);
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, nrm[9] = {0, 0, 1, 0, 0, 1, 0, 0, 1};
    b_f32s(b, 9, pos);
    b_f32s(b, 9, nrm);
    const uint8_t uv[3][2] = {{0, 0}, {255, 0}, {0, 128}};
    for (int i = 0; i < 3; i++) b_u8(b, uv[i][0]), b_u8(b, uv[i][1]), b_u8(b, 0xee), b_u8(b, 0xee); /* stride 4 */
    const uint8_t jn[12] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 12; i++) b_u8(b, jn[i]);
    const uint16_t wt[12] = {65535, 0, 0, 0, 32768, 32767, 0, 0, 65535, 0, 0, 0};
    for (int i = 0; i < 12; i++) b_u16(b, wt[i]);
    b_u8(b, 0), b_u8(b, 1), b_u8(b, 2), b_u8(b, 0);
    const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.5f, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1.5f, 0, 1};
    b_f32s(b, 32, ibm);
    const float times[2] = {0, 1}, tr[6] = {0, 0, 0, 2, 0, 0}, sc[6] = {1, 1, 1, 2, 2, 2};
    b_f32s(b, 2, times);
    b_f32s(b, 6, tr);
    b_f32s(b, 6, sc);
    const int16_t rot[24] = {0, 0, 0, 0, 0, 0, 0, 32767, 0, 0, 0, 0, /* key 0: in, value, out */
                             0, 0, 0, 0, 0, 0, 23170, 23170, 0, 0, 0, 0};
    for (int i = 0; i < 24; i++) b_u16(b, (uint16_t)rot[i]);
    for (int i = 0; i < 12; i++) b_u8(b, k_png[i]);
    assert_int_equal(b->n, 368);
}

static mf_gltf *load_ok(const char *path)
{
    mf_diag d;
    mf_gltf *g = NULL;
    mf_result r = mf_gltf_load(path, &g, &d);
    if (r != MF_OK) {
        char msg[1200];
        mf_diag_format(&d, msg, sizeof msg);
        fail_msg("%s", msg);
    }
    return g;
}

/* the three containers of the fixture on disk; returns their paths */
static void write_fixture_files(const char **glb, const char **embedded, const char **external)
{
    bin b;
    fixture_bin(&b);
    char *j = with_uri(k_fixture, "");
    size_t n;
    uint8_t *g = make_glb(j, &b, &n);
    *glb = tu_tmp("fixture.glb");
    write_bytes(*glb, g, n);
    free(g);
    free(j);
    char *uri = data_uri(&b);
    j = with_uri(k_fixture, uri);
    *embedded = tu_tmp("fixture_embedded.gltf");
    write_bytes(*embedded, j, strlen(j));
    free(j);
    free(uri);
    j = with_uri(k_fixture, ",'uri':'fix%20ture.bin'"); /* percent-encoded relative path */
    *external = tu_tmp("fixture_external.gltf");
    write_bytes(*external, j, strlen(j));
    write_bytes(tu_tmp("fix ture.bin"), b.d, b.n);
    free(j);
}

static void check_fixture(const mf_gltf *g)
{
    assert_string_equal(g->generator, "hand");
    assert_int_equal(g->node_count, 3);
    assert_int_equal(g->scene_node_count, 2);
    assert_int_equal(g->nodes[2].parent, 1);
    assert_int_equal(g->nodes[1].parent, -1);
    assert_string_equal(g->nodes[2].name, "Leg");
    /* the matrix node became TRS */
    assert_float_equal(g->nodes[2].translation.y, 1, 1e-6);
    assert_float_equal(g->nodes[2].rotation.w, 1, 1e-6);
    assert_float_equal(g->nodes[2].scale.x, 1, 1e-6);
    mf_mat4 w = mf_gltf_node_world(g, 2);
    assert_float_equal(w.m[13], 1.5, 1e-6);

    const mf_gltf_primitive *p = &g->meshes[0].primitives[0];
    assert_int_equal(p->vertex_count, 3);
    assert_float_equal(p->positions[3], 1, 0);
    assert_float_equal(p->normals[8], 1, 0);
    /* normalised UNSIGNED_BYTE texcoords through a byteStride of 4 */
    assert_float_equal(p->texcoords[2], 1.0, 1e-7);
    assert_float_equal(p->texcoords[5], 128.0 / 255.0, 1e-7);
    assert_int_equal(p->joints[1], 1);
    assert_int_equal(p->joints[4], 1);
    /* normalised UNSIGNED_SHORT weights */
    assert_float_equal(p->weights[0], 1.0, 1e-7);
    assert_float_equal(p->weights[4], 32768.0 / 65535.0, 1e-7);
    assert_float_equal(p->weights[5], 32767.0 / 65535.0, 1e-7);
    assert_int_equal(p->index_count, 3);
    assert_int_equal(p->indices[2], 2);
    assert_int_equal(p->material, 0);

    assert_int_equal(g->skins[0].joint_count, 2);
    assert_int_equal(g->skins[0].skeleton, 1);
    assert_float_equal(g->skins[0].inverse_bind_matrices[16 + 13], -1.5, 0);

    const mf_gltf_material *m = &g->materials[0];
    assert_string_equal(m->name, "paint");
    assert_float_equal(m->base_color[1], 0.25, 0);
    assert_float_equal(m->roughness, 0.5, 0);
    assert_true(m->double_sided);
    assert_int_equal(m->base_color_texture, 0);
    assert_int_equal(g->textures[0].image, 0);
    assert_int_equal(g->images[0].size, 12);
    assert_memory_equal(g->images[0].data, k_png, 12);
    assert_string_equal(g->images[0].mime_type, "image/png");

    const mf_gltf_animation *a = &g->animations[0];
    assert_string_equal(a->name, "Move");
    assert_int_equal(a->channel_count, 3);
    assert_int_equal(a->channels[1].interpolation, MF_GLTF_STEP);
    assert_int_equal(a->channels[2].interpolation, MF_GLTF_CUBICSPLINE);
    /* normalised SHORT rotation keys */
    assert_float_equal(a->channels[2].values[4 + 3], 1.0, 1e-7);
    assert_float_equal(a->channels[2].values[16 + 2], 23170.0 / 32767.0, 1e-7);
}

static void test_fixture_all_containers(void **state)
{
    (void)state;
    const char *paths[3];
    write_fixture_files(&paths[0], &paths[1], &paths[2]);
    mf_gltf *g[3];
    for (int i = 0; i < 3; i++) {
        g[i] = load_ok(paths[i]);
        check_fixture(g[i]);
    }
    char why[256];
    assert_true(mf_gltf_equal(g[0], g[1], 0, why, sizeof why));
    assert_true(mf_gltf_equal(g[0], g[2], 0, why, sizeof why));
    for (int i = 0; i < 3; i++) mf_gltf_free(g[i]);
}

static void test_sampling(void **state)
{
    (void)state;
    const char *glb, *e1, *e2;
    write_fixture_files(&glb, &e1, &e2);
    mf_gltf *g = load_ok(glb);
    const mf_gltf_channel *c = g->animations[0].channels;
    float v[4];
    mf_gltf_channel_sample(&c[0], 0.25f, v); /* linear */
    assert_float_equal(v[0], 0.5, 1e-6);
    mf_gltf_channel_sample(&c[0], -1, v); /* clamped */
    assert_float_equal(v[0], 0, 0);
    mf_gltf_channel_sample(&c[0], 9, v);
    assert_float_equal(v[0], 2, 0);
    mf_gltf_channel_sample(&c[1], 0.99f, v); /* step holds the first key */
    assert_float_equal(v[0], 1, 0);
    mf_gltf_channel_sample(&c[1], 1, v);
    assert_float_equal(v[0], 2, 0);
    /* cubic with zero tangents: Hermite blend 3s²-2s³ at s = 0.5 is 0.5, then normalised */
    mf_gltf_channel_sample(&c[2], 0.5f, v);
    float z = 0.5f * 23170.0f / 32767.0f, w = 0.5f + 0.5f * 23170.0f / 32767.0f, l = sqrtf(z * z + w * w);
    assert_float_equal(v[2], z / l, 1e-6);
    assert_float_equal(v[3], w / l, 1e-6);
    mf_gltf_free(g);
}

/* ---- accessors: sparse, zero-filled, interleaved -------------------------------------------- */

static void test_sparse_and_interleaved(void **state)
{
    (void)state;
    bin b;
    memset(&b, 0, sizeof b);
    /* view 0: 4 positions interleaved with 4 normals (stride 24) */
    for (int i = 0; i < 4; i++) {
        const float pn[6] = {(float)i, 0, 0, 0, 1, 0};
        b_f32s(&b, 6, pn);
    }
    /* view 1: sparse indices (u16) 1, 3; view 2: sparse values */
    b_u16(&b, 1), b_u16(&b, 3);
    const float sv[6] = {10, 11, 12, 30, 31, 32};
    b_f32s(&b, 6, sv);
    const char *json =
        "{'asset':{'version':'2.0'},'nodes':[{'mesh':0}],"
        "'meshes':[{'primitives':[{'mode':0,'attributes':{'POSITION':0,'NORMAL':1,'TEXCOORD_0':3}}]}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':4,'type':'VEC3',"
        "'sparse':{'count':2,'indices':{'bufferView':1,'componentType':5123},'values':{'bufferView':2}}},"
        "{'bufferView':0,'byteOffset':12,'componentType':5126,'count':4,'type':'VEC3'},"
        "{'componentType':5126,'count':4,'type':'VEC3',"
        "'sparse':{'count':1,'indices':{'bufferView':1,'byteOffset':2,'componentType':5123},'values':{'bufferView':2,'byteOffset':12}}},"
        "{'componentType':5126,'count':4,'type':'VEC2'}],"
        "'bufferViews':[{'buffer':0,'byteLength':96,'byteStride':24},{'buffer':0,'byteOffset':96,'byteLength':4},"
        "{'buffer':0,'byteOffset':100,'byteLength':24}],"
        "'buffers':[{'byteLength':124@URI@}]}";
    char *j = with_uri(json, "");
    size_t n;
    uint8_t *glb = make_glb(j, &b, &n);
    mf_gltf *g = NULL;
    mf_diag d;
    assert_int_equal(mf_gltf_parse(glb, n, "sparse.glb", &g, &d), MF_OK);
    const mf_gltf_primitive *p = &g->meshes[0].primitives[0];
    const float want[12] = {0, 0, 0, 10, 11, 12, 2, 0, 0, 30, 31, 32};
    for (int i = 0; i < 12; i++) assert_float_equal(p->positions[i], want[i], 0);
    for (int i = 0; i < 4; i++) assert_float_equal(p->normals[i * 3 + 1], 1, 0);
    for (int i = 0; i < 8; i++) assert_float_equal(p->texcoords[i], 0, 0); /* no bufferView: zeros */
    assert_int_equal(p->mode, MF_GLTF_POINTS);
    mf_gltf_free(g);
    free(glb);
    free(j);
}

/* ---- writing -------------------------------------------------------------------------------- */

static bool have_assimp(void) { return tu_run("command -v assimp >/dev/null", NULL) == 0; }

static void assimp_loads(const char *path)
{
    /* scripts/setup.sh installs it: its absence is a failure, not a skip */
    if (!have_assimp()) fail_msg("assimp not on PATH: run scripts/setup.sh (Debian package assimp-utils)");
    char cmd[4200], *out = NULL;
    snprintf(cmd, sizeof cmd, "assimp info '%s'", path);
    int rc = tu_run(cmd, &out);
    if (rc != 0) fail_msg("assimp info %s exited %d:\n%s", path, rc, out ? out : "");
    free(out);
}

static void round_trip(const mf_gltf *g, const char *name)
{
    for (int glb = 0; glb < 2; glb++) {
        void *a, *b;
        size_t na, nb;
        mf_diag d;
        assert_int_equal(mf_gltf_write(g, glb, &a, &na, &d), MF_OK);
        assert_int_equal(mf_gltf_write(g, glb, &b, &nb, &d), MF_OK);
        assert_int_equal(na, nb); /* the same model gives the same bytes */
        assert_memory_equal(a, b, na);
        mf_gltf *back = NULL;
        assert_int_equal(mf_gltf_parse(a, na, glb ? "rt.glb" : "rt.gltf", &back, &d), MF_OK);
        char why[256];
        if (!mf_gltf_equal(g, back, 0, why, sizeof why)) fail_msg("%s: read(write(m)) differs: %s", name, why);
        /* and writing what was read gives the same bytes again */
        void *c;
        size_t nc;
        assert_int_equal(mf_gltf_write(back, glb, &c, &nc, &d), MF_OK);
        assert_int_equal(nc, na);
        assert_memory_equal(c, a, na);
        char file[128];
        snprintf(file, sizeof file, "%s.%s", name, glb ? "glb" : "gltf");
        assert_int_equal(mf_gltf_save(g, tu_tmp(file), &d), MF_OK);
        size_t nf;
        char *disk = tu_read(tu_tmp(file), &nf);
        assert_int_equal(nf, na);
        assert_memory_equal(disk, a, na);
        assimp_loads(tu_tmp(file));
        free(disk), free(a), free(b), free(c);
        mf_gltf_free(back);
    }
}

static void test_round_trip_fixture(void **state)
{
    (void)state;
    const char *glb, *e1, *e2;
    write_fixture_files(&glb, &e1, &e2);
    mf_gltf *g = load_ok(glb);
    round_trip(g, "fixture_rt");
    mf_gltf_free(g);
}

static void test_round_trip_mannequin(void **state)
{
    (void)state;
    mf_gltf *g;
    mf_diag d;
    assert_int_equal(mf_mannequin3d_create(MF_M3D_BLENDER, MF_M3D_APOSE, &g, &d), MF_OK);
    round_trip(g, "mannequin_rt");
    mf_gltf_free(g);
}

/* adding and replacing animations by name */
static void test_set_animation(void **state)
{
    (void)state;
    mf_gltf *g;
    mf_diag d;
    assert_int_equal(mf_mannequin3d_create(MF_M3D_MIXAMO, MF_M3D_TPOSE, &g, &d), MF_OK);
    int32_t knee = mf_gltf_find_node(g, "mixamorig:LeftLeg");
    assert_true(knee >= 0);
    float times[3] = {0, 0.5f, 1}, rot[12] = {0, 0, 0, 1, 0.5f, 0, 0, 0.8660254f, 0, 0, 0, 1};
    mf_gltf_channel ch = {knee, MF_GLTF_ROTATION, MF_GLTF_LINEAR, 3, times, rot};
    mf_gltf_animation an = {"kick", 1, &ch};
    assert_int_equal(mf_gltf_set_animation(g, &an, &d), MF_OK);
    times[1] = 0.25f; /* the model keeps its own copy */
    assert_float_equal(g->animations[0].channels[0].times[1], 0.5, 0);
    an.name = "wave";
    assert_int_equal(mf_gltf_set_animation(g, &an, &d), MF_OK);
    assert_int_equal(g->animation_count, 2);
    /* replacing "kick" keeps its place */
    float t2[2] = {0, 2}, tr[6] = {0, 1, 0, 0, 1.2f, 0};
    mf_gltf_channel hips = {mf_gltf_find_node(g, "mixamorig:Hips"), MF_GLTF_TRANSLATION, MF_GLTF_STEP, 2, t2, tr};
    mf_gltf_animation kick2 = {"kick", 1, &hips};
    assert_int_equal(mf_gltf_set_animation(g, &kick2, &d), MF_OK);
    assert_int_equal(g->animation_count, 2);
    assert_int_equal(mf_gltf_find_animation(g, "kick"), 0);
    assert_int_equal(g->animations[0].channels[0].path, MF_GLTF_TRANSLATION);
    round_trip(g, "animated_rt");
    /* a bad animation is refused with its place */
    float bad_t[2] = {1, 0.5f};
    mf_gltf_channel badc = {knee, MF_GLTF_ROTATION, MF_GLTF_LINEAR, 2, bad_t, rot};
    mf_gltf_animation bad = {"bad", 1, &badc};
    assert_int_equal(mf_gltf_set_animation(g, &bad, &d), MF_ERR_INVALID);
    char msg[1200];
    mf_diag_format(&d, msg, sizeof msg);
    assert_string_equal(msg, "animations[2].channels[0]: key 1 at 0.5 s is not after key 0 (times must increase)");
    badc.node = 999;
    assert_int_equal(mf_gltf_set_animation(g, &bad, &d), MF_ERR_INVALID);
    assert_true(mf_gltf_remove_animation(g, "kick"));
    assert_false(mf_gltf_remove_animation(g, "kick"));
    assert_int_equal(g->animation_count, 1);
    assert_string_equal(g->animations[0].name, "wave");
    mf_gltf_free(g);
}

/* ---- errors --------------------------------------------------------------------------------- */

/* parses json (with ' for ") as bad.gltf and returns the formatted message */
static mf_result parse_err(const char *json, char *msg, size_t size)
{
    char *j = q(json);
    mf_gltf *g = NULL;
    mf_diag d;
    mf_result r = mf_gltf_parse(j, strlen(j), "bad.gltf", &g, &d);
    free(j);
    if (r == MF_OK) {
        mf_gltf_free(g);
        snprintf(msg, size, "(no error)");
    } else {
        assert_null(g);
        mf_diag_format(&d, msg, size);
    }
    return r;
}

#define ASSET "'asset':{'version':'2.0'}"
/* 48 zero bytes */
#define BUF48 "'buffers':[{'byteLength':48,'uri':'data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'}]"
#define VIEW48 "'bufferViews':[{'buffer':0,'byteLength':48}]"
#define ACC(T, C, N) "{'bufferView':0,'componentType':" #C ",'count':" #N ",'type':'" #T "'}"

typedef struct err_case {
    const char *json;
    mf_result result;
    const char *message;
} err_case;

static const err_case k_errors[] = {
    {"{'asset':", MF_ERR_INVALID, "bad.gltf: line 1, column 9: malformed JSON"},
    {"[]", MF_ERR_INVALID, "bad.gltf: expected an object, got an array"},
    {"{}", MF_ERR_INVALID, "bad.gltf: missing \"asset\" (is this a glTF 2.0 file?)"},
    {"{'asset':{'version':'1.0'}}", MF_ERR_UNSUPPORTED,
     "bad.gltf: asset.version: glTF version \"1.0\" is not supported (expected \"2.0\")"},
    {"{" ASSET ",'extensionsRequired':['KHR_draco_mesh_compression']}", MF_ERR_UNSUPPORTED,
     "bad.gltf: extensionsRequired[0]: required extension \"KHR_draco_mesh_compression\" is not supported"},
    {"{" ASSET ",'buffers':[{'byteLength':4,'uri':'data:application/octet-stream;base64,AA$A'}]}", MF_ERR_INVALID,
     "bad.gltf: buffers[0].uri: data: URI holds malformed base64"},
    {"{" ASSET ",'buffers':[{'byteLength':40,'uri':'data:application/octet-stream;base64,AAAA'}]}", MF_ERR_INVALID,
     "bad.gltf: buffers[0].byteLength: is 40 but the data holds only 3 bytes"},
    {"{" ASSET ",'buffers':[{'byteLength':4,'uri':'http://example.com/a.bin'}]}", MF_ERR_UNSUPPORTED,
     "bad.gltf: buffers[0].uri: URI \"http://example.com/a.bin\" has a scheme; only relative paths and data: URIs are read"},
    {"{" ASSET ",'buffers':[{'byteLength':4,'uri':'missing.bin'}]}", MF_ERR_IO, NULL},
    {"{" ASSET "," BUF48 ",'bufferViews':[{'buffer':0,'byteOffset':40,'byteLength':12}]}", MF_ERR_INVALID,
     "bad.gltf: bufferViews[0].byteLength: bytes 40..52 run past the end of buffer 0 (48 bytes)"},
    {"{" ASSET "," BUF48 ",'bufferViews':[{'buffer':1,'byteLength':12}]}", MF_ERR_INVALID,
     "bad.gltf: bufferViews[0].buffer: buffer 1 out of range (1 buffers)"},
    {"{" ASSET "," BUF48 ",'bufferViews':[{'buffer':0,'byteLength':48,'byteStride':6}]}", MF_ERR_INVALID,
     "bad.gltf: bufferViews[0].byteStride: must be a multiple of 4 from 4 to 252, got 6"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[" ACC(VEC3, 5126, 5) "]}", MF_ERR_INVALID,
     "bad.gltf: accessors[0].count: the accessor ends at byte 60 of bufferView 0, which has 48 bytes"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[{'bufferView':0,'byteOffset':40,'componentType':5126,'count':1,'type':'VEC3'}]}",
     MF_ERR_INVALID, "bad.gltf: accessors[0].count: the accessor ends at byte 52 of bufferView 0, which has 48 bytes"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[" ACC(VEC33, 5126, 1) "]}", MF_ERR_INVALID,
     "bad.gltf: accessors[0].type: unknown accessor type \"VEC33\" (did you mean \"VEC3\"?)"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[" ACC(VEC3, 5127, 1) "]}", MF_ERR_INVALID,
     "bad.gltf: accessors[0].componentType: unknown component type 5127 (expected 5120, 5121, 5122, 5123, 5125 or 5126)"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[" ACC(VEC3, 5126, 0) "]}", MF_ERR_INVALID,
     "bad.gltf: accessors[0].count: must be at least 1, got 0"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[{'bufferView':0,'componentType':5126,'normalized':true,'count':1,'type':'VEC3'}]}",
     MF_ERR_INVALID, "bad.gltf: accessors[0].normalized: FLOAT components cannot be normalized"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[{'bufferView':0,'byteOffset':2,'componentType':5126,'count':1,'type':'SCALAR'}]}",
     MF_ERR_INVALID, "bad.gltf: accessors[0].byteOffset: data is not aligned to its 4-byte components"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[{'bufferView':0,'componentType':5126,'count':4,'type':'SCALAR',"
     "'sparse':{'count':2,'indices':{'bufferView':0,'componentType':5121},'values':{'bufferView':0}}}]}",
     MF_ERR_INVALID, "bad.gltf: accessors[0].sparse.indices: index 1 is 0, not greater than the one before (0)"},
    {"{" ASSET ",'nodes':[{'children':[1]},{'children':[0]}]}", MF_ERR_INVALID,
     "bad.gltf: nodes[1].children[0]: node 0 is its own ancestor (the node tree has a cycle)"},
    {"{" ASSET ",'nodes':[{'children':[1]},{'children':[2]},{'children':[1]}]}", MF_ERR_INVALID,
     "bad.gltf: nodes[2].children[0]: node 1 already has parent 0 (a node has at most one parent)"},
    {"{" ASSET ",'nodes':[{'children':[0]}]}", MF_ERR_INVALID,
     "bad.gltf: nodes[0].children[0]: node 0 lists itself as a child"},
    {"{" ASSET ",'nodes':[{},{'children':[0,3]}]}", MF_ERR_INVALID,
     "bad.gltf: nodes[1].children[1]: node 3 out of range (2 nodes)"},
    {"{" ASSET ",'nodes':[{'matrix':[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],'scale':[1,1,1]}]}", MF_ERR_INVALID,
     "bad.gltf: nodes[0].matrix: given together with scale (use one or the other)"},
    {"{" ASSET ",'nodes':[{'matrix':[1,0,0,0,1,1,0,0,0,0,1,0,0,0,0,1]}]}", MF_ERR_INVALID,
     "bad.gltf: nodes[0].matrix: not decomposable into translation, rotation and scale (it has shear)"},
    {"{" ASSET ",'nodes':[{'rotation':[0,0,0,2]}]}", MF_ERR_INVALID,
     "bad.gltf: nodes[0].rotation: not a unit quaternion (length 2)"},
    {"{" ASSET ",'nodes':[{'translation':[0,1]}]}", MF_ERR_INVALID, "bad.gltf: nodes[0].translation: expected 3 numbers, got 2"},
    {"{" ASSET ",'nodes':[{'mesh':0}]}", MF_ERR_INVALID, "bad.gltf: nodes[0].mesh: mesh 0 does not exist (the file has no meshs)"},
    {"{" ASSET ",'nodes':[{}],'skins':[{'joints':[0,1]}]}", MF_ERR_INVALID,
     "bad.gltf: skins[0].joints[1]: node 1 out of range (1 nodes)"},
    {"{" ASSET ",'nodes':[{},{}],'skins':[{'joints':[1,1]}]}", MF_ERR_INVALID,
     "bad.gltf: skins[0].joints[1]: node 1 is already joint 0"},
    {"{" ASSET ",'nodes':[{},{}],'skins':[{'joints':[1],'skeleton':0}]}", MF_ERR_INVALID,
     "bad.gltf: skins[0].joints[0]: node 1 is not under the skin's skeleton node 0"},
    {"{" ASSET ",'nodes':[{}],'skins':[{}]}", MF_ERR_INVALID, "bad.gltf: skins[0]: missing \"joints\""},
    {"{" ASSET ",'scenes':[{'nodes':[1]}],'nodes':[{'children':[1]},{}]}", MF_ERR_INVALID,
     "bad.gltf: scenes[0].nodes[0]: node 1 is not a root (its parent is node 0)"},
    {"{" ASSET ",'scene':1,'scenes':[{}]}", MF_ERR_INVALID, "bad.gltf: scene: scene 1 out of range (1 scenes)"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[" ACC(VEC2, 5126, 3) "],'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]}",
     MF_ERR_INVALID, "bad.gltf: meshes[0].primitives[0].attributes.POSITION: accessor 0 is VEC2, expected VEC3"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[" ACC(VEC4, 5126, 3) "],'meshes':[{'primitives':[{'attributes':{'JOINTS_0':0,'WEIGHTS_0':0}}]}]}",
     MF_ERR_INVALID,
     "bad.gltf: meshes[0].primitives[0].attributes.JOINTS_0: accessor 0 has FLOAT components, expected UNSIGNED_BYTE, UNSIGNED_SHORT"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[" ACC(VEC3, 5126, 3) "," ACC(VEC3, 5126, 2) "],"
     "'meshes':[{'primitives':[{'attributes':{'POSITION':0,'NORMAL':1}}]}]}",
     MF_ERR_INVALID,
     "bad.gltf: meshes[0].primitives[0].attributes.NORMAL: accessor 1 has 2 elements but POSITION has 3 (attributes must have the same count)"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[" ACC(VEC3, 5126, 3) "],'meshes':[{'primitives':[{'attributes':{'POSITION':0},'indices':3}]}]}",
     MF_ERR_INVALID, "bad.gltf: meshes[0].primitives[0].indices: accessor 3 out of range (1 accessors)"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[" ACC(VEC3, 5126, 2) "],'meshes':[{'primitives':[{'attributes':{'POSITION':0}}]}]}",
     MF_ERR_INVALID, "bad.gltf: meshes[0].primitives[0]: 2 vertices do not make whole triangles"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[" ACC(VEC3, 5126, 3) "],'meshes':[{'primitives':[{'attributes':{'POSITON':0}}]}]}",
     MF_ERR_INVALID,
     "bad.gltf: meshes[0].primitives[0].attributes.POSITON: unknown attribute \"POSITON\" (did you mean \"POSITION\"?) (custom ones start with '_')"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'accessors':[" ACC(VEC3, 5126, 3) "],'meshes':[{'primitives':[{'attributes':{'COLOR_0':0,'_TEMP':0}}]}]}",
     MF_ERR_UNSUPPORTED,
     "bad.gltf: meshes[0].primitives[0].attributes: no POSITION (primitives without positions are not supported)"},
    {"{" ASSET ",'meshes':[{'primitives':[]}]}", MF_ERR_INVALID,
     "bad.gltf: meshes[0].primitives: empty (a mesh needs at least one primitive)"},
    {"{" ASSET ",'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':'rotation'}}],"
     "'samplers':[{'input':0,'output':0}]}]}", MF_ERR_INVALID,
     "bad.gltf: animations[0].samplers[0].input: accessor 0 does not exist (the file has no accessors)"},
    {"{" ASSET "," BUF48 "," VIEW48 ",'nodes':[{}],'accessors':[" ACC(SCALAR, 5126, 2) "],"
     "'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':'rotation'}}],'samplers':[{'input':0,'output':0}]}]}",
     MF_ERR_INVALID, "bad.gltf: animations[0].samplers[0].input: key 1 at 0 s is not after key 0 at 0 s (times must increase)"},
    {"{" ASSET ",'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':'rotaton'}}],'samplers':[]}]}",
     MF_ERR_INVALID, "bad.gltf: animations[0].samplers: empty (an animation needs at least one sampler)"},
    {"{" ASSET ",'materials':[{'pbrMetallicRoughness':{'baseColorFactor':[1,2,1,1]}}]}", MF_ERR_INVALID,
     "bad.gltf: materials[0].pbrMetallicRoughness.baseColorFactor[1]: must be from 0 to 1, got 2"},
    {"{" ASSET ",'materials':[{'pbrMetallicRoughness':{'baseColorTexture':{'index':0}}}]}", MF_ERR_INVALID,
     "bad.gltf: materials[0].pbrMetallicRoughness.baseColorTexture.index: texture 0 does not exist (the file has no textures)"},
    {"{" ASSET ",'images':[{'uri':'a.png','bufferView':0}]}", MF_ERR_INVALID,
     "bad.gltf: images[0].bufferView: bufferView 0 does not exist (the file has no bufferViews)"},
};

static void test_errors(void **state)
{
    (void)state;
    char msg[1200];
    for (size_t i = 0; i < sizeof k_errors / sizeof k_errors[0]; i++) {
        const err_case *c = &k_errors[i];
        mf_result r = parse_err(c->json, msg, sizeof msg);
        if (r != c->result) fail_msg("case %zu: result %s, expected %s (%s)", i, mf_result_name(r), mf_result_name(c->result), msg);
        if (c->message && strcmp(msg, c->message) != 0) fail_msg("case %zu:\n got  %s\n want %s", i, msg, c->message);
    }
}

/* errors that need binary data: indices, joints, the animation channel rules */
static void test_errors_with_data(void **state)
{
    (void)state;
    bin b;
    memset(&b, 0, sizeof b);
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    b_f32s(&b, 9, pos);                      /* 0..36 */
    b_u8(&b, 0), b_u8(&b, 1), b_u8(&b, 3), b_u8(&b, 0); /* 36..40 indices, one out of range */
    for (int i = 0; i < 3; i++) b_u8(&b, 0), b_u8(&b, 5), b_u8(&b, 0), b_u8(&b, 0); /* 40..52 joints */
    const float times[2] = {0, 1}, quats[8] = {0, 0, 0, 1, 0, 0, 0, 3};
    b_f32s(&b, 2, times); /* 52..60 */
    b_f32s(&b, 8, quats); /* 60..92 */
    for (int i = 0; i < 3; i++) b_f32(&b, 1), b_f32(&b, 0), b_f32(&b, 0), b_f32(&b, 0); /* 92..140 weights */
    const char *base =
        "{'asset':{'version':'2.0'},"
        "'bufferViews':[{'buffer':0,'byteLength':36},{'buffer':0,'byteOffset':36,'byteLength':3},"
        "{'buffer':0,'byteOffset':40,'byteLength':12},{'buffer':0,'byteOffset':52,'byteLength':8},"
        "{'buffer':0,'byteOffset':60,'byteLength':32},{'buffer':0,'byteOffset':92,'byteLength':48}],"
        "'accessors':[{'bufferView':0,'componentType':5126,'count':3,'type':'VEC3'},"
        "{'bufferView':1,'componentType':5121,'count':3,'type':'SCALAR'},"
        "{'bufferView':2,'componentType':5121,'count':3,'type':'VEC4'},"
        "{'bufferView':5,'componentType':5126,'count':3,'type':'VEC4'},"
        "{'bufferView':3,'componentType':5126,'count':2,'type':'SCALAR'},"
        "{'bufferView':4,'componentType':5126,'count':2,'type':'VEC4'},"
        "{'bufferView':0,'componentType':5126,'count':2,'type':'VEC3'}],"
        "'buffers':[{'byteLength':140}],%s}";
    static const struct { const char *rest, *message; } cases[] = {
        {"'meshes':[{'primitives':[{'attributes':{'POSITION':0},'indices':1}]}]",
         "bad.glb: meshes[0].primitives[0].indices: index 2 is 3, past the 3 vertices"},
        {"'meshes':[{'primitives':[{'attributes':{'POSITION':0,'JOINTS_0':2,'WEIGHTS_0':3}}]}],"
         "'nodes':[{'mesh':0,'skin':0},{}],'skins':[{'joints':[1]}]",
         "bad.glb: nodes[0].skin: mesh 0 primitive 0 vertex 0 uses joint 5 but skin 0 has 1 joints"},
        {"'meshes':[{'primitives':[{'attributes':{'POSITION':0,'JOINTS_0':2}}]}]",
         "bad.glb: meshes[0].primitives[0].attributes: JOINTS_0 and WEIGHTS_0 must be given together"},
        {"'nodes':[{'skin':0}],'skins':[{'joints':[0]}]", "bad.glb: nodes[0].skin: a node with a skin needs a mesh"},
        {"'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':'rotation'}}],"
         "'samplers':[{'input':4,'output':5}]}]",
         "bad.glb: animations[0].channels[0].sampler: sampler 0 output key 1 is not a unit quaternion (length 3)"},
        {"'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':'translation'}}],"
         "'samplers':[{'input':4,'output':5}]}]",
         "bad.glb: animations[0].channels[0].sampler: accessor 5 is VEC4, expected VEC3"},
        {"'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':'rotaton'}}],"
         "'samplers':[{'input':4,'output':5}]}]",
         "bad.glb: animations[0].channels[0].target.path: unknown path \"rotaton\" (did you mean \"rotation\"?)"},
        {"'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':'translation'}}],"
         "'samplers':[{'input':4,'output':5,'interpolation':'LINEER'}]}]",
         "bad.glb: animations[0].samplers[0].interpolation: unknown interpolation \"LINEER\" (did you mean \"LINEAR\"?)"},
        {"'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':'rotation'}}],"
         "'samplers':[{'input':4,'output':0,'interpolation':'CUBICSPLINE'}]}]",
         "bad.glb: animations[0].samplers[0].output: accessor 0 has 3 elements, expected 6 for 2 CUBICSPLINE keys"},
        {"'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':'scale'}},"
         "{'sampler':1,'target':{'node':0,'path':'scale'}}],"
         "'samplers':[{'input':4,'output':0},{'input':4,'output':0}]}]",
         "bad.glb: animations[0].samplers[0].output: accessor 0 has 3 elements, expected 2 for 2 LINEAR keys"},
        {"'nodes':[{}],'animations':[{'channels':[{'sampler':0,'target':{'node':0,'path':'scale'}},"
         "{'sampler':1,'target':{'node':0,'path':'scale'}}],"
         "'samplers':[{'input':4,'output':6},{'input':4,'output':6,'interpolation':'STEP'}]}]",
         "bad.glb: animations[0].channels[1]: channel 0 already animates the scale of node 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *tmpl = q(base), *rest = q(cases[i].rest);
        char *json = malloc(strlen(tmpl) + strlen(rest) + 1);
        sprintf(json, tmpl, rest);
        size_t n;
        uint8_t *glb = make_glb(json, &b, &n);
        mf_gltf *g = NULL;
        mf_diag d;
        char msg[1200];
        mf_result r = mf_gltf_parse(glb, n, "bad.glb", &g, &d);
        mf_diag_format(&d, msg, sizeof msg);
        if (r != MF_ERR_INVALID) fail_msg("case %zu: %s (%s)", i, mf_result_name(r), msg);
        assert_null(g);
        if (strcmp(msg, cases[i].message) != 0) fail_msg("case %zu:\n got  %s\n want %s", i, msg, cases[i].message);
        free(glb), free(json), free(tmpl), free(rest);
    }
}

/* the GLB container: magic, version, lengths, chunk order */
static void test_glb_errors(void **state)
{
    (void)state;
    const char *json = "{\"asset\":{\"version\":\"2.0\"}}";
    bin b = {{1, 2, 3, 4}, 4};
    size_t n;
    uint8_t *good = make_glb(json, &b, &n);
    mf_gltf *g = NULL;
    mf_diag d;
    assert_int_equal(mf_gltf_parse(good, n, "ok.glb", &g, &d), MF_OK);
    mf_gltf_free(g);
    struct {
        size_t offset;
        uint32_t value;
        size_t size;          /* 0: n */
        mf_result result;
        const char *message;
    } cases[] = {
        {0, 0x46546C68u, 0, MF_ERR_INVALID, "x.glb: GLB header at offset 0: bad magic 0x46546c68 (expected 0x46546c67, \"glTF\")"},
        {4, 1, 0, MF_ERR_UNSUPPORTED, "x.glb: GLB header at offset 4: GLB version 1 is not supported (expected 2)"},
        {8, 999, 0, MF_ERR_INVALID, "x.glb: GLB header at offset 8: length 999 does not match the file size 60"},
        {12, 400, 0, MF_ERR_INVALID, "x.glb: GLB chunk 0 at offset 12: chunk length 400 runs past the end of the file (40 bytes left)"},
        {12, 30, 0, MF_ERR_INVALID, "x.glb: GLB chunk 0 at offset 12: chunk length 30 is not a multiple of 4"},
        {16, 0x004E4942u, 0, MF_ERR_INVALID, "x.glb: GLB chunk 0 at offset 12: the first chunk must be JSON"},
        {8, 58, 58, MF_ERR_INVALID, "x.glb: GLB chunk 1 at offset 48: chunk length 4 runs past the end of the file (2 bytes left)"},
        {0, 0, 10, MF_ERR_INVALID, "x.glb: GLB header: the file has 10 bytes, a GLB header needs 12"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *copy = malloc(n);
        memcpy(copy, good, n);
        if (cases[i].value) memcpy(copy + cases[i].offset, &cases[i].value, 4);
        size_t size = cases[i].size ? cases[i].size : n;
        char msg[1200];
        mf_result r = mf_gltf_parse(copy, size, "x.glb", &g, &d);
        mf_diag_format(&d, msg, sizeof msg);
        if (r != cases[i].result) fail_msg("case %zu: %s (%s)", i, mf_result_name(r), msg);
        if (strcmp(msg, cases[i].message) != 0) fail_msg("case %zu:\n got  %s\n want %s", i, msg, cases[i].message);
        free(copy);
    }
    free(good);
}

/* the writer validates models a caller built */
static void test_write_rejects_bad_model(void **state)
{
    (void)state;
    mf_gltf *g;
    mf_diag d;
    assert_int_equal(mf_mannequin3d_create(MF_M3D_UNREAL, MF_M3D_TPOSE, &g, &d), MF_OK);
    g->nodes[3].children[0] = 1; /* node 1 gets a second parent */
    void *bytes;
    size_t n;
    assert_int_equal(mf_gltf_write(g, true, &bytes, &n, &d), MF_ERR_INVALID);
    char msg[1200];
    mf_diag_format(&d, msg, sizeof msg);
    assert_contains(msg, "nodes[");
    assert_contains(msg, "children");
    mf_gltf_free(g);
    assert_int_equal(mf_mannequin3d_create(MF_M3D_UNREAL, MF_M3D_TPOSE, &g, &d), MF_OK);
    g->meshes[0].primitives[0].indices[5] = 100000;
    assert_int_equal(mf_gltf_save(g, tu_tmp("never.glb"), &d), MF_ERR_INVALID);
    mf_diag_format(&d, msg, sizeof msg);
    assert_contains(msg, "never.glb: meshes[0].primitives[0]: index 5 is 100000, past the 720 vertices");
    assert_null(tu_read(tu_tmp("never.glb"), NULL));
    mf_gltf_free(g);
}

/* ---- the shared corpus --------------------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void test_corpus(void **state)
{
    (void)state;
    const char *shared = tu_shared();
    char path[4200];
    if (!shared) {
        print_message("skipped: the shared humanoid corpus is absent\n");
        skip();
    }
    snprintf(path, sizeof path, "%s/humanoid-corpus/cmu-01_01.glb", shared);
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_message("skipped: %s is absent\n", path);
        skip();
    }
    fclose(f);
    double t0 = now();
    mf_gltf *g = load_ok(path);
    print_message("cmu-01_01.glb loaded in %.2f ms\n", (now() - t0) * 1e3);
    assert_int_equal(g->node_count, 38);
    assert_int_equal(g->skin_count, 1);
    assert_int_equal(g->animation_count, 1);
    assert_int_equal(g->animations[0].channel_count, 93);
    int32_t hips = mf_gltf_find_node(g, "Hips"), leg = mf_gltf_find_node(g, "LeftUpLeg");
    assert_true(hips >= 0 && leg >= 0);
    assert_int_equal(g->nodes[g->nodes[leg].parent].parent, hips);
    /* every channel samples to finite values */
    for (int32_t c = 0; c < g->animations[0].channel_count; c++) {
        float v[4];
        mf_gltf_channel_sample(&g->animations[0].channels[c], 1.0f, v);
        for (int k = 0; k < mf_gltf_path_components(g->animations[0].channels[c].path); k++) assert_true(isfinite(v[k]));
    }
    round_trip(g, "cmu_rt");
    mf_gltf_free(g);

    snprintf(path, sizeof path, "%s/humanoid-corpus/human-static.glb", shared);
    g = load_ok(path);
    assert_int_equal(g->mesh_count, 1);
    assert_int_equal(g->skin_count, 0);
    assert_true(g->meshes[0].primitives[0].vertex_count > 2000);
    round_trip(g, "human_rt");
    mf_gltf_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_all_containers),
        cmocka_unit_test(test_sampling),
        cmocka_unit_test(test_sparse_and_interleaved),
        cmocka_unit_test(test_round_trip_fixture),
        cmocka_unit_test(test_round_trip_mannequin),
        cmocka_unit_test(test_set_animation),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_errors_with_data),
        cmocka_unit_test(test_glb_errors),
        cmocka_unit_test(test_write_rejects_bad_model),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
