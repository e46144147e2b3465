/* mfe skel simulate RIG.mskel --scenario SCENARIO.json [--out FRAMES.json]: builds the rig in
 * memory, plays a scenario through the track system (mf_tracks.h: set / add / setEmpty /
 * addEmpty on any track, default and paired mixes, per-entry mix, alpha, additive, hold
 * previous, reverse, time scale; composed skins) and writes the frames in the spine-corpus dump
 * format: bone world matrices, inactive bones, the draw list with world vertices, and events.
 * Physics constraints step by each frame's dt (mf_physics.h) and run in the update order. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mf/mf_build.h"
#include "mf/mf_geometry.h"
#include "mf/mf_physics.h"
#include "mf/mf_pose.h"
#include "mf/mf_rig.h"
#include "mf/mf_tracks.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/jread.h"
#include "util/suggest.h"

#define MAX_COMMANDS 256
#define MAX_SKINS 64
#define EVENT_CAP 256

#define MAX_MIXES 256
#define MAX_TRACKS 16

enum { OP_SET = 0, OP_ADD, OP_SET_EMPTY, OP_ADD_EMPTY };

typedef struct command {
    int32_t frame, clip, track, op;
    bool loop, additive, hold_previous, reverse, has_mix;
    double mix, delay;
    float alpha, time_scale;
} command;

typedef struct mix_pair {
    int32_t from, to;
    double seconds;
} mix_pair;

typedef struct scenario {
    int32_t frames, every;
    double dt; /* double, as the reference sums it */
    int32_t command_count;
    command commands[MAX_COMMANDS];
    int32_t skin_count;
    int32_t skins[MAX_SKINS];
    double default_mix;
    int32_t mix_count, track_count;
    mix_pair mixes[MAX_MIXES];
    cJSON *json; /* echoed into the output */
} scenario;

static const char *clip_name_at(const void *ctx, int i)
{
    const mf_skel_data *d = ctx;
    return mf_skel_data_string(d, d->clips[i].name);
}

static const char *skin_name_at(const void *ctx, int i)
{
    const mf_skel_data *d = ctx;
    return mf_skel_data_string(d, d->skins[i].name);
}

static bool known_clip(mf_jr *r, const mf_skel_data *d, const char *name, int32_t *out)
{
    *out = mf_skel_data_find_clip(d, name);
    if (*out >= 0) return true;
    const char *best = mf_suggest(name, d->clip_count, clip_name_at, d);
    if (best) return mf_jr_fail(r, "unknown clip \"%s\" (did you mean \"%s\"?)", name, best);
    return mf_jr_fail(r, "unknown clip \"%s\"", name);
}

/* A number as double (times are summed in double as the reference does); type checked by jread. */
static bool read_double(mf_jr *r, const cJSON *obj, const char *key, double def, double *out)
{
    float f = 0;
    if (!mf_jr_float(r, obj, key, (float)def, &f)) return false;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = cJSON_IsNumber(v) ? v->valuedouble : def;
    return true;
}

static const char *op_name_at(const void *ctx, int i) { return ((const char *const *)ctx)[i]; }

/* "mixes": [[from, to, seconds], ...] */
static bool read_mixes(mf_jr *r, const cJSON *root, const mf_skel_data *d, scenario *sc)
{
    const cJSON *mixes = cJSON_GetObjectItemCaseSensitive(root, "mixes");
    if (!mixes) return true;
    size_t mark = mf_jr_key(r, "mixes");
    if (!mf_jr_expect_array(r, mixes)) return false;
    int i = 0;
    for (const cJSON *m = mixes->child; m; m = m->next, i++) {
        size_t m2 = mf_jr_index(r, i);
        if (!cJSON_IsArray(m) || cJSON_GetArraySize(m) != 3 || !cJSON_IsString(cJSON_GetArrayItem(m, 0)) ||
            !cJSON_IsString(cJSON_GetArrayItem(m, 1)) || !cJSON_IsNumber(cJSON_GetArrayItem(m, 2)))
            return mf_jr_fail(r, "expected [from clip, to clip, seconds]");
        if (sc->mix_count >= MAX_MIXES) return mf_jr_fail(r, "more than %d mixes", MAX_MIXES);
        mix_pair *p = &sc->mixes[sc->mix_count];
        for (int k = 0; k < 2; k++) {
            size_t m3 = mf_jr_index(r, k);
            if (!known_clip(r, d, cJSON_GetArrayItem(m, k)->valuestring, k ? &p->to : &p->from)) return false;
            mf_jr_pop(r, m3);
        }
        p->seconds = cJSON_GetArrayItem(m, 2)->valuedouble;
        if (!(p->seconds >= 0)) {
            mf_jr_index(r, 2);
            return mf_jr_fail(r, "must be 0 or more seconds");
        }
        sc->mix_count++;
        mf_jr_pop(r, m2);
    }
    mf_jr_pop(r, mark);
    return true;
}

