/* mf_base.h — shared by every mfanim module: result codes, located diagnostics, allocator hooks.
 *
 * Every fallible call returns an mf_result and, when given an mf_diag, fills it with the file,
 * the place in it (a JSON path such as `bones[4].parent`, or a byte offset / section of a binary
 * build) and a message. Format it with mf_diag_format():
 *
 *     hero.mskel: bones[4].parent: unknown bone "thigh_x" (did you mean "thigh_l"?)
 *
 * Allocator hooks: a zeroed mf_allocator means malloc/free.
 */
#ifndef MF_BASE_H
#define MF_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MF_VERSION_MAJOR 0
#define MF_VERSION_MINOR 1
#define MF_VERSION_PATCH 0

typedef enum mf_result {
    MF_OK = 0,
    MF_ERR_INVALID = 1,     /* input is malformed or inconsistent */
    MF_ERR_IO = 2,          /* a file could not be read or written */
    MF_ERR_NOMEM = 3,       /* an allocation failed */
    MF_ERR_VERSION = 4,     /* a binary build of another format version */
    MF_ERR_CORRUPT = 5,     /* a binary build failed its size or checksum checks */
    MF_ERR_UNSUPPORTED = 6, /* valid input that this version does not handle */
    MF_ERR_ARGUMENT = 7     /* a caller passed a bad argument */
} mf_result;

const char *mf_result_name(mf_result r);

/* A located diagnostic. Fixed-size so that runtime code can fill it without allocating. */
typedef struct mf_diag {
    char file[256];    /* file name as the caller gave it, may be empty */
    char where[256];   /* JSON path, "offset 120", "section clips" …, may be empty */
    char message[512]; /* what is wrong, with a suggestion where one fits */
} mf_diag;

/* Sets every field; where and message are printf-style. Safe with d == NULL. */
void mf_diag_set(mf_diag *d, const char *file, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void mf_diag_clear(mf_diag *d);
/* "file: where: message" (parts that are empty are left out). Returns the formatted length. */
size_t mf_diag_format(const mf_diag *d, char *buf, size_t size);

typedef struct mf_allocator {
    void *(*alloc)(void *user, size_t size); /* NULL: malloc */
    void (*free)(void *user, void *ptr);     /* NULL: free */
    void *user;
    /* Optional, both or neither (NULL: alloc and free): where a pose, a tracks and a draw list
     * put what a steady frame does not touch (deform, path scratch, mixing arrays, mix table,
     * callback queue, uvs, indices, clipping scratch), their setup temporaries and a tracks'
     * grown entry pool (allocated while playing, on whatever thread updates it). With a bump arena as alloc
     * (mf_instance_arena.h) and the heap here, the parts every frame touches of instances created one
     * after another lie back to back, which at thousands of instances is what memory rewards. */
    void *(*alloc_cold)(void *user, size_t size);
    void (*free_cold)(void *user, void *ptr);
} mf_allocator;

void *mf_alloc(const mf_allocator *a, size_t size);
void mf_free(const mf_allocator *a, void *ptr);
/* Through alloc_cold / free_cold when both are set, else mf_alloc / mf_free. */
void *mf_alloc_cold(const mf_allocator *a, size_t size);
void mf_free_cold(const mf_allocator *a, void *ptr);

#ifdef __cplusplus
}
#endif
#endif
