/* synthetic_character.c - see synthetic_character.h. Built through the
 * pipeline's own skeleton and clip builders, keys at 30 Hz. */
#include "synthetic_character.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/clip_builder.h"
#include "ossa/skeleton_builder.h"

#define PI 3.14159265358979323846
#define RATE 30

typedef struct bone {
    char name[24];
    int parent;
    float x, y, z;
} bone;

static int add(bone *b, int *n, const char *name, int parent, float x, float y, float z)
{
    snprintf(b[*n].name, sizeof b[*n].name, "%s", name);
    b[*n].parent = parent;
    b[*n].x = x, b[*n].y = y, b[*n].z = z;
    return (*n)++;
}

/* The humanoid's 53 named joints first (fewer when `joints` is smaller,
 * fingers going first), then leaves spread over the body. */
static int describe(bone *b, int joints)
{
    int n = 0;
    const int root = add(b, &n, "root", -1, 0, 0, 0);
    const int hips = add(b, &n, "hips", root, 0, 0.95f, 0);
    int spine = add(b, &n, "spine_01", hips, 0, 0.1f, 0);
    spine = add(b, &n, "spine_02", spine, 0, 0.12f, 0);
    spine = add(b, &n, "spine_03", spine, 0, 0.13f, 0);
    const int neck = add(b, &n, "neck", spine, 0, 0.14f, 0);
    const int head = add(b, &n, "head", neck, 0, 0.1f, 0.01f);
    int hands[2], anchors[8] = {head, spine, hips, root, 0, 0, 0, 0};
    for (int side = 0; side < 2; ++side) {
        const char *s = side ? "r" : "l";
        const float m = side ? -1.0f : 1.0f;
        char name[24];
        snprintf(name, sizeof name, "clavicle_%s", s);
        const int clavicle = add(b, &n, name, spine, 0.03f * m, 0.1f, 0);
        snprintf(name, sizeof name, "upper_arm_%s", s);
        const int upper = add(b, &n, name, clavicle, 0.15f * m, 0, 0);
        snprintf(name, sizeof name, "lower_arm_%s", s);
        const int lower = add(b, &n, name, upper, 0.28f * m, 0, 0);
        snprintf(name, sizeof name, "hand_%s", s);
        hands[side] = add(b, &n, name, lower, 0.25f * m, 0, 0);
        snprintf(name, sizeof name, "thigh_%s", s);
        const int thigh = add(b, &n, name, hips, 0.1f * m, -0.05f, 0);
        snprintf(name, sizeof name, "calf_%s", s);
        const int calf = add(b, &n, name, thigh, 0, -0.42f, 0);
        snprintf(name, sizeof name, "foot_%s", s);
        const int foot = add(b, &n, name, calf, 0, -0.4f, 0);
        snprintf(name, sizeof name, "toe_%s", s);
        add(b, &n, name, foot, 0, -0.05f, 0.13f);
        anchors[4 + 2 * side] = upper;
        anchors[5 + 2 * side] = thigh;
    }
    /* fingers: 5 x 3 per hand, while joints remain */
    for (int f = 0; f < 5; ++f)
        for (int side = 0; side < 2; ++side) {
            int parent = hands[side];
            for (int k = 0; k < 3 && n < joints; ++k) {
                char name[24];
                snprintf(name, sizeof name, "finger_%d_%d_%s", f, k, side ? "r" : "l");
                parent = add(b, &n, name, parent, (side ? -1.0f : 1.0f) * 0.03f,
                             0, 0.02f * (float)(f - 2));
            }
        }
    for (int k = 0; n < joints; ++k) {
        char name[24];
        snprintf(name, sizeof name, "extra_%d", k);
        add(b, &n, name, anchors[k % 8], 0.01f, 0.02f, 0.0f);
    }
    return n;
}

/* A gait of `period` seconds: joint j swings about its own axis with an
 * amplitude by body part; the legs alternate. */