static bool read_scenario(mf_jr *r, cJSON *root, const mf_skel_data *d, scenario *sc)
{
    static const char *const keys[] = {"name", "frames", "every", "dt", "defaultMix", "mixes",
                                       "skins", "commands", NULL};
    if (!mf_jr_expect_object(r, root) || !mf_jr_keys(r, root, keys)) return false;
    float dt_check = 0;
    if (!mf_jr_int(r, root, "frames", 1, &sc->frames) || !mf_jr_int(r, root, "every", 1, &sc->every) ||
        !mf_jr_float(r, root, "dt", 1.0f / 60.0f, &dt_check))
        return false;
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(root, "dt");
    sc->dt = cJSON_IsNumber(dt) ? dt->valuedouble : 1.0 / 60.0;
    if (sc->frames < 1 || sc->frames > 100000) return mf_jr_fail_at(r, "frames", "must be 1..100000");
    if (sc->every < 1) return mf_jr_fail_at(r, "every", "must be at least 1");
    if (!(sc->dt >= 0 && sc->dt <= 10)) return mf_jr_fail_at(r, "dt", "must be 0..10 seconds");
    if (!read_double(r, root, "defaultMix", 0, &sc->default_mix)) return false;
    if (!(sc->default_mix >= 0)) return mf_jr_fail_at(r, "defaultMix", "must be 0 or more seconds");
    if (!read_mixes(r, root, d, sc)) return false;
    const cJSON *skins = cJSON_GetObjectItemCaseSensitive(root, "skins");
    if (skins) {
        size_t mark = mf_jr_key(r, "skins");
        if (!mf_jr_expect_array(r, skins)) return false;
        int i = 0;
        for (const cJSON *s = skins->child; s; s = s->next, i++) {
            size_t m2 = mf_jr_index(r, i);
            if (!cJSON_IsString(s)) return mf_jr_fail(r, "expected a skin name, got %s", mf_jr_type_name(s));
            if (sc->skin_count >= MAX_SKINS) return mf_jr_fail(r, "more than %d skins", MAX_SKINS);
            int32_t k = mf_skel_data_find_skin(d, s->valuestring);
            if (k < 0) {
                const char *best = mf_suggest(s->valuestring, d->skin_count, skin_name_at, d);
                if (best) return mf_jr_fail(r, "unknown skin \"%s\" (did you mean \"%s\"?)", s->valuestring, best);
                return mf_jr_fail(r, "unknown skin \"%s\"", s->valuestring);
            }
            sc->skins[sc->skin_count++] = k;
            mf_jr_pop(r, m2);
        }
        mf_jr_pop(r, mark);
    }
    const cJSON *cmds = cJSON_GetObjectItemCaseSensitive(root, "commands");
    size_t mark = mf_jr_key(r, "commands");
    if (!cmds) return mf_jr_fail(r, "missing (a scenario needs at least one command)");
    if (!mf_jr_expect_array(r, cmds)) return false;
    int i = 0;
    for (const cJSON *c = cmds->child; c; c = c->next, i++) {
        size_t m2 = mf_jr_index(r, i);
        static const char *const ckeys[] = {"frame", "op", "track", "anim", "loop", "mix", "alpha",
                                            "additive", "holdPrevious", "reverse", "timeScale",
                                            "delay", NULL};
        if (!mf_jr_expect_object(r, c) || !mf_jr_keys(r, c, ckeys)) return false;
        if (sc->command_count >= MAX_COMMANDS) return mf_jr_fail(r, "more than %d commands", MAX_COMMANDS);
        command *cmd = &sc->commands[sc->command_count];
        char *op = NULL, *anim = NULL;
        mf_arena *arena = mf_arena_create();
        bool ok = arena && mf_jr_int(r, c, "frame", 0, &cmd->frame) && mf_jr_int(r, c, "track", 0, &cmd->track) &&
                  mf_jr_string(r, arena, c, "op", "set", &op) && mf_jr_bool(r, c, "loop", false, &cmd->loop) &&
                  mf_jr_string(r, arena, c, "anim", NULL, &anim) && mf_jr_float(r, c, "alpha", 1, &cmd->alpha) &&
                  mf_jr_bool(r, c, "additive", false, &cmd->additive) &&
                  mf_jr_bool(r, c, "holdPrevious", false, &cmd->hold_previous) &&
                  mf_jr_bool(r, c, "reverse", false, &cmd->reverse) &&
                  mf_jr_float(r, c, "timeScale", 1, &cmd->time_scale) && read_double(r, c, "delay", 0, &cmd->delay) &&
                  read_double(r, c, "mix", 0, &cmd->mix);
        cmd->has_mix = cJSON_GetObjectItemCaseSensitive(c, "mix") != NULL;
        static const char *const ops[] = {"set", "add", "setEmpty", "addEmpty"};
        cmd->op = -1;
        for (int k = 0; ok && k < 4; k++)
            if (!strcmp(op, ops[k])) cmd->op = k;
        if (ok && cmd->op < 0) {
            const char *best = mf_suggest(op, 4, op_name_at, ops);
            ok = best ? mf_jr_fail_at(r, "op", "unknown op \"%s\" (did you mean \"%s\"?)", op, best)
                      : mf_jr_fail_at(r, "op", "unknown op \"%s\" (set, add, setEmpty or addEmpty)", op);
        }
        if (ok && (cmd->track < 0 || cmd->track >= MAX_TRACKS))
            ok = mf_jr_fail_at(r, "track", "%d is not a track (0..%d)", cmd->track, MAX_TRACKS - 1);
        if (ok && !(cmd->alpha >= 0 && cmd->alpha <= 1)) ok = mf_jr_fail_at(r, "alpha", "must be 0..1");
        if (ok && cmd->has_mix && !(cmd->mix >= 0)) ok = mf_jr_fail_at(r, "mix", "must be 0 or more seconds");
        if (ok && !(cmd->time_scale == cmd->time_scale)) ok = mf_jr_fail_at(r, "timeScale", "not a number");
        bool empty = cmd->op == OP_SET_EMPTY || cmd->op == OP_ADD_EMPTY;
        if (ok && !empty && !anim) ok = mf_jr_fail_at(r, "anim", "missing (op \"%s\" plays a clip)", op);
        if (ok && empty && anim) ok = mf_jr_fail_at(r, "anim", "op \"%s\" plays the empty clip: no anim", op);
        if (ok && (cmd->frame < 0 || cmd->frame >= sc->frames))
            ok = mf_jr_fail_at(r, "frame", "%d is outside the scenario's %d frames", cmd->frame, sc->frames);
        cmd->clip = MF_CLIP_EMPTY;
        if (ok && anim) {
            size_t m3 = mf_jr_key(r, "anim");
            ok = known_clip(r, d, anim, &cmd->clip);
            mf_jr_pop(r, m3);
        }
        if (cmd->track + 1 > sc->track_count) sc->track_count = cmd->track + 1;
        mf_arena_destroy(arena);
        if (!ok) return false;
        sc->command_count++;
        mf_jr_pop(r, m2);
    }
    mf_jr_pop(r, mark);
    return true;
}

