/* Bezier curves pre-sampled into 10 linear pieces, so that evaluation never solves a cubic.
 * Equal curves share one sample; a curve that is the identity becomes linear. */
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"

static float clamp01(float v) { return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }

void mf_bezier_sample(float cx1, float cy1, float cx2, float cy2, mf_sd_bezier *out)
{
    /* x controls within 0..1 keep x(t) monotonic, so x ascends */
    double x1 = clamp01(cx1), x2 = clamp01(cx2);
    float prev = 0.0f;
    for (int i = 1; i <= MF_SD_CURVE_SAMPLES; i++) {
        double t = i / (double)(MF_SD_CURVE_SAMPLES + 1), mt = 1.0 - t;
        double a = 3.0 * mt * mt * t, b = 3.0 * mt * t * t, c = t * t * t;
        float x = (float)(a * x1 + b * x2 + c);
        if (x < prev) x = prev; /* guard against rounding */
        if (x > 1.0f) x = 1.0f;
        out->x[i - 1] = x;
        out->y[i - 1] = (float)(a * cy1 + b * cy2 + c);
        prev = x;
    }
}

static uint32_t hash_key(const float k[4])
{
    uint32_t h = 2166136261u, w;
    for (int i = 0; i < 4; i++) {
        memcpy(&w, &k[i], 4);
        h = (h ^ w) * 16777619u;
        h ^= h >> 15;
    }
    return h;
}

static bool grow(mf_bctx *c)
{
    int32_t cap = c->bez_cap ? c->bez_cap * 2 : 64;
    int32_t *slots = calloc((size_t)cap, sizeof *slots);
    if (!slots) return false;
    for (int32_t i = 0; i < c->bez_keys.len; i++) {
        uint32_t h = hash_key((const float *)(void *)(c->bez_keys.data + (size_t)i * 4 * sizeof(float))) & (uint32_t)(cap - 1);
        while (slots[h]) h = (h + 1) & (uint32_t)(cap - 1);
        slots[h] = i + 1;
    }
    free(c->bez_slots);
    c->bez_slots = slots;
    c->bez_cap = cap;
    return true;
}

bool mf_build_bezier(mf_bctx *c, float cx1, float cy1, float cx2, float cy2, int32_t *code)
{
    float key[4] = {clamp01(cx1), cy1, clamp01(cx2), cy2};
    if (key[0] == key[1] && key[2] == key[3]) { /* on the diagonal: y(t) = x(t) */
        *code = MF_SD_CURVE_LINEAR;
        return true;
    }
    for (int i = 0; i < 4; i++)
        if (!(key[i] - key[i] == 0.0f)) return mf_bfail(c, "", "", "a bezier control is not a finite number");
    if ((c->bez_keys.len + 1) * 2 > c->bez_cap && !grow(c)) return mf_boom(c);
    uint32_t mask = (uint32_t)(c->bez_cap - 1), h = hash_key(key) & mask;
    for (; c->bez_slots[h]; h = (h + 1) & mask) {
        int32_t i = c->bez_slots[h] - 1;
        if (memcmp(c->bez_keys.data + (size_t)i * sizeof key, key, sizeof key) == 0) {
            *code = i;
            return true;
        }
    }
    float *k = mf_bvec_push(&c->bez_keys, 1);
    mf_sd_bezier *b = mf_bvec_push(&c->sec[MF_SD_SEC_BEZIERS], 1);
    if (!k || !b) return mf_boom(c);
    memcpy(k, key, sizeof key);
    mf_bezier_sample(key[0], key[1], key[2], key[3], b);
    *code = c->sec[MF_SD_SEC_BEZIERS].len - 1;
    c->bez_slots[h] = *code + 1;
    return true;
}
