/* The weighted skinning streams as they are generated (pose/geom_skin_build.c) go through an
 * emitter that counts them, writes them (the build), or compares them with a build's sections
 * (the loader: a hostile blob is safe exactly when its streams are the ones its attachments
 * give), with no allocation either way. */
#ifndef MF_SKIN_STREAMS_H
#define MF_SKIN_STREAMS_H
#include "mf/mf_skel_data.h"

typedef enum mf_skin_emit_mode { MF_SKIN_EMIT_COUNT, MF_SKIN_EMIT_WRITE, MF_SKIN_EMIT_COMPARE } mf_skin_emit_mode;

typedef struct mf_skin_emit {
    mf_skin_emit_mode mode;
    /* WRITE: the arrays, sized by a COUNT pass */
    int32_t *first;
    mf_sd_skin_group *groups;
    mf_sd_skin_record *records;
    mf_sd_skin_vertex *vertices;
    /* COMPARE: the build whose sections are compared, and where a difference is reported */
    const mf_skel_data *d;
    mf_diag *diag;
    /* emitted so far */
    int64_t nf, ng, nr, nv;
} mf_skin_emit;

/* Each emits the next element; false (COMPARE only) at the first one that differs or lies past
 * its section, with the diagnostic set: the generation stops there. */
bool mf_skin_emit_first(mf_skin_emit *e, int32_t group);
bool mf_skin_emit_group(mf_skin_emit *e, const mf_sd_skin_group *g);
bool mf_skin_emit_record(mf_skin_emit *e, const mf_sd_skin_record *r);
bool mf_skin_emit_vertex(mf_skin_emit *e, const mf_sd_skin_vertex *v);

/* Generates d's streams into e (d's attachments, spans and influences valid); false when the
 * emitter stopped it. */
bool mf_skin_streams_emit(const mf_skel_data *d, mf_skin_emit *e);

/* The loader's check: the stream sections equal the generated streams, in content and count. */
mf_result mf_sd_check_skin_streams(const mf_skel_data *d, mf_diag *diag);
#endif
