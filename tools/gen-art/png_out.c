/* PNG output through the project's PNG module (encode, then an atomic write). */
#include <stdio.h>

#include "gen_art.h"
#include "mf/mf_png.h"

int mf_art_write_png(const char *path, const mf_art_image *img, char *err, size_t err_size)
{
    mf_image view = {img->width, img->height, img->rgba};
    mf_diag d;
    if (mf_png_save(&view, path, &d) == MF_OK) return 0;
    mf_diag_format(&d, err, err_size);
    return -1;
}
