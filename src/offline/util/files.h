/* Whole-file reads and atomic writes. */
#ifndef MF_UTIL_FILES_H
#define MF_UTIL_FILES_H
#include "mf/mf_base.h"

/* Reads a file into a malloc'd, NUL-terminated buffer (free() it). */
mf_result mf_read_file(const char *path, char **data, size_t *len, mf_diag *diag);
/* Writes to a temporary file in the same folder, flushes it, then renames it over path, so a
 * failure never leaves a truncated file and never touches what was there. */
mf_result mf_write_file_atomic(const char *path, const void *data, size_t len, mf_diag *diag);
/* The file name without folders and without the last extension, into out. */
void mf_path_stem(const char *path, char *out, size_t size);
/* The folder part of path including the trailing '/', "" when none, into out. */
void mf_path_dir(const char *path, char *out, size_t size);
#endif
