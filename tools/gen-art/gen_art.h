/* The mannequin example's body-part images, drawn by code so that the art is MIT like the rest
 * of the project and identical on every machine. Used by the mf_gen_art tool and by
 * tests/test_example_art.c, which checks the committed PNGs against a fresh rendering. */
#ifndef MF_GEN_ART_H
#define MF_GEN_ART_H
#include <stddef.h>
#include <stdint.h>

/* A straight-alpha RGBA8 image, rows top to bottom. */
typedef struct mf_art_image {
    int width, height;
    uint8_t *rgba; /* malloc'd, 4 * width * height bytes */
} mf_art_image;

/* The parts, in a fixed order: "shadow", "head", "neck", "torso", "pelvis", "upper_arm",
 * "forearm", "hand", "thigh", "shin", "foot". The image file is "<name>.png". */
int mf_art_part_count(void);
const char *mf_art_part_name(int index);

/* Renders one part; 0 on success, -1 when out of memory or index is out of range. */
int mf_art_render(int index, mf_art_image *out);
void mf_art_image_free(mf_art_image *img);

/* Encodes img as an 8-bit RGBA PNG and writes it atomically (temporary file, then rename).
 * 0 on success; on failure err gets a message naming the path. */
int mf_art_write_png(const char *path, const mf_art_image *img, char *err, size_t err_size);

/* Renders every part into folder (which must exist) as "<name>.png". 0 on success; on failure
 * err names the part and what went wrong. */
int mf_art_generate(const char *folder, char *err, size_t err_size);
#endif