static const char *blend_name(uint8_t b)
{
    static const char *const names[] = {"normal", "additive", "multiply", "screen"};
    return b < 4 ? names[b] : "normal";
}

static void put_floats(mf_buf *b, const float *v, int32_t n)
{
    mf_buf_putc(b, '[');
    for (int32_t i = 0; i < n; i++) {
        if (i) mf_buf_putc(b, ',');
        mf_buf_number(b, v[i]);
    }
    mf_buf_putc(b, ']');
}

static void write_frame(mf_buf *b, const mf_pose *p, const mf_draw_list *dl, float t,
                        const mf_fired_event *ev, int32_t nev, bool first)
{
    const mf_skel_data *d = p->data;
    mf_buf_puts(b, first ? "\n{\"t\":" : ",\n{\"t\":");
    mf_buf_number(b, t);
    mf_buf_puts(b, ",\"bones\":[");
    for (int32_t i = 0; i < p->bone_count; i++) {
        float m[6];
        mf_pose_bone_world(p, i, m);
        if (i) mf_buf_putc(b, ',');
        put_floats(b, m, 6);
    }
    mf_buf_puts(b, "],\"inactive\":[");
    bool any = false;
    for (int32_t i = 0; i < p->bone_count; i++)
        if (!p->active[i]) {
            mf_buf_printf(b, any ? ",%d" : "%d", (int)i);
            any = true;
        }
    mf_buf_puts(b, "],\"draw\":[");
    for (int32_t i = 0; i < dl->item_count; i++) {
        const mf_draw_item *it = &dl->items[i];
        mf_buf_puts(b, i ? ",\n {\"slot\":" : "\n {\"slot\":");
        mf_buf_string(b, mf_skel_data_string(d, d->slots[it->slot].name));
        mf_buf_puts(b, ",\"attachment\":"); /* its own name, as Spine's dumps write it */
        mf_buf_string(b, mf_skel_data_attachment_name(d, it->attachment));
        if (it->image >= 0) { /* the image drawn: Spine dumps name attachments by their path */
            mf_buf_puts(b, ",\"image\":");
            mf_buf_string(b, mf_skel_data_string(d, d->images[it->image].name));
        }
        mf_buf_printf(b, ",\"blend\":\"%s\",\"light\":", blend_name(it->blend));
        put_floats(b, it->light, 4);
        mf_buf_puts(b, ",\"dark\":");
        if (it->has_dark) put_floats(b, it->dark, 3);
        else mf_buf_puts(b, "null");
        mf_buf_puts(b, ",\"vertices\":");
        put_floats(b, dl->vertices + 2 * it->vertex_first, 2 * it->vertex_count);
        mf_buf_puts(b, ",\"uvs\":");
        put_floats(b, dl->uvs + 2 * it->vertex_first, 2 * it->vertex_count);
        mf_buf_puts(b, ",\"triangles\":[");
        for (int32_t k = 0; k < it->index_count; k++)
            mf_buf_printf(b, k ? ",%d" : "%d", (int)dl->indices[it->index_first + k]);
        mf_buf_printf(b, "],\"clipped\":%s}", it->clipped ? "true" : "false");
    }
    mf_buf_puts(b, "],\"events\":[");
    for (int32_t i = 0; i < nev; i++) {
        const mf_fired_event *e = &ev[i];
        if (i) mf_buf_putc(b, ',');
        mf_buf_puts(b, "{\"name\":");
        mf_buf_string(b, mf_skel_data_string(d, d->events[e->event].name));
        mf_buf_printf(b, ",\"int\":%d,\"float\":", (int)e->int_value);
        mf_buf_number(b, e->float_value);
        mf_buf_puts(b, ",\"string\":");
        const char *s = e->string >= 0 ? mf_skel_data_string(d, e->string) : "";
        mf_buf_string(b, s ? s : "");
        mf_buf_puts(b, ",\"time\":");
        mf_buf_number(b, e->time);
        mf_buf_putc(b, '}');
    }
    mf_buf_puts(b, "]}");
}

