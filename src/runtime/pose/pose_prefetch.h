/* Prefetch hints for large batches (pose_prefetch.c): the lines the next world update, and
 * the next draw list build, touch first. Not public. */
#ifndef MF_POSE_PREFETCH_H
#define MF_POSE_PREFETCH_H
#include "mf/mf_geometry.h"
#include "mf/mf_pose.h"

void mf_pose_prefetch_world(const mf_pose *p);
void mf_draw_list_prefetch(const mf_draw_list *dl, const mf_pose *p);
#endif
