/* Bone names: normalising (prefixes, side tokens, case and separators) and the name tables
 * of the common rig conventions. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "humanoid_internal.h"

enum { NM_MIXAMO = 1, NM_UNREAL = 2, NM_BLENDER = 4, NM_MOCAP = 8, NM_VRM = 16, NM_ALL = 31 };

static const char *const NAMINGS[] = {"mixamo", "unreal", "blender", "mocap", "vrm", NULL};

const char *mf_hname_naming(int index)
{
    return index >= 0 && index < 5 ? NAMINGS[index] : NULL;
}

typedef struct entry {
    const char *letters;
    bool sided;
    mf_hname_kind kind;
    int bone; /* left or centre bone for MF_HN_BONE */
    int namings;
} entry;

static const entry TABLE[] = {
    {"upleg", true, MF_HN_BONE, MF_HB_LEFT_UPPER_LEG, NM_MIXAMO | NM_MOCAP},
    {"upperleg", true, MF_HN_BONE, MF_HB_LEFT_UPPER_LEG, NM_VRM},
    {"thigh", true, MF_HN_BONE, MF_HB_LEFT_UPPER_LEG, NM_UNREAL | NM_BLENDER},
    {"hip", true, MF_HN_BONE, MF_HB_LEFT_UPPER_LEG, NM_MOCAP},
    {"leg", true, MF_HN_BONE, MF_HB_LEFT_LOWER_LEG, NM_MIXAMO | NM_MOCAP},
    {"lowerleg", true, MF_HN_BONE, MF_HB_LEFT_LOWER_LEG, NM_VRM},
    {"calf", true, MF_HN_BONE, MF_HB_LEFT_LOWER_LEG, NM_UNREAL},
    {"shin", true, MF_HN_BONE, MF_HB_LEFT_LOWER_LEG, NM_BLENDER},
    {"knee", true, MF_HN_BONE, MF_HB_LEFT_LOWER_LEG, NM_MOCAP},
    {"foot", true, MF_HN_BONE, MF_HB_LEFT_FOOT, NM_ALL},
    {"ankle", true, MF_HN_BONE, MF_HB_LEFT_FOOT, NM_MOCAP},
    {"toebase", true, MF_HN_BONE, MF_HB_LEFT_TOES, NM_MIXAMO | NM_MOCAP},
    {"toe", true, MF_HN_BONE, MF_HB_LEFT_TOES, NM_BLENDER | NM_MOCAP},
    {"toes", true, MF_HN_BONE, MF_HB_LEFT_TOES, NM_VRM},
    {"ball", true, MF_HN_BONE, MF_HB_LEFT_TOES, NM_UNREAL},
    {"shoulder", true, MF_HN_BONE, MF_HB_LEFT_SHOULDER, NM_MIXAMO | NM_BLENDER | NM_MOCAP | NM_VRM},
    {"clavicle", true, MF_HN_BONE, MF_HB_LEFT_SHOULDER, NM_UNREAL},
    {"collar", true, MF_HN_BONE, MF_HB_LEFT_SHOULDER, NM_MOCAP},
    {"arm", true, MF_HN_BONE, MF_HB_LEFT_UPPER_ARM, NM_MIXAMO | NM_MOCAP},
    {"upperarm", true, MF_HN_BONE, MF_HB_LEFT_UPPER_ARM, NM_UNREAL | NM_BLENDER | NM_VRM},
    {"forearm", true, MF_HN_BONE, MF_HB_LEFT_LOWER_ARM, NM_MIXAMO | NM_BLENDER | NM_MOCAP},
    {"lowerarm", true, MF_HN_BONE, MF_HB_LEFT_LOWER_ARM, NM_UNREAL | NM_VRM},
    {"elbow", true, MF_HN_BONE, MF_HB_LEFT_LOWER_ARM, NM_MOCAP},
    {"hand", true, MF_HN_BONE, MF_HB_LEFT_HAND, NM_ALL},
    {"wrist", true, MF_HN_BONE, MF_HB_LEFT_HAND, NM_MOCAP},
    {"eye", true, MF_HN_BONE, MF_HB_LEFT_EYE, NM_ALL},
    {"hips", false, MF_HN_BONE, MF_HB_HIPS, NM_MIXAMO | NM_MOCAP | NM_VRM},
    {"hip", false, MF_HN_BONE, MF_HB_HIPS, NM_MOCAP},
    {"pelvis", false, MF_HN_BONE, MF_HB_HIPS, NM_UNREAL},
    {"head", false, MF_HN_BONE, MF_HB_HEAD, NM_ALL},
    {"jaw", false, MF_HN_BONE, MF_HB_JAW, NM_ALL},
    {"spine", false, MF_HN_SPINE, -1, NM_ALL},
    {"chest", false, MF_HN_SPINE, -1, NM_VRM | NM_MOCAP},
    {"upperchest", false, MF_HN_SPINE, -1, NM_VRM},
    {"lowerback", false, MF_HN_SPINE, -1, NM_MOCAP},
    {"abdomen", false, MF_HN_SPINE, -1, NM_MOCAP},
    {"torso", false, MF_HN_SPINE, -1, 0},
    {"waist", false, MF_HN_SPINE, -1, 0},
    {"neck", false, MF_HN_NECK, -1, NM_ALL},
};