typedef struct collected {
    mf_fired_event events[EVENT_CAP];
    int32_t count;
} collected;

static void on_track(mf_tracks *t, mf_track_event_type type, mf_entry_handle h, const mf_track_entry *e,
                     const mf_fired_event *ev, void *user)
{
    (void)t, (void)h, (void)e;
    collected *c = user;
    if (type == MF_TRACK_EVENT && ev && c->count < EVENT_CAP) c->events[c->count++] = *ev;
}

static void run_command(mf_tracks *t, const command *cmd)
{
    mf_entry_handle h;
    switch (cmd->op) {
    case OP_SET: h = mf_tracks_set(t, cmd->track, cmd->clip, cmd->loop); break;
    case OP_ADD: h = mf_tracks_add(t, cmd->track, cmd->clip, cmd->loop, cmd->delay); break;
    case OP_SET_EMPTY: h = mf_tracks_set_empty(t, cmd->track, cmd->mix); break;
    default: h = mf_tracks_add_empty(t, cmd->track, cmd->mix, cmd->delay); break;
    }
    mf_track_entry *e = mf_tracks_entry(t, h);
    if (!e) return;
    if (cmd->op <= OP_ADD && cmd->has_mix) mf_tracks_set_entry_mix(t, h, cmd->mix);
    e->alpha = cmd->alpha;
    e->blend = cmd->additive ? MF_CLIP_ADDITIVE : MF_CLIP_REPLACE;
    e->hold_previous = cmd->hold_previous;
    e->reverse = cmd->reverse;
    e->time_scale = cmd->time_scale;
}

