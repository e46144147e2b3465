/* Renders every part into a folder as <name>.png. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_art.h"

int mf_art_generate(const char *folder, char *err, size_t err_size)
{
    for (int i = 0; i < mf_art_part_count(); i++) {
        const char *name = mf_art_part_name(i);
        mf_art_image img;
        if (mf_art_render(i, &img) != 0) {
            snprintf(err, err_size, "%s: out of memory while drawing", name);
            return -1;
        }
        size_t plen = strlen(folder) + strlen(name) + 8;
        char *path = malloc(plen);
        int rc = -1;
        if (path) {
            snprintf(path, plen, "%s/%s.png", folder, name);
            rc = mf_art_write_png(path, &img, err, err_size);
        } else {
            snprintf(err, err_size, "%s: out of memory", name);
        }
        free(path);
        mf_art_image_free(&img);
        if (rc != 0) return -1;
    }
    return 0;
}
