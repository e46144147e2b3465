/* glTF reader, animations: samplers are checked once and folded into the channels that use
 * them (channels share the decoded key arrays). Morph-weight channels are checked and dropped. */
#include <math.h>
#include <string.h>

#include "gltf_read.h"
#include "util/suggest.h"

typedef struct rd_sampler {
    int32_t input, output;
    mf_gltf_interp interp;
    int32_t keys;
} rd_sampler;

static bool rd_sampler_parse(gltf_reader *r, rd_sampler *s, const cJSON *o)
{
    static const char *const k_interp[] = {"LINEAR", "STEP", "CUBICSPLINE", NULL};
    static const char *const k_scalar[] = {"SCALAR", NULL};
    static const int32_t k_float[] = {GL_FLOAT, 0};
    if (!mf_jr_expect_object(&r->jr, o)) return false;
    if (!cJSON_GetObjectItemCaseSensitive(o, "input")) return mf_jr_fail(&r->jr, "missing \"input\"");
    if (!cJSON_GetObjectItemCaseSensitive(o, "output")) return mf_jr_fail(&r->jr, "missing \"output\"");
    if (!rd_index(r, o, "input", r->accessor_count, "accessor", &s->input) ||
        !rd_index(r, o, "output", r->accessor_count, "accessor", &s->output))
        return false;
    s->interp = MF_GLTF_LINEAR;
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, "interpolation");
    if (it) {
        if (!cJSON_IsString(it))
            return mf_jr_fail_at(&r->jr, "interpolation", "expected a string, got %s", mf_jr_type_name(it));
        int k = 0;
        while (k_interp[k] && strcmp(k_interp[k], it->valuestring) != 0) k++;
        if (!k_interp[k]) {
            char sfx[128];
            mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(it->valuestring, k_interp));
            return mf_jr_fail_at(&r->jr, "interpolation", "unknown interpolation \"%.40s\"%s", it->valuestring, sfx);
        }
        s->interp = (mf_gltf_interp)k;
    }
    size_t m = mf_jr_key(&r->jr, "input");
    if (!rd_accessor_is(r, s->input, k_scalar, k_float, -1)) return false;
    const float *t = rd_accessor_f32(r, s->input);
    if (!t) return false;
    s->keys = r->acc[s->input].count;
    if (t[0] < 0) return mf_jr_fail(&r->jr, "the first key time is %g (times must not be negative)", (double)t[0]);
    for (int32_t i = 1; i < s->keys; i++)
        if (!(t[i] > t[i - 1]))
            return mf_jr_fail(&r->jr, "key %d at %g s is not after key %d at %g s (times must increase)", (int)i,
                              (double)t[i], (int)i - 1, (double)t[i - 1]);
    mf_jr_pop(&r->jr, m);
    if (s->interp == MF_GLTF_CUBICSPLINE && s->keys < 2)
        return mf_jr_fail_at(&r->jr, "interpolation", "CUBICSPLINE needs at least 2 keys, the input has %d", (int)s->keys);
    int32_t want = s->interp == MF_GLTF_CUBICSPLINE ? s->keys * 3 : s->keys;
    if (r->acc[s->output].count != want)
        return mf_jr_fail_at(&r->jr, "output", "accessor %d has %d elements, expected %d for %d %s keys", (int)s->output,
                             (int)r->acc[s->output].count, (int)want, (int)s->keys, k_interp[s->interp]);
    return true;
}

static bool rd_channel(gltf_reader *r, mf_gltf_channel *c, bool *keep, const cJSON *o, const rd_sampler *samplers,
                       int32_t sampler_count)
{
    static const char *const k_paths[] = {"translation", "rotation", "scale", "weights", NULL};
    static const char *const k_vec3[] = {"VEC3", NULL}, *const k_vec4[] = {"VEC4", NULL};
    static const char *const k_scalar[] = {"SCALAR", NULL};
    static const int32_t k_float[] = {GL_FLOAT, 0};
    static const int32_t k_rot[] = {GL_FLOAT, GL_BYTE, GL_UNSIGNED_BYTE, GL_SHORT, GL_UNSIGNED_SHORT, 0};
    *keep = false;
    if (!mf_jr_expect_object(&r->jr, o)) return false;
    int32_t si;
    if (!cJSON_GetObjectItemCaseSensitive(o, "sampler")) return mf_jr_fail(&r->jr, "missing \"sampler\"");
    if (!rd_index(r, o, "sampler", sampler_count, "sampler", &si)) return false;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "target");
    if (!t) return mf_jr_fail(&r->jr, "missing \"target\"");
    size_t m = mf_jr_key(&r->jr, "target");
    if (!mf_jr_expect_object(&r->jr, t)) return false;
    int32_t node;
    if (!rd_index(r, t, "node", r->g->node_count, "node", &node)) return false;
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(t, "path");
    if (!p) return mf_jr_fail(&r->jr, "missing \"path\"");
    if (!cJSON_IsString(p)) return mf_jr_fail_at(&r->jr, "path", "expected a string, got %s", mf_jr_type_name(p));
    int k = 0;
    while (k_paths[k] && strcmp(k_paths[k], p->valuestring) != 0) k++;
    if (!k_paths[k]) {
        char sfx[128];
        mf_suggest_suffix(sfx, sizeof sfx, mf_suggest_list(p->valuestring, k_paths));
        return mf_jr_fail_at(&r->jr, "path", "unknown path \"%.40s\"%s", p->valuestring, sfx);
    }
    mf_jr_pop(&r->jr, m);
    const rd_sampler *s = &samplers[si];
    m = mf_jr_key(&r->jr, "sampler");
    char what[32];
    snprintf(what, sizeof what, "sampler %d output", (int)si);
    if (k == 3) { /* weights: not kept, but the output must at least be scalars */
        if (!rd_accessor_is(r, s->output, k_scalar, k_rot, 1)) return false;
        mf_jr_pop(&r->jr, m);
        return true;
    }
    if (k == 1 ? !rd_accessor_is(r, s->output, k_vec4, k_rot, 1) : !rd_accessor_is(r, s->output, k_vec3, k_float, -1))
        return false;
    const float *values = rd_accessor_f32(r, s->output);
    if (!values) return false;
    if (k == 1) { /* rotation keys (not cubic tangents) must be unit quaternions */
        int stride = s->interp == MF_GLTF_CUBICSPLINE ? 3 : 1, first = s->interp == MF_GLTF_CUBICSPLINE ? 1 : 0;
        for (int32_t i = 0; i < s->keys; i++) {
            const float *q = values + ((size_t)i * (size_t)stride + (size_t)first) * 4;
            float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            if (fabsf(len - 1) > 0.05f)
                return mf_jr_fail(&r->jr, "%s key %d is not a unit quaternion (length %g)", what, (int)i, (double)len);
        }
    }
    mf_jr_pop(&r->jr, m);
    if (node < 0) return true; /* no target node: the channel animates nothing this reader knows */
    c->node = node;
    c->path = (mf_gltf_path)k;
    c->interpolation = s->interp;
    c->key_count = s->keys;
    c->times = (float *)rd_accessor_f32(r, s->input);
    c->values = (float *)values;
    *keep = true;
    return true;
}

