/* mf_gen_art OUTDIR — writes the mannequin example's body-part PNGs (see gen_art.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "gen_art.h"

int main(int argc, char **argv)
{
    if (argc != 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        FILE *out = argc == 2 ? stdout : stderr;
        fprintf(out, "usage: mf_gen_art OUTDIR\n"
                     "writes the mannequin example's body-part images (RGBA PNG) into OUTDIR\n");
        return argc == 2 ? 0 : 2;
    }
    struct stat st;
    if (stat(argv[1], &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "mf_gen_art: %s: not a folder\n", argv[1]);
        return 2;
    }
    char err[1024];
    if (mf_art_generate(argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "mf_gen_art: %s\n", err);
        return 1;
    }
    printf("mf_gen_art: wrote %d images to %s\n", mf_art_part_count(), argv[1]);
    return 0;
}