/* Plays the scenario into b. */
static int play(const mf_skel_data *d, scenario *sc, const char *scen_path, mf_buf *b)
{
    mf_pose *pose = NULL;
    mf_skin_cache *cache = NULL;
    mf_draw_list *dl = NULL;
    mf_diag diag;
    mf_diag_clear(&diag);
    int rc = MFE_OK;
    mf_tracks *tracks = NULL;
    collected *ev = NULL;
    if (mf_pose_create(d, NULL, &pose, &diag) != MF_OK || mf_skin_cache_create(d, NULL, &cache) != MF_OK ||
        mf_draw_list_create(d, NULL, &dl) != MF_OK) {
        fprintf(stderr, "mfe skel simulate: out of memory\n");
        rc = MFE_USAGE;
        goto done;
    }
    if (sc->skin_count > 0 && mf_pose_set_skins(pose, cache, sc->skins, sc->skin_count, &diag) != MF_OK) {
        snprintf(diag.file, sizeof diag.file, "%s", scen_path);
        rc = mfe_report(&diag);
        goto done;
    }
    ev = calloc(1, sizeof *ev);
    if (!ev || mf_tracks_create(d, &(mf_tracks_config){.track_count = sc->track_count > 0 ? sc->track_count : 1,
                                                      .default_mix = sc->default_mix},
                                NULL, &tracks) != MF_OK) {
        fprintf(stderr, "mfe skel simulate: out of memory\n");
        rc = MFE_USAGE;
        goto done;
    }
    for (int32_t i = 0; i < sc->mix_count; i++)
        mf_tracks_set_mix(tracks, sc->mixes[i].from, sc->mixes[i].to, sc->mixes[i].seconds);
    mf_tracks_set_listener(tracks, on_track, ev);
    double clock = 0; /* seconds, summed in double as the reference does */
    mf_buf_puts(b, "{\"format\":1,\"source\":\"mfanim runtime\",\"scenario\":");
    char *scen_text = cJSON_PrintUnformatted(sc->json);
    mf_buf_puts(b, scen_text ? scen_text : "{}");
    free(scen_text);
    mf_buf_puts(b, ",\"boneNames\":[");
    for (int32_t i = 0; i < d->bone_count; i++) {
        if (i) mf_buf_putc(b, ',');
        mf_buf_string(b, mf_skel_data_string(d, d->bones[i].name));
    }
    mf_buf_puts(b, "],\"frames\":[");
    bool first = true;
    for (int32_t f = 0; f < sc->frames; f++) {
        for (int32_t c = 0; c < sc->command_count; c++)
            if (sc->commands[c].frame == f) run_command(tracks, &sc->commands[c]);
        double dt = f > 0 ? sc->dt : 0.0;
        if (f > 0) clock += sc->dt;
        mf_tracks_update(tracks, dt);
        /* no reset between frames: as in the reference, what no track keys keeps its value
         * (a layer's constraint mixes converge over frames; first keys mix from setup) */
        mf_tracks_apply(tracks, pose);
        mf_pose_physics_step(pose, dt);
        mf_pose_update_world(pose);
        if (f % sc->every == 0 || f == sc->frames - 1) {
            mf_draw_list_build(dl, pose);
            write_frame(b, pose, dl, (float)clock, ev->events, ev->count, first);
            first = false;
            ev->count = 0;
        }
    }
    mf_buf_puts(b, "\n]}\n");
done:
    mf_tracks_destroy(tracks);
    free(ev);
    mf_draw_list_destroy(dl);
    mf_skin_cache_destroy(cache);
    mf_pose_destroy(pose);
    return rc;
}