/* Tokens that make a bone a helper which no table should map. */
static const char *const SKIP_TOKENS[] = {"end", "site", "nub", "twist", "roll", "ik", "pole", "target",
                                          "ctrl", "helper", "mch", "socket", "null", NULL};

#define MAX_TOKENS 16
typedef struct tokens {
    int n;
    char t[MAX_TOKENS][32];
} tokens;

static void push(tokens *tk, const char *s, size_t len)
{
    if (tk->n >= MAX_TOKENS || len == 0) return;
    if (len > 31) len = 31;
    for (size_t i = 0; i < len; i++) tk->t[tk->n][i] = (char)tolower((unsigned char)s[i]);
    tk->t[tk->n][len] = '\0';
    tk->n++;
}

/* Splits at separators, lower→Upper ("UpLeg"), letter↔digit ("Spine1") and the end of a
 * capital run ("LHip" → L, Hip). */
static void split(const char *s, tokens *tk)
{
    size_t i = 0, n = strlen(s);
    while (i < n) {
        if (!isalnum((unsigned char)s[i])) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < n && isalnum((unsigned char)s[j])) {
            unsigned char a = (unsigned char)s[j - 1], b = (unsigned char)s[j];
            if (islower(a) && isupper(b)) break;
            if (isdigit(a) != isdigit(b)) break;
            if (isupper(a) && isupper(b) && j + 1 < n && islower((unsigned char)s[j + 1])) break;
            j++;
        }
        push(tk, s + i, j - i);
        i = j;
    }
}

static bool ieq_prefix(const char *s, const char *p)
{
    for (; *p; s++, p++)
        if (tolower((unsigned char)*s) != tolower((unsigned char)*p)) return false;
    return true;
}

/* After namespace prefixes ("mixamorig:", "Armature|") and Blender's DEF-/ORG- prefixes. */
static const char *strip_prefixes(const char *name, int *priority, bool *mixamo, bool *blender)
{
    const char *s = name;
    const char *c = strrchr(s, ':');
    if (c) {
        if (ieq_prefix(s, "mixamorig")) *mixamo = true;
        s = c + 1;
    }
    const char *bar = strrchr(s, '|');
    if (bar) s = bar + 1;
    *priority = 2;
    if (ieq_prefix(s, "DEF-") || ieq_prefix(s, "DEF_")) {
        s += 4;
        *blender = true;
    } else if (ieq_prefix(s, "ORG-") || ieq_prefix(s, "ORG_")) {
        s += 4;
        *priority = 1; /* Rigify's original bones: deform bones win when both exist */
        *blender = true;
    }
    return s;
}

static int side_of(const char *tok)
{
    if (strcmp(tok, "l") == 0 || strcmp(tok, "left") == 0) return 'L';
    if (strcmp(tok, "r") == 0 || strcmp(tok, "right") == 0) return 'R';
    return 0;
}

typedef struct parsed {
    int side;          /* 'L', 'R', 0 */
    char letters[96];  /* alphabetic tokens joined */
    int number;        /* the last numeric token, -1 none */
    bool skip;
    bool dotted_number; /* Blender's ".001" numbering */
    int priority;
    bool mixamo, blender, blender_side;
} parsed;

static void parse(const char *name, parsed *p)
{
    memset(p, 0, sizeof *p);
    p->number = -1;
    const char *s = strip_prefixes(name ? name : "", &p->priority, &p->mixamo, &p->blender);
    tokens tk = {0};
    split(s, &tk);
    /* Biped: "Bip01 L Thigh" */
    int first = 0;
    if (tk.n >= 2 && strcmp(tk.t[0], "bip") == 0 && isdigit((unsigned char)tk.t[1][0])) first = 2;
    for (int i = first; i < tk.n; i++) {
        const char *t = tk.t[i];
        if (!p->side && side_of(t)) {
            p->side = side_of(t);
            continue;
        }
        for (int k = 0; SKIP_TOKENS[k]; k++)
            if (strcmp(t, SKIP_TOKENS[k]) == 0) p->skip = true;
        if (isdigit((unsigned char)t[0])) {
            p->number = atoi(t);
            continue;
        }
        size_t len = strlen(p->letters);
        snprintf(p->letters + len, sizeof p->letters - len, "%s", t);
    }
    /* all-lowercase glued sides: "leftarm", "rightupleg" */
    if (!p->side) {
        if (strncmp(p->letters, "left", 4) == 0 && p->letters[4]) {
            p->side = 'L';
            memmove(p->letters, p->letters + 4, strlen(p->letters + 4) + 1);
        } else if (strncmp(p->letters, "right", 5) == 0 && p->letters[5]) {
            p->side = 'R';
            memmove(p->letters, p->letters + 5, strlen(p->letters + 5) + 1);
        }
    }
    size_t n = strlen(s);
    if (n >= 2 && s[n - 2] == '.' && (s[n - 1] == 'L' || s[n - 1] == 'R' || s[n - 1] == 'l' || s[n - 1] == 'r'))
        p->blender_side = true;
    const char *dot = strrchr(s, '.');
    if (dot && strlen(dot) == 4 && isdigit((unsigned char)dot[1]) && isdigit((unsigned char)dot[2]) &&
        isdigit((unsigned char)dot[3]))
        p->dotted_number = true;
}