static bool rd_animation(gltf_reader *r, mf_gltf_animation *an, const cJSON *o)
{
    if (!mf_jr_expect_object(&r->jr, o) || !rd_name(r, o, &an->name)) return false;
    const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(o, "samplers");
    const cJSON *channels = cJSON_GetObjectItemCaseSensitive(o, "channels");
    if (!channels) return mf_jr_fail(&r->jr, "missing \"channels\"");
    if (!samplers) return mf_jr_fail(&r->jr, "missing \"samplers\"");
    size_t m = mf_jr_key(&r->jr, "samplers");
    if (!mf_jr_expect_array(&r->jr, samplers)) return false;
    int32_t ns = cJSON_GetArraySize(samplers);
    if (ns < 1) return mf_jr_fail(&r->jr, "empty (an animation needs at least one sampler)");
    rd_sampler *sv = mf_arena_alloc(r->a, (size_t)ns * sizeof *sv);
    if (!sv) return rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
    int i = 0;
    for (const cJSON *s = samplers->child; s; s = s->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        if (!rd_sampler_parse(r, &sv[i], s)) return false;
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    m = mf_jr_key(&r->jr, "channels");
    if (!mf_jr_expect_array(&r->jr, channels)) return false;
    int32_t nc = cJSON_GetArraySize(channels);
    if (nc < 1) return mf_jr_fail(&r->jr, "empty (an animation needs at least one channel)");
    an->channels = mf_arena_alloc(r->a, (size_t)nc * sizeof *an->channels);
    if (!an->channels) return rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
    /* one mark per node and path for the duplicate-target check */
    int32_t *seen = r->mark;
    for (int32_t k = 0; k < r->g->node_count * 3; k++) seen[k] = -1;
    i = 0;
    for (const cJSON *c = channels->child; c; c = c->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        bool keep;
        mf_gltf_channel *ch = &an->channels[an->channel_count];
        if (!rd_channel(r, ch, &keep, c, sv, ns)) return false;
        if (keep) {
            int32_t slot = ch->node * 3 + (int32_t)ch->path;
            if (seen[slot] >= 0)
                return mf_jr_fail(&r->jr, "channel %d already animates the %s of node %d", (int)seen[slot],
                                  ch->path == MF_GLTF_TRANSLATION ? "translation" : ch->path == MF_GLTF_ROTATION ? "rotation" : "scale",
                                  (int)ch->node);
            seen[slot] = i;
            an->channel_count++;
        }
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    return true;
}

bool rd_animations(gltf_reader *r, const cJSON *root)
{
    mf_gltf *g = r->g;
    const cJSON *arr;
    if (!rd_array(r, root, "animations", &arr)) return false;
    int32_t n = arr ? cJSON_GetArraySize(arr) : 0;
    g->animations = mf_arena_alloc(r->a, (size_t)n * sizeof *g->animations);
    if (!g->animations) return rd_fail_kind(r, MF_ERR_NOMEM, "out of memory");
    size_t m = mf_jr_key(&r->jr, "animations");
    int i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        size_t mi = mf_jr_index(&r->jr, i);
        mf_gltf_animation *an = &g->animations[g->animation_count];
        if (!rd_animation(r, an, o)) return false;
        if (an->channel_count > 0) g->animation_count++; /* only morph-weight channels: dropped */
        else memset(an, 0, sizeof *an);
        mf_jr_pop(&r->jr, mi);
    }
    mf_jr_pop(&r->jr, m);
    return true;
}