int mfe_skel_simulate(int argc, char **argv)
{
    const char *rig_path = NULL, *scen_path = NULL, *out_path = NULL;
    for (int i = 0; i < argc; i++) {
        if (mfe_is_flag(argv[i], "--scenario") && i + 1 < argc) scen_path = argv[++i];
        else if (mfe_is_flag(argv[i], "--out") && i + 1 < argc) out_path = argv[++i];
        else if (argv[i][0] == '-') return mfe_usage_error("skel", "simulate", "unknown option %s", argv[i]);
        else if (!rig_path) rig_path = argv[i];
        else return mfe_usage_error("skel", "simulate", "unexpected argument %s", argv[i]);
    }
    if (!rig_path || !scen_path)
        return mfe_usage_error("skel", "simulate", "needs RIG.mskel and --scenario SCENARIO.json");
    mf_diag diag;
    mf_diag_clear(&diag);
    mf_rig rig;
    if (mf_rig_load(rig_path, &rig, &diag) != MF_OK) return mfe_report(&diag);
    void *blob = NULL;
    size_t size = 0;
    int rc = MFE_OK;
    char *text = NULL;
    cJSON *root = NULL;
    mf_buf out = {0};
    mf_skel_data data;
    if (mf_build_skeleton(rig.sk, (const mf_clip *const *)rig.clips, rig.clip_count, &blob, &size, &diag) != MF_OK ||
        mf_skel_data_load(blob, size, &data, &diag) != MF_OK) {
        if (!diag.file[0]) snprintf(diag.file, sizeof diag.file, "%s", rig_path);
        rc = mfe_report(&diag);
        goto done;
    }
    size_t len = 0;
    if (mf_read_file(scen_path, &text, &len, &diag) != MF_OK) {
        rc = mfe_report(&diag);
        goto done;
    }
    mf_jr r;
    mf_jr_init(&r, scen_path, &diag);
    root = mf_jr_parse(&r, text, len);
    if (!root) {
        rc = mfe_report(&diag);
        goto done;
    }
    /* a reference dump is accepted too: its "scenario" field is the scenario */
    cJSON *scen = cJSON_GetObjectItemCaseSensitive(root, "scenario");
    size_t mark = 0;
    if (cJSON_IsObject(scen)) mark = mf_jr_key(&r, "scenario");
    else scen = root;
    scenario *sc = calloc(1, sizeof *sc);
    if (!sc) {
        rc = MFE_USAGE;
        goto done;
    }
    sc->json = scen;
    if (!read_scenario(&r, scen, &data, sc)) {
        free(sc);
        rc = mfe_report(&diag);
        goto done;
    }
    (void)mark;
    rc = play(&data, sc, scen_path, &out);
    free(sc);
    if (rc != MFE_OK) goto done;
    if (out.oom) {
        fprintf(stderr, "mfe skel simulate: out of memory\n");
        rc = MFE_USAGE;
    } else if (out_path) {
        if (mf_write_file_atomic(out_path, out.data, out.len, &diag) != MF_OK) rc = mfe_report(&diag);
    } else {
        fwrite(out.data, 1, out.len, stdout);
    }
done:
    mf_buf_free(&out);
    cJSON_Delete(root);
    free(text);
    free(blob);
    mf_rig_free(&rig);
    return rc;
}
