/* The Spine corpus beside the project (../shared/spine-corpus), for tests that build its rigs in
 * memory: where it is (or the test skipped), and one rig converted and built. */
#ifndef TU_CORPUS_BUILD_H
#define TU_CORPUS_BUILD_H
#include <stddef.h>

#include "mf/mf_skel_data.h"

/* "<shared>/spine-corpus" in a static buffer; absent, prints "skipped: …" and skips the test
 * (cmocka's skip(): does not return). */
const char *tu_corpus_dir(void);

/* corpus/RIG/FILE.json converted (mf_spine_convert, named FILE) and built in memory; returns the
 * blob (free it after *data's last use) with *data loaded from it, or NULL, with
 * "skipped: … (not in the corpus)" printed, where the file is missing. A conversion or build
 * error fails the test with its located message. */
void *tu_corpus_build(const char *rig, const char *file, mf_skel_data *data);

/* The same for a JSON file at path, named name. */
void *tu_corpus_build_path(const char *path, const char *name, mf_skel_data *data);

/* A project rig (rel: from the source root, a .mskel with its clips folder) loaded and built in
 * memory the same way; a load or build error fails the test with its located message. */
void *tu_fixture_build(const char *rel, mf_skel_data *data);
#endif