static ossa_quat gait_rotation(const bone *b, int j, double t, double period)
{
    const double phase = 2.0 * PI * t / period;
    double amplitude = 0.12, offset = 0.37 * j;
    ossa_float3 axis = {(float)sin(j * 1.3), (float)cos(j * 0.7), (float)sin(j * 2.1)};
    if (strncmp(b[j].name, "thigh", 5) == 0 || strncmp(b[j].name, "calf", 4) == 0 ||
        strncmp(b[j].name, "foot", 4) == 0) {
        axis = (ossa_float3){1, 0, 0};
        amplitude = strncmp(b[j].name, "thigh", 5) == 0 ? 0.5 : 0.35;
        offset = (b[j].name[strlen(b[j].name) - 1] == 'r') ? PI : 0.0;
        if (strncmp(b[j].name, "calf", 4) == 0)
            offset += 0.5 * PI;
    }
    return ossa_quat_from_axis_angle(axis, (float)(amplitude * sin(phase + offset)));
}

ossa_result synthetic_character_build(int joints, synthetic_character *out, ossa_error *error)
{
    memset(out, 0, sizeof *out);
    if (joints < SYNTHETIC_MIN_JOINTS || joints > 4096)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "synthetic character: %d joints, must be %d..4096", joints,
                              SYNTHETIC_MIN_JOINTS);
    bone *b = calloc((size_t)joints, sizeof *b);
    ossa_raw_joint *raw = calloc((size_t)joints, sizeof *raw);
    ossa_raw_joint_track *tracks = calloc((size_t)joints, sizeof *tracks);
    const int max_keys = (int)(1.0 * RATE) + 1;
    float *times = calloc((size_t)max_keys, sizeof *times);
    ossa_quat *rot = calloc((size_t)joints * (size_t)max_keys, sizeof *rot);
    ossa_float3 *hips = calloc((size_t)max_keys, sizeof *hips);
    ossa_result r = OSSA_ERR_OUT_OF_MEMORY;
    if (!b || !raw || !tracks || !times || !rot || !hips) {
        ossa_error_set(error, r, -1, -1, "synthetic character: out of memory");
        goto fail;
    }
    describe(b, joints);
    for (int j = 0; j < joints; ++j) {
        raw[j].name = b[j].name;
        raw[j].parent = b[j].parent;
        raw[j].rest = ossa_transform_identity();
        raw[j].rest.translation = (ossa_float3){b[j].x, b[j].y, b[j].z};
    }
    ossa_raw_skeleton rs = {raw, joints};
    if ((r = ossa_skeleton_build(&rs, NULL, &out->skeleton, NULL, error)))
        goto fail;
    static const char *const names[SYNTHETIC_CLIP_COUNT] = {"walk", "jog", "run"};
    static const int frames[SYNTHETIC_CLIP_COUNT] = {30, 24, 21}; /* 1.0, 0.8, 0.7 s */
    for (int c = 0; c < SYNTHETIC_CLIP_COUNT; ++c) {
        const int keys = frames[c] + 1;
        const double period = (double)frames[c] / RATE;
        for (int k = 0; k < keys; ++k) {
            times[k] = (float)k / RATE;
            hips[k] = (ossa_float3){0, 0.95f + 0.03f * (float)cos(4 * PI * k / frames[c]), 0};
        }
        for (int j = 0; j < joints; ++j) {
            ossa_raw_joint_track *t = &tracks[j];
            memset(t, 0, sizeof *t);
            t->joint_name = b[j].name;
            for (int k = 0; k < keys; ++k)
                rot[(size_t)j * max_keys + k] = gait_rotation(b, j, times[k], period);
            t->rotation.times_s = times;
            t->rotation.values = &rot[(size_t)j * max_keys];
            t->rotation.key_count = keys;
            if (j == 1) { /* the hips bob */
                t->translation.times_s = times;
                t->translation.values = hips;
                t->translation.key_count = keys;
            }
        }
        ossa_raw_clip rc = {names[c], (float)period, tracks, joints};
        ossa_clip_build_options o = {0};
        o.rate = RATE;
        if ((r = ossa_clip_build(&rc, out->skeleton, &o, &out->clips[c], NULL, error)))
            goto fail;
    }
    r = OSSA_OK;
fail:
    free(b);
    free(raw);
    free(tracks);
    free(times);
    free(rot);
    free(hips);
    if (r != OSSA_OK)
        synthetic_character_free(out);
    return r;
}

void synthetic_character_free(synthetic_character *c)
{
    for (int k = 0; k < SYNTHETIC_CLIP_COUNT; ++k)
        ossa_clip_free(c->clips[k], NULL);
    ossa_skeleton_free(c->skeleton, NULL);
    memset(c, 0, sizeof *c);
}
