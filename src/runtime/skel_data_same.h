/* Whether two views are of one loaded build: the same view, or a copy of it (the same blob).
 * Buffers a draw list sized from one build hold no other build's geometry. */
#ifndef MF_SKEL_DATA_SAME_H
#define MF_SKEL_DATA_SAME_H
#include "mf/mf_skel_data.h"

static inline bool mf_sd_same(const mf_skel_data *a, const mf_skel_data *b)
{
    return a == b || (a && b && a->bytes && a->bytes == b->bytes && a->size == b->size);
}
#endif
