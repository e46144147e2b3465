/* Asking for a pose's and a draw list's lines before a stage runs (mf_batch_update, thousands
 * of instances): their arrays then come from memory, and the stages' loops would find them a
 * few lines at a time, each compare deciding what follows; asked for together the misses
 * overlap. Measured on the 2-core development VM (docs/performance.md): 10,000 synthetic
 * instances on 2 threads about 9 % faster, 1,000 to 2,500 (in cache) 2-8 % slower, so the batch
 * asks only for large batches. Prefetches change no result. */
#include "pose_prefetch.h"

#include "geom_item.h"
#include "pose_internal.h"

/* The first cap lines (64 bytes) of bytes from a: a longer array the hardware prefetcher
 * follows on its own once its first lines were asked for. */
static inline void lines(const void *a, size_t bytes, size_t cap, bool write)
{
    uintptr_t q = (uintptr_t)a & ~(uintptr_t)63, end = (uintptr_t)a + bytes;
    if (end - q > cap * 64) end = q + cap * 64;
    for (; q < end; q += 64) {
        if (write) __builtin_prefetch((const void *)q, 1, 3);
        else __builtin_prefetch((const void *)q, 0, 3);
    }
}

void mf_pose_prefetch_world(const mf_pose *p)
{
    const mf_pose_scratch *s = p->scratch;
    size_t nb = (size_t)p->bone_count, f = nb * sizeof(float);
    /* the dirty mark reads the local and applied values and the trigonometry keys, writes the
     * applied values and the cache; the update reads its program and writes the world */
    const float *local[7] = {p->x, p->y, p->rot, p->sx, p->sy, p->shx, p->shy};
    const float *written[] = {p->ax, p->ay, p->arot, p->asx, p->asy, p->ashx, p->ashy,
                              s->trig_cx, s->trig_sx, s->trig_cy, s->trig_sy,
                              p->a, p->b, p->c, p->d, p->wx, p->wy};
    for (size_t c = 0; c < 7; c++) lines(local[c], f, 4, false);
    for (size_t c = 0; c < sizeof written / sizeof written[0]; c++) lines(written[c], f, 4, true);
    lines(s->trig_kx, nb * sizeof(uint32_t), 4, true), lines(s->trig_ky, nb * sizeof(uint32_t), 4, true);
    lines(s->ops, (size_t)s->op_count * sizeof(mf_pose_op), 4, false);
}

void mf_draw_list_prefetch(const mf_draw_list *dl, const mf_pose *p)
{
    size_t ns = (size_t)p->slot_count;
    if (mf_draw_items_stand(dl, p)) { /* a kept build: skinning reads the items, nothing of the slots */
        if (dl->job_count >= 0) lines(dl->jobs, (size_t)dl->job_count * 3 * sizeof(int32_t), 8, false);
        else lines(dl->items, (size_t)dl->item_count * sizeof(mf_draw_item), 32, false);
        lines(p->scratch->skin_mats, ((size_t)p->bone_count + 1) * 8 * sizeof(float), 8, true);
        return;
    }
    /* the item walk compares and rewrites every item of the last build and reads the slots'
     * colours, attachments and draw order; skinning packs the world first */
    lines(dl->items, (size_t)dl->item_count * sizeof(mf_draw_item), 32, true);
    lines(p->color, ns * 4 * sizeof(float), 4, false), lines(p->dark, ns * 3 * sizeof(float), 4, false);
    lines(p->attachment, ns * sizeof(int32_t), 4, false), lines(p->draw_order, ns * sizeof(int32_t), 4, false);
    lines(p->scratch->skin_mats, ((size_t)p->bone_count + 1) * 8 * sizeof(float), 8, true);
}
