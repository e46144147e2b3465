/* The world update's program loop (pose_world.c), included there once for each instruction set:
 * MF_RUN_NAME the function, MF_RUN_TARGET its target attribute, MF_RUN_IK, MF_RUN_OTHER and
 * MF_RUN_TF the IK solve, the update of a bone of other inheritance and the transform solve it
 * calls. Not a header of its own. */
#define MF_RUN_CAT2(a, b) a##b
#define MF_RUN_CAT(a, b) MF_RUN_CAT2(a, b)
#define MF_RUN_FAST MF_RUN_CAT(MF_RUN_NAME, _fast)

/* A fast bone update from the update program (the cache fresh): a bone whose values did not
 * change under a kept parent keeps its world; the others compute it, most (code 0 or
 * MF_CHANGED: active, Normal) as the parent's matrix times the cached local one. */
MF_RUN_TARGET static inline __attribute__((always_inline)) void MF_RUN_FAST(mf_pose *p, const bone_arrays *r, size_t i,
                                                                           size_t par, bone_counts *n)
{
    unsigned code = r->changed[i];
    if (!(code & MF_CHANGED) && (r->changed[par] & MF_KEPT)) { /* nothing it depends on changed: last frame's world stands */
        r->changed[i] = MF_KEPT; /* only children read it now, for this bit */
        n->kept++;
        return;
    }
    if (__builtin_expect(code > MF_CHANGED, 0)) {
        if (code & MF_CHANGED_INACTIVE) n->inactive++; /* stale while inactive */
        else MF_RUN_OTHER(p, (int32_t)i);
        return;
    }
    /* world_of's first case, its cos and sin fresh from the fill; the local matrix's negated
     * entries l1 = -n1, l2 = -n2 enter as subtractions (p + -q is p - q, zeros' signs included) */
    float sx = r->asx[i], sy = r->asy[i], x = r->ax[i], y = r->ay[i];
    float l0 = r->tcx[i] * sx, n1 = r->tcy[i] * sy, n2 = r->tsx[i] * sx, l3 = r->tsy[i] * sy;
    float *a = r->a, *b = r->b, *c = r->c, *d = r->d;
    float pa = a[par], pb = b[par], pc = c[par], pd = d[par];
    r->wx[i] = pa * x + pb * y + r->wx[par];
    r->wy[i] = pc * x + pd * y + r->wy[par];
    a[i] = pa * l0 - pb * n2;
    b[i] = pb * l3 - pa * n1;
    c[i] = pc * l0 - pd * n2;
    d[i] = pd * l3 - pc * n1;
}

/* The update program's loop (mf_pose_update_world), after the mark. */
MF_RUN_TARGET __attribute__((noinline)) static void MF_RUN_NAME(mf_pose *p)
{
    mf_pose_scratch *s = p->scratch;
    const bone_arrays r = {s->changed, p->ax, p->ay, p->asx, p->asy, s->trig_cx, s->trig_sx,
                          s->trig_cy, s->trig_sy, p->a, p->b, p->c, p->d, p->wx, p->wy};
    bone_counts n = {s->fast_count, 0, 0};
    for (const mf_pose_op *o = s->ops;; o++) { /* to MF_OP_END */
        if (__builtin_expect(o->kind >= 0, 1)) {
            MF_RUN_FAST(p, &r, (uint32_t)o->kind, (uint32_t)o->a, &n); /* zero-extended */
            continue;
        }
        switch (o->kind) {
        case MF_OP_BONE:
            update_one_inline(p, o->a, o->b, &n);
            break;
        case MF_OP_IK_LAST: {
            int32_t k = o->a, i = o->b, first = o[1].kind, par = o[1].a;
            o++; /* the data op */
            bool on = p->ik_active[k] != 0;
            /* whether applying the IK surely writes bone i's world without reading it first:
             * active, mixed, and inherit modes it solves (a chain of two solves only with both
             * bones Normal, ik_two; one bone reads its own world only in the modes other than
             * Normal, ik_one) */
            if (!(on && p->ik_mix[k] != 0 && p->inherit[i] == MF_SD_INHERIT_NORMAL &&
                  (first < 0 || p->inherit[first] == MF_SD_INHERIT_NORMAL))) {
                update_one(p, i, par, &n);
            } else if (p->active[i]) { /* the IK computes it: its world before is never read */
                n.ops++; /* world_valid already set by the mark */
            }
            if (on) MF_RUN_IK(p, k);
            break;
        }
        case MF_OP_IK:
            if (p->ik_active[o->a]) MF_RUN_IK(p, o->a);
            break;
        case MF_OP_TRANSFORM:
            if (p->tf_active[o->a] && !mf_pose_tf_mixes_off(p->tf_mix + 6 * o->a)) MF_RUN_TF(p, o->a);
            break;
        case MF_OP_PATH:
            if (p->path_active[o->a]) mf_pose_apply_path(p, o->a);
            break;
        case MF_OP_PHYSICS:
            /* checks its own activity; its AVX2 build called directly was slower (GCC compiled
             * the solve worse with it global) */
            mf_pose_apply_physics(p, o->a);
            break;
        case MF_OP_END:
            goto end;
        default:
            break;
        }
    }
end:
    p->bones_computed += n.ops - n.kept - n.inactive;
    p->bones_kept += n.kept;
}

#undef MF_RUN_FAST
#undef MF_RUN_IK
#undef MF_RUN_OTHER
#undef MF_RUN_TF
#undef MF_RUN_CAT
#undef MF_RUN_CAT2
#undef MF_RUN_NAME
#undef MF_RUN_TARGET
