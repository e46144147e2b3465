/* Fuzzes the PSD reader: any input either fails with a located message and no layers, or
 * reads into layers whose sizes, parents and pixel buffers are consistent. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_psd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_diag diag;
    mf_psd *psd = NULL;
    if (mf_psd_parse(data, size, "fuzz.psd", &psd, &diag) != MF_OK) {
        if (psd || !diag.message[0] || strncmp(diag.where, "offset ", 7) != 0) abort();
        return 0;
    }
    if (psd->width < 1 || psd->height < 1) abort();
    for (int32_t i = 0; i < psd->layer_count; i++) {
        const mf_psd_layer *l = &psd->layers[i];
        if (!l->name) abort();
        if (l->parent >= psd->layer_count || l->parent == i) abort();
        if (l->parent >= 0 && (psd->layers[l->parent].kind != MF_PSD_GROUP || l->parent < i)) abort();
        if (l->rgba) {
            if (l->kind != MF_PSD_PIXEL || l->width < 1 || l->height < 1) abort();
            /* touch every pixel so ASan sees a short buffer */
            volatile uint8_t sum = 0;
            for (size_t k = 0; k < (size_t)l->width * (size_t)l->height * 4; k++) sum ^= l->rgba[k];
            (void)sum;
        }
    }
    mf_psd_free(psd);
    return 0;
}
