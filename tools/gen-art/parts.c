/* The mannequin's parts: a side view facing +x, limbs drawn along +x from their proximal joint
 * (so a Region sits on its bone with rot 0), head, neck, torso and pelvis drawn upright.
 * examples/mannequin/mannequin.mskel places each image so that the joint points noted here land
 * on the bones: change both together (tests/test_example_art.c checks the sizes).
 * Coordinates are pixels from the image's top-left corner; PAD keeps the anti-aliased edge
 * inside the image. */
#include <stdlib.h>

#include "gen_art.h"
#include "raster.h"

#define PAD 2.0

/* Light beech-wood mannequin, dark brown outline, slightly darker ball joints. */
static const mf_art_style BODY = {0xe2c4a0, 0x5c4230, 1.4, 5.0, 0.7};
static const mf_art_style JOINT = {0xc9a57e, 0x5c4230, 1.0, 3.0, 0.75};
static const uint32_t INK = 0x5c4230;

static mf_art_shape ellipse(double cx, double cy, double rx, double ry)
{
    return (mf_art_shape){MF_ART_ELLIPSE, cx, cy, 0, 0, rx, ry};
}
static mf_art_shape capsule(double ax, double ay, double bx, double by, double r0, double r1)
{
    return (mf_art_shape){MF_ART_CAPSULE, ax, ay, bx, by, r0, r1};
}
static mf_art_shape rbox(double cx, double cy, double hw, double hh, double r)
{
    return (mf_art_shape){MF_ART_RBOX, cx, cy, hw, hh, r, 0};
}

/* A limb segment: a capsule of length len from the joint at (PAD + r0, h / 2), narrowing from
 * r0 to r1, with a ball joint at the proximal end. Image size: 2 PAD + r0 + len + r1 by
 * 2 PAD + 2 r0. */
static void limb(mf_art_canvas *c, double len, double r0, double r1)
{
    double x0 = PAD + r0, cy = c->h / 2.0;
    mf_art_shape s = capsule(x0, cy, x0 + len, cy, r0, r1);
    mf_art_body(c, &s, 1, 0, &BODY);
    mf_art_shape ball = ellipse(x0, cy, r0 * 0.5, r0 * 0.5);
    mf_art_body(c, &ball, 1, 0, &JOINT);
}

static void draw_shadow(mf_art_canvas *c)
{
    mf_art_shape s = ellipse(42, 7, 39, 5.5);
    mf_art_soft(c, &s, 0x201810, 0.35, 4);
}

static void draw_head(mf_art_canvas *c)
{
    /* an egg: cranium at the back, a smaller face ellipse forward and down for the jaw; the
     * image centre sits 15 px up the head bone, so the chin overlaps the neck */
    mf_art_shape s[] = {ellipse(15, 16, 12.5, 13.5), ellipse(19.5, 23, 9, 9.5)};
    mf_art_body(c, s, 2, 5, &BODY);
    mf_art_shape ear = ellipse(12.5, 18, 2.5, 3.5);
    mf_art_flat(c, &ear, 1, JOINT.fill, 0.9);
    mf_art_shape eye = ellipse(22.5, 16.5, 1.4, 2.0);
    mf_art_flat(c, &eye, 1, INK, 1);
}

static void draw_neck(mf_art_canvas *c)
{
    mf_art_shape s = capsule(6, 5, 6, 13, 4, 4);
    mf_art_body(c, &s, 1, 0, &BODY);
}

static void draw_torso(mf_art_canvas *c)
{
    /* chest forward (+x), narrower waist; the mesh covers the whole image, its bottom edge
     * 2 px below the hips bone and its waist row (y 54) where it bends */
    mf_art_shape s[] = {ellipse(21, 22, 15, 19), rbox(19, 50, 11.5, 19, 9)};
    mf_art_body(c, s, 2, 10, &BODY);
}

static void draw_pelvis(mf_art_canvas *c)
{
    /* centred 1 px ahead of the hips bone; the thighs start at (17, 18) */
    mf_art_shape s[] = {ellipse(18, 13, 14.5, 9.5), rbox(18, 17, 12.5, 8, 6)};
    mf_art_body(c, s, 2, 4, &BODY);
}

static void draw_upper_arm(mf_art_canvas *c) { limb(c, 44, 9, 7); }
static void draw_forearm(mf_art_canvas *c) { limb(c, 40, 7, 5); }
static void draw_thigh(mf_art_canvas *c) { limb(c, 54, 12, 8); }
static void draw_shin(mf_art_canvas *c) { limb(c, 50, 8, 6); }

static void draw_hand(mf_art_canvas *c)
{
    /* wrist at (3, 8); the thumb is on the image's top edge, the front of a hanging arm */
    mf_art_shape s[] = {ellipse(10.5, 8.5, 6.5, 5.2), ellipse(15.5, 9, 4.5, 4.2),
                        capsule(8, 5.5, 12.5, 3.6, 1.8, 1.8)};
    mf_art_body(c, s, 3, 2, &BODY);
}

static void draw_foot(mf_art_canvas *c)
{
    /* ankle at (10, 4), sole on y = 14, toes towards +x */
    mf_art_shape s[] = {ellipse(10, 6, 5, 5), rbox(20, 10, 16.5, 4, 4), ellipse(30.5, 10, 6.5, 4),
                        ellipse(7.5, 9.5, 4.5, 4.5)};
    mf_art_body(c, s, 4, 3, &BODY);
}

typedef struct part {
    const char *name;
    int w, h;
    void (*draw)(mf_art_canvas *c);
} part;

static const part PARTS[] = {
    {"shadow", 84, 14, draw_shadow},
    {"head", 32, 36, draw_head},
    {"neck", 12, 18, draw_neck},
    {"torso", 40, 72, draw_torso},
    {"pelvis", 36, 28, draw_pelvis},
    {"upper_arm", 64, 22, draw_upper_arm},
    {"forearm", 56, 18, draw_forearm},
    {"hand", 22, 16, draw_hand},
    {"thigh", 78, 28, draw_thigh},
    {"shin", 68, 20, draw_shin},
    {"foot", 40, 16, draw_foot},
};
#define PART_COUNT ((int)(sizeof PARTS / sizeof PARTS[0]))

int mf_art_part_count(void) { return PART_COUNT; }

const char *mf_art_part_name(int index)
{
    return index >= 0 && index < PART_COUNT ? PARTS[index].name : NULL;
}

int mf_art_render(int index, mf_art_image *out)
{
    out->width = out->height = 0;
    out->rgba = NULL;
    if (index < 0 || index >= PART_COUNT) return -1;
    const part *p = &PARTS[index];
    mf_art_canvas c;
    if (!mf_art_canvas_init(&c, p->w, p->h)) return -1;
    p->draw(&c);
    out->rgba = malloc((size_t)p->w * (size_t)p->h * 4);
    if (!out->rgba) {
        mf_art_canvas_free(&c);
        return -1;
    }
    mf_art_canvas_rgba8(&c, out->rgba);
    mf_art_canvas_free(&c);
    out->width = p->w;
    out->height = p->h;
    return 0;
}

void mf_art_image_free(mf_art_image *img)
{
    free(img->rgba);
    img->rgba = NULL;
}
