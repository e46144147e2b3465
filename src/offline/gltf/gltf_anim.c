/* Animations on a typed model: sampling a channel, adding or replacing an animation. */
#include <math.h>
#include <string.h>

#include "gltf_internal.h"

int mf_gltf_path_components(mf_gltf_path path) { return path == MF_GLTF_ROTATION ? 4 : 3; }

/* the key value (not a tangent) of key k */
static const float *key_value(const mf_gltf_channel *c, int32_t k, int n)
{
    if (c->interpolation == MF_GLTF_CUBICSPLINE) return c->values + ((size_t)k * 3 + 1) * (size_t)n;
    return c->values + (size_t)k * (size_t)n;
}

static void normalize4(float *q)
{
    float l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (l > 0)
        for (int i = 0; i < 4; i++) q[i] /= l;
    else
        q[0] = q[1] = q[2] = 0, q[3] = 1;
}

void mf_gltf_channel_sample(const mf_gltf_channel *c, float t, float *out)
{
    int n = mf_gltf_path_components(c->path);
    if (!c->key_count || !c->times || !c->values) {
        for (int i = 0; i < n; i++) out[i] = (c->path == MF_GLTF_SCALE || (n == 4 && i == 3)) ? 1.0f : 0.0f;
        return;
    }
    int32_t last = c->key_count - 1;
    if (!(t > c->times[0]) || last == 0) {
        memcpy(out, key_value(c, 0, n), (size_t)n * sizeof *out);
    } else if (t >= c->times[last]) {
        memcpy(out, key_value(c, last, n), (size_t)n * sizeof *out);
    } else {
        int32_t lo = 0, hi = last; /* times[lo] <= t < times[hi] */
        while (hi - lo > 1) {
            int32_t mid = lo + (hi - lo) / 2;
            if (c->times[mid] <= t) lo = mid;
            else hi = mid;
        }
        float td = c->times[hi] - c->times[lo], s = (t - c->times[lo]) / td;
        const float *a = key_value(c, lo, n), *b = key_value(c, hi, n);
        if (c->interpolation == MF_GLTF_STEP) {
            memcpy(out, a, (size_t)n * sizeof *out);
        } else if (c->interpolation == MF_GLTF_CUBICSPLINE) {
            const float *out_tan = a + n, *in_tan = b - n; /* (in, value, out) per key */
            float s2 = s * s, s3 = s2 * s;
            float h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
            for (int i = 0; i < n; i++) out[i] = h00 * a[i] + h10 * td * out_tan[i] + h01 * b[i] + h11 * td * in_tan[i];
        } else if (c->path == MF_GLTF_ROTATION) {
            mf_quat q = mf_quat_slerp((mf_quat){a[0], a[1], a[2], a[3]}, (mf_quat){b[0], b[1], b[2], b[3]}, s);
            out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
        } else {
            for (int i = 0; i < n; i++) out[i] = a[i] + (b[i] - a[i]) * s;
        }
    }
    if (c->path == MF_GLTF_ROTATION) normalize4(out);
}

static void *copy_into(mf_gltf *g, const void *src, size_t size)
{
    void *p = mf_gltf_alloc(g, size);
    if (p && size) memcpy(p, src, size);
    return p;
}

mf_result mf_gltf_set_animation(mf_gltf *g, const mf_gltf_animation *anim, mf_diag *diag)
{
    mf_diag_clear(diag);
    if (!g || !anim) {
        mf_diag_set(diag, "", "", "mf_gltf_set_animation: NULL argument");
        return MF_ERR_ARGUMENT;
    }
    int32_t slot = anim->name ? mf_gltf_find_animation(g, anim->name) : -1;
    int32_t index = slot >= 0 ? slot : g->animation_count;
    mf_gltf_problem p;
    if (!mf_gltf__check_animation(g, anim, index, &p)) {
        mf_diag_set(diag, "", p.where, "%s", p.message);
        return MF_ERR_INVALID;
    }
    mf_gltf_animation copy = {0};
    copy.name = mf_gltf_strdup(g, anim->name);
    copy.channel_count = anim->channel_count;
    copy.channels = mf_gltf_alloc(g, (size_t)anim->channel_count * sizeof *copy.channels);
    bool oom = !copy.channels || (anim->name && !copy.name);
    for (int32_t i = 0; !oom && i < anim->channel_count; i++) {
        const mf_gltf_channel *c = &anim->channels[i];
        size_t per = (size_t)mf_gltf_path_components(c->path) * (c->interpolation == MF_GLTF_CUBICSPLINE ? 3 : 1);
        copy.channels[i] = *c;
        copy.channels[i].times = copy_into(g, c->times, (size_t)c->key_count * sizeof(float));
        copy.channels[i].values = copy_into(g, c->values, (size_t)c->key_count * per * sizeof(float));
        oom = !copy.channels[i].times || !copy.channels[i].values;
    }
    if (!oom && slot < 0) {
        mf_gltf_animation *grown = mf_gltf_alloc(g, ((size_t)g->animation_count + 1) * sizeof *grown);
        if (grown) {
            if (g->animation_count) memcpy(grown, g->animations, (size_t)g->animation_count * sizeof *grown);
            g->animations = grown;
            g->animation_count++;
        }
        oom = !grown;
    }
    if (oom) {
        mf_diag_set(diag, "", "", "out of memory");
        return MF_ERR_NOMEM;
    }
    g->animations[index] = copy;
    return MF_OK;
}

bool mf_gltf_remove_animation(mf_gltf *g, const char *name)
{
    int32_t i = mf_gltf_find_animation(g, name);
    if (i < 0) return false;
    memmove(&g->animations[i], &g->animations[i + 1], (size_t)(g->animation_count - i - 1) * sizeof *g->animations);
    g->animation_count--;
    return true;
}