void mf_hname_normalise(const char *name, char *stem, size_t size, char *side)
{
    parsed p;
    parse(name, &p);
    if (p.number >= 0) snprintf(stem, size, "%s%d", p.letters, p.number);
    else snprintf(stem, size, "%s", p.letters);
    if (side) *side = (char)p.side;
}

/* Fingers: "handthumb"/"thumb"/"fthumb" + 1…3, or VRM's "thumbproximal" … */
static int finger_bone(const parsed *p)
{
    static const char *const FINGERS[] = {"thumb", "index", "middle", "ring", "pinky", "little", NULL};
    static const int BASE[] = {MF_HB_LEFT_THUMB_METACARPAL, MF_HB_LEFT_INDEX_PROXIMAL, MF_HB_LEFT_MIDDLE_PROXIMAL,
                               MF_HB_LEFT_RING_PROXIMAL, MF_HB_LEFT_LITTLE_PROXIMAL, MF_HB_LEFT_LITTLE_PROXIMAL};
    const char *l = p->letters;
    if (strncmp(l, "hand", 4) == 0) l += 4;
    else if (strncmp(l, "finger", 6) == 0 && l[6]) l += 6;
    else if (l[0] == 'f' && l[1] && strncmp(l, "fore", 4) != 0 && strncmp(l, "foot", 4) != 0) l += 1;
    for (int f = 0; FINGERS[f]; f++) {
        size_t fl = strlen(FINGERS[f]);
        if (strncmp(l, FINGERS[f], fl) != 0) continue;
        const char *rest = l + fl;
        bool thumb = f == 0;
        int seg = -1;
        if (!*rest) {
            if (p->number >= 1 && p->number <= 3) seg = p->number - 1;
        } else if (p->number < 0) {
            if (thumb && strcmp(rest, "metacarpal") == 0) seg = 0;
            else if (strcmp(rest, "proximal") == 0) seg = thumb ? 1 : 0;
            else if (!thumb && strcmp(rest, "intermediate") == 0) seg = 1;
            else if (strcmp(rest, "distal") == 0) seg = 2;
        }
        return seg < 0 ? -1 : BASE[f] + seg;
    }
    return -1;
}

mf_hname mf_hname_classify(const char *name)
{
    mf_hname r = {MF_HN_NONE, -1, -1, 0, 0, 2};
    parsed p;
    parse(name, &p);
    r.priority = p.priority;
    if (p.skip) {
        r.kind = MF_HN_SKIP;
        return r;
    }
    if (!p.letters[0]) return r;
    int naming_mask = 0;
    if (p.side) {
        int f = finger_bone(&p);
        if (f >= 0) {
            r.kind = MF_HN_BONE;
            r.bone = p.side == 'R' ? (int)mf_humanoid_bone_mirror((mf_humanoid_bone)f) : f;
            naming_mask = NM_ALL;
        }
    }
    for (size_t i = 0; r.kind == MF_HN_NONE && i < sizeof TABLE / sizeof TABLE[0]; i++) {
        const entry *e = &TABLE[i];
        if (e->sided != (p.side != 0) || strcmp(e->letters, p.letters) != 0) continue;
        r.kind = e->kind;
        naming_mask = e->namings;
        if (e->kind == MF_HN_BONE) {
            r.bone = p.side == 'R' ? (int)mf_humanoid_bone_mirror((mf_humanoid_bone)e->bone) : e->bone;
            /* a numbered limb bone ("UpperArm2", "forearm.001") is a segment of it, not it */
            if (p.number >= 1 && e->bone != MF_HB_LEFT_TOES) r.kind = MF_HN_NONE, r.bone = -1;
            if (strcmp(e->letters, "shoulder") == 0) r.flags = MF_HNF_SHOULDER_WORD;
        } else {
            r.number = p.number;
            if (e->kind == MF_HN_SPINE && strcmp(p.letters, "spine") == 0 &&
                (p.dotted_number || (p.blender && p.number < 0)))
                r.kind = MF_HN_RIGIFY_SPINE;
        }
    }
    if (r.kind == MF_HN_NONE) return r;
    /* which convention this looks like (for the report only) */
    if (p.mixamo) naming_mask = NM_MIXAMO;
    else if (p.blender || p.blender_side || p.dotted_number) naming_mask = NM_BLENDER;
    r.namings = naming_mask;
    return r;
}
