/* Fuzzes the PNG reader: any input either fails with a message or decodes into RGBA8 that
 * encodes and decodes again to the very same pixels. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mf/mf_png.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_diag diag;
    mf_image img, again;
    if (mf_png_decode(data, size, "fuzz.png", &img, &diag) != MF_OK) {
        if (img.rgba || !diag.message[0]) abort();
        return 0;
    }
    /* keep big (valid) images from slowing the run: only round-trip small ones */
    if ((size_t)img.width * (size_t)img.height <= 1u << 20) {
        void *png = NULL;
        size_t len = 0;
        if (mf_png_encode(&img, &png, &len, &diag) != MF_OK) abort();
        if (mf_png_decode(png, len, "again.png", &again, &diag) != MF_OK) abort();
        if (again.width != img.width || again.height != img.height ||
            memcmp(again.rgba, img.rgba, (size_t)img.width * (size_t)img.height * 4) != 0)
            abort();
        mf_image_free(&again);
        free(png);
    }
    mf_image_free(&img);
    return 0;
}
