/* default_character.c - the seeds' test character, generated in code: a
 * 96-joint humanoid (1.8 units tall, y up, facing +z, T-pose rest) and three
 * looping clips (crouch, walk, run) built through the real clip builder;
 * the skinned body is generated in default_mesh*.c.
 *
 * The clips are procedural gaits: legs swing in alternation with knee flexion
 * during the swing phase, arms counter-swing, the hips bob twice per cycle
 * and sway, the spine counter-rotates. Everything is a periodic function of
 * the clip's phase, so the last frame equals the first and the clips loop.
 * Walk and run move the root forward at the speed that keeps a planted foot
 * still; the builder extracts that as root motion (the clips play in place
 * and carry the character by their motion track). */
#include "ossa/default_character.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "default_mesh.h"
#include "ossa/clip_builder.h"
#include "ossa/skeleton_builder.h"
#include "core/math_internal.h"

#define PI 3.14159265358979323846
#define DEG (PI / 180.0)
#define KEY_RATE 30
/* Rest height of the hips above the root (the ground). */
#define HIPS_Y 0.95

typedef struct joint_def {
    const char *name;
    const char *parent; /* NULL for the root */
    float x, y, z;      /* rest translation relative to the parent */
} joint_def;

/* Left side is +x (the character faces +z). Right-side joints mirror x. */
static const joint_def body[] = {
    {"root", NULL, 0.0f, 0.0f, 0.0f},
    {"hips", "root", 0.0f, (float)HIPS_Y, 0.0f},
    {"spine_01", "hips", 0.0f, 0.10f, 0.0f},
    {"spine_02", "spine_01", 0.0f, 0.12f, 0.0f},
    {"spine_03", "spine_02", 0.0f, 0.13f, 0.0f},
    {"neck_01", "spine_03", 0.0f, 0.14f, 0.0f},
    {"neck_02", "neck_01", 0.0f, 0.05f, 0.01f},
    {"head", "neck_02", 0.0f, 0.07f, 0.01f},
    /* face */
    {"jaw", "head", 0.0f, 0.0f, 0.03f},
    {"tongue_01", "jaw", 0.0f, -0.02f, 0.04f},
    {"tongue_02", "tongue_01", 0.0f, 0.0f, 0.02f},
    {"lip_upper", "head", 0.0f, 0.03f, 0.10f},
    {"lip_lower", "jaw", 0.0f, 0.01f, 0.07f},
    {"eye_l", "head", 0.032f, 0.09f, 0.08f},
    {"eye_r", "head", -0.032f, 0.09f, 0.08f},
    {"eyelid_upper_l", "eye_l", 0.0f, 0.012f, 0.012f},
    {"eyelid_lower_l", "eye_l", 0.0f, -0.012f, 0.012f},
    {"eyelid_upper_r", "eye_r", 0.0f, 0.012f, 0.012f},
    {"eyelid_lower_r", "eye_r", 0.0f, -0.012f, 0.012f},
    {"brow_inner_l", "head", 0.015f, 0.12f, 0.095f},
    {"brow_outer_l", "head", 0.045f, 0.12f, 0.085f},
    {"brow_inner_r", "head", -0.015f, 0.12f, 0.095f},
    {"brow_outer_r", "head", -0.045f, 0.12f, 0.085f},
    {"cheek_l", "head", 0.045f, 0.05f, 0.085f},
    {"cheek_r", "head", -0.045f, 0.05f, 0.085f},
    {"lip_corner_l", "head", 0.025f, 0.02f, 0.095f},
    {"lip_corner_r", "head", -0.025f, 0.02f, 0.095f},
    /* ik targets and a socket, as game rigs carry them */
    {"ik_foot_root", "root", 0.0f, 0.0f, 0.0f},
    {"ik_foot_l", "ik_foot_root", 0.10f, 0.08f, 0.0f},
    {"ik_foot_r", "ik_foot_root", -0.10f, 0.08f, 0.0f},
    {"ik_hand_root", "root", 0.0f, 0.0f, 0.0f},
    {"ik_hand_gun", "ik_hand_root", -0.71f, 1.40f, 0.0f},
    {"ik_hand_l", "ik_hand_gun", 1.42f, 0.0f, 0.0f},
    {"ik_hand_r", "ik_hand_gun", 0.0f, 0.0f, 0.0f},
};

/* One side's limbs, written for the left (+x); mirrored for the right. The
 * parent name's "%s" becomes the side suffix. */
static const joint_def limb[] = {
    {"clavicle_%s", "spine_03", 0.03f, 0.10f, 0.0f},
    {"upper_arm_%s", "clavicle_%s", 0.15f, 0.0f, 0.0f},
    {"upper_arm_twist_01_%s", "upper_arm_%s", 0.09f, 0.0f, 0.0f},
    {"upper_arm_twist_02_%s", "upper_arm_%s", 0.19f, 0.0f, 0.0f},
    {"lower_arm_%s", "upper_arm_%s", 0.28f, 0.0f, 0.0f},
    {"lower_arm_twist_01_%s", "lower_arm_%s", 0.08f, 0.0f, 0.0f},
    {"lower_arm_twist_02_%s", "lower_arm_%s", 0.17f, 0.0f, 0.0f},
    {"hand_%s", "lower_arm_%s", 0.25f, 0.0f, 0.0f},
    {"thumb_01_%s", "hand_%s", 0.03f, -0.01f, 0.03f},
    {"thumb_02_%s", "thumb_01_%s", 0.03f, 0.0f, 0.02f},
    {"thumb_03_%s", "thumb_02_%s", 0.025f, 0.0f, 0.01f},
    {"index_01_%s", "hand_%s", 0.09f, 0.0f, 0.03f},
    {"index_02_%s", "index_01_%s", 0.04f, 0.0f, 0.0f},
    {"index_03_%s", "index_02_%s", 0.025f, 0.0f, 0.0f},
    {"middle_01_%s", "hand_%s", 0.095f, 0.0f, 0.01f},
    {"middle_02_%s", "middle_01_%s", 0.045f, 0.0f, 0.0f},
    {"middle_03_%s", "middle_02_%s", 0.03f, 0.0f, 0.0f},
    {"ring_01_%s", "hand_%s", 0.09f, 0.0f, -0.01f},
    {"ring_02_%s", "ring_01_%s", 0.04f, 0.0f, 0.0f},
    {"ring_03_%s", "ring_02_%s", 0.027f, 0.0f, 0.0f},
    {"pinky_01_%s", "hand_%s", 0.08f, 0.0f, -0.03f},
    {"pinky_02_%s", "pinky_01_%s", 0.03f, 0.0f, 0.0f},
    {"pinky_03_%s", "pinky_02_%s", 0.02f, 0.0f, 0.0f},
    {"weapon_%s", "hand_%s", 0.08f, -0.03f, 0.0f},
    {"thigh_%s", "hips", 0.10f, -0.05f, 0.0f},
    {"thigh_twist_01_%s", "thigh_%s", 0.0f, -0.21f, 0.0f},
    {"calf_%s", "thigh_%s", 0.0f, -0.42f, 0.0f},
    {"calf_twist_01_%s", "calf_%s", 0.0f, -0.20f, 0.0f},
    {"foot_%s", "calf_%s", 0.0f, -0.40f, 0.0f},
    {"ball_%s", "foot_%s", 0.0f, -0.05f, 0.13f},
    {"toe_%s", "ball_%s", 0.0f, 0.0f, 0.05f},
};

#define BODY_COUNT ((int)(sizeof body / sizeof body[0]))
#define LIMB_COUNT ((int)(sizeof limb / sizeof limb[0]))
_Static_assert(sizeof body / sizeof body[0] + 2 * (sizeof limb / sizeof limb[0]) ==
                   OSSA_DEFAULT_JOINT_COUNT,
               "the default character has 96 joints");

#define NAME_BYTES 32

typedef struct raw_character {
    char names[OSSA_DEFAULT_JOINT_COUNT][NAME_BYTES];
    char parents[OSSA_DEFAULT_JOINT_COUNT][NAME_BYTES];
    ossa_raw_joint joints[OSSA_DEFAULT_JOINT_COUNT];
} raw_character;

static int find_raw(const raw_character *rc, int count, const char *name)
{
    for (int i = 0; i < count; ++i)
        if (strcmp(rc->names[i], name) == 0)
            return i;
    return -1;
}

static void describe(raw_character *rc)
{
    int n = 0;
    for (int i = 0; i < BODY_COUNT; ++i, ++n) {
        snprintf(rc->names[n], NAME_BYTES, "%s", body[i].name);
        snprintf(rc->parents[n], NAME_BYTES, "%s", body[i].parent ? body[i].parent : "");
        rc->joints[n].rest = ossa_transform_identity();
        rc->joints[n].rest.translation = (ossa_float3){body[i].x, body[i].y, body[i].z};
    }
    for (int side = 0; side < 2; ++side) {
        const char *suffix = side == 0 ? "l" : "r";
        const float mirror = side == 0 ? 1.0f : -1.0f;
        for (int i = 0; i < LIMB_COUNT; ++i, ++n) {
            snprintf(rc->names[n], NAME_BYTES, limb[i].name, suffix);
            snprintf(rc->parents[n], NAME_BYTES, limb[i].parent, suffix);
            rc->joints[n].rest = ossa_transform_identity();
            rc->joints[n].rest.translation =
                (ossa_float3){limb[i].x * mirror, limb[i].y, limb[i].z};
        }
    }
    for (int i = 0; i < n; ++i) {
        rc->joints[i].name = rc->names[i];
        rc->joints[i].parent = rc->parents[i][0] ? find_raw(rc, n, rc->parents[i]) : -1;
    }
}

/* Rest offset of a limb joint (left side) from its parent. */
static ossa_float3 limb_offset(const char *name)
{
    for (int i = 0; i < LIMB_COUNT; ++i)
        if (strcmp(limb[i].name, name) == 0)
            return (ossa_float3){limb[i].x, limb[i].y, limb[i].z};
    OSSA_ASSERT(!"no such limb joint");
    return (ossa_float3){0.0f, 0.0f, 0.0f};
}

/* ---- gaits ---- */

typedef enum gait { GAIT_CROUCH, GAIT_WALK, GAIT_RUN } gait;

static const char *const clip_names[OSSA_DEFAULT_CLIP_COUNT] = {"crouch", "walk", "run"};
/* Whole frames at 30 Hz, so the keys land on the builder's frames. */
static const int clip_frames[OSSA_DEFAULT_CLIP_COUNT] = {60, 32, 22};

typedef struct euler {
    double x, y, z; /* degrees, applied z, then y, then x (R = Rx Ry Rz) */
} euler;

static ossa_quat quat_euler(euler e)
{
    ossa_quat qx = ossa_quat_from_axis_angle((ossa_float3){1, 0, 0}, (float)(e.x * DEG));
    ossa_quat qy = ossa_quat_from_axis_angle((ossa_float3){0, 1, 0}, (float)(e.y * DEG));
    ossa_quat qz = ossa_quat_from_axis_angle((ossa_float3){0, 0, 1}, (float)(e.z * DEG));
    return ossa_quat_normalize(ossa_quat_mul(qx, ossa_quat_mul(qy, qz)));
}

static double pos(double v)
{
    return v > 0.0 ? v : 0.0;
}

/* The pose of a gait at phase p in [0, 2 pi): local rotations of the joints
 * it moves (euler angles, degrees) and the hips' translation. Joints it does
 * not name keep their rest pose. */
typedef struct gait_pose {
    double hips_y, hips_x, hips_z;
    euler hips, spine, neck, head;
    euler thigh[2], calf[2], foot[2], ball[2];
    euler clavicle[2], upper_arm[2], lower_arm[2], hand[2];
    double finger_curl[2];
    double jaw;
} gait_pose;

static ossa_quat quat_euler(euler e);

/* The left ankle relative to the hips' origin, in the hips' parent frame, for
 * a pose's hips, thigh and calf rotations (rest offsets from the tables). */
static ossa_float3 hip_to_ankle(const gait_pose *o)
{
    ossa_float3 v = limb_offset("foot_%s");
    v = ossa_quat_rotate(quat_euler(o->calf[0]), v);
    const ossa_float3 calf = limb_offset("calf_%s"), thigh = limb_offset("thigh_%s");
    v = (ossa_float3){v.x + calf.x, v.y + calf.y, v.z + calf.z};
    v = ossa_quat_rotate(quat_euler(o->thigh[0]), v);
    v = (ossa_float3){v.x + thigh.x, v.y + thigh.y, v.z + thigh.z};
    return ossa_quat_rotate(quat_euler(o->hips), v);
}

static void pose_at(gait g, double p, gait_pose *o)
{
    memset(o, 0, sizeof *o);
    const double s = sin(p), c = cos(p);
    /* Legs: side 0 (left) is at phase p, side 1 (right) half a cycle later.
     * A thigh rotation of -a about x swings the leg forward by a degrees. */
    double swing = 0, knee = 0, knee_bias = 0, arm_swing = 0, elbow = 0, lean = 0, bob = 0;
    double sway = 0, twist = 0;
    switch (g) {
    case GAIT_WALK:
        swing = 26, knee = 48, knee_bias = 6, arm_swing = 20, elbow = 22, lean = 4, bob = 0.025;
        sway = 0.02, twist = 6;
        break;
    case GAIT_RUN:
        swing = 44, knee = 95, knee_bias = 15, arm_swing = 38, elbow = 75, lean = 12, bob = 0.06;
        sway = 0.015, twist = 10;
        break;
    case GAIT_CROUCH:
    default:
        break;
    }
    if (g == GAIT_CROUCH) {
        /* Down into a deep crouch and back up, with a slow look around. The
         * hips go where the bent legs put the ankles at their rest place, so
         * the feet stay planted (and the pelvis moves back over them). */
        const double h = 0.5 - 0.5 * c; /* 0 standing, 1 crouched */
        const double alpha = 55.0 * h, gamma = 59.0 * h;
        o->spine = (euler){28.0 * h, 0, 0};
        o->neck = (euler){-12.0 * h, 8.0 * sin(2 * p), 0};
        o->head = (euler){-10.0 * h, 12.0 * sin(2 * p), 0};
        for (int side = 0; side < 2; ++side) {
            const double m = side == 0 ? 1.0 : -1.0;
            o->thigh[side] = (euler){-(alpha + 8.0 * h), 0, m * 6.0 * h};
            o->calf[side] = (euler){alpha + gamma, 0, 0};
            o->foot[side] = (euler){-gamma + 8.0 * h, 0, 0};
            o->clavicle[side] = (euler){0, 0, -m * 4.0 * h};
            o->upper_arm[side] = (euler){-35.0 * h, 0, -m * (72.0 - 10.0 * h)};
            o->lower_arm[side] = (euler){0, -m * (20.0 + 50.0 * h), 0};
            o->hand[side] = (euler){0, 0, -m * 10.0};
            o->finger_curl[side] = 15.0 + 35.0 * h;
        }
        o->jaw = 3.0 * h;
        gait_pose rest;
        memset(&rest, 0, sizeof rest);
        const ossa_float3 bent = hip_to_ankle(o), straight = hip_to_ankle(&rest);
        o->hips_y = HIPS_Y + (double)straight.y - (double)bent.y;
        o->hips_z = (double)straight.z - (double)bent.z;
        return;
    }
    o->hips_y = HIPS_Y - bob + bob * cos(2.0 * p) - (g == GAIT_RUN ? 0.06 : 0.0);
    o->hips_x = sway * s;
    o->hips = (euler){lean * 0.5, twist * s, 2.0 * s};
    o->spine = (euler){lean * 0.5, -0.7 * twist * s, -1.5 * s};
    o->neck = (euler){-lean * 0.4, 0.2 * twist * s, 0};
    o->head = (euler){-lean * 0.4 + 2.0 * sin(2.0 * p), 0.2 * twist * s, 0};
    for (int side = 0; side < 2; ++side) {
        const double m = side == 0 ? 1.0 : -1.0;
        const double ph = side == 0 ? p : p + PI;
        const double ls = sin(ph), lc = cos(ph);
        /* Knee flexes while the leg swings forward (d/dp of the swing > 0). */
        const double flex = knee_bias + knee * pow(pos(lc), 1.5);
        o->thigh[side] = (euler){-swing * ls - (g == GAIT_RUN ? 10.0 : 0.0), 0, 0};
        o->calf[side] = (euler){flex, 0, 0};
        o->foot[side] = (euler){-0.5 * flex + 0.6 * swing * ls * (ls < 0 ? 1.0 : 0.3), 0, 0};
        o->ball[side] = (euler){pos(-ls) * 25.0, 0, 0};
        /* Arms hang (rotated down about z), then swing against the same-side
         * leg; elbows bend more on the forward swing. */
        o->clavicle[side] = (euler){0, 0, -m * 3.0 * ls};
        o->upper_arm[side] = (euler){arm_swing * ls, 0, -m * 75.0};
        o->lower_arm[side] = (euler){0, -m * (elbow + 0.5 * elbow * pos(-ls)), 0};
        o->hand[side] = (euler){0, 0, -m * 8.0};
        o->finger_curl[side] = g == GAIT_RUN ? 55.0 : 20.0;
    }
    o->jaw = g == GAIT_RUN ? 4.0 + 2.0 * sin(2.0 * p) : 1.0;
}

/* Curl of a finger joint about the axis that closes the hand. */
static euler finger(int side, double curl, int segment, int thumb)
{
    const double m = side == 0 ? 1.0 : -1.0;
    double a = curl * (segment == 0 ? 0.6 : 1.0);
    return thumb ? (euler){0, -m * a * 0.5, 0} : (euler){0, 0, -m * a};
}

typedef struct track_keys {
    float times[64];
    ossa_quat rotation[64];
    ossa_float3 translation[64];
} track_keys;

static int rotation_of(const gait_pose *o, const char *name, euler *e)
{
    static const char *const side_names[2] = {"_l", "_r"};
    if (strcmp(name, "hips") == 0) return *e = o->hips, 1;
    if (strcmp(name, "spine_01") == 0 || strcmp(name, "spine_02") == 0 ||
        strcmp(name, "spine_03") == 0) {
        *e = (euler){o->spine.x / 3.0, o->spine.y / 3.0, o->spine.z / 3.0};
        return 1;
    }
    if (strcmp(name, "neck_01") == 0) return *e = o->neck, 1;
    if (strcmp(name, "head") == 0) return *e = o->head, 1;
    if (strcmp(name, "jaw") == 0) return *e = (euler){o->jaw, 0, 0}, 1;
    for (int side = 0; side < 2; ++side) {
        const char *suffix = side_names[side];
        size_t len = strlen(name);
        if (len < 3 || strcmp(name + len - 2, suffix) != 0)
            continue;
        char base[NAME_BYTES];
        snprintf(base, sizeof base, "%.*s", (int)(len - 2), name);
        if (strcmp(base, "thigh") == 0) return *e = o->thigh[side], 1;
        if (strcmp(base, "calf") == 0) return *e = o->calf[side], 1;
        if (strcmp(base, "foot") == 0) return *e = o->foot[side], 1;
        if (strcmp(base, "ball") == 0) return *e = o->ball[side], 1;
        if (strcmp(base, "clavicle") == 0) return *e = o->clavicle[side], 1;
        if (strcmp(base, "upper_arm") == 0) return *e = o->upper_arm[side], 1;
        if (strcmp(base, "lower_arm") == 0) return *e = o->lower_arm[side], 1;
        if (strcmp(base, "hand") == 0) return *e = o->hand[side], 1;
        static const char *const fingers[] = {"thumb", "index", "middle", "ring", "pinky"};
        for (int f = 0; f < 5; ++f)
            for (int seg = 0; seg < 3; ++seg) {
                char fname[NAME_BYTES];
                snprintf(fname, sizeof fname, "%s_%02d", fingers[f], seg + 1);
                if (strcmp(base, fname) == 0)
                    return *e = finger(side, o->finger_curl[side], seg, f == 0), 1;
            }
    }
    return 0;
}

/* How fast a gait carries the body forward, so that a foot on the ground
 * stays put: the speed at which the left ankle moves back relative to the
 * hips over the middle of its stance (phases 3/4 pi .. 5/4 pi, around the
 * leg's vertical at pi), from the clip's own joint angles. */
static double stride_speed(gait g)
{
    if (g == GAIT_CROUCH)
        return 0.0;
    const double period = (double)clip_frames[g] / KEY_RATE;
    gait_pose before, after;
    pose_at(g, 0.75 * PI, &before);
    pose_at(g, 1.25 * PI, &after);
    const double dz = (double)hip_to_ankle(&before).z - hip_to_ankle(&after).z;
    return dz / (0.5 * PI) * (2.0 * PI / period);
}

static ossa_result build_clip(gait g, const ossa_skeleton *skeleton,
                              const ossa_allocator *allocator, ossa_clip **out,
                              ossa_error *error)
{
    const int joints = ossa_skeleton_joint_count(skeleton);
    const int frames = clip_frames[g];
    const int keys = frames + 1;
    track_keys *tk = ossa_alloc(allocator, sizeof(track_keys) * (size_t)joints, 16);
    ossa_raw_joint_track *tracks = ossa_alloc(allocator, sizeof(ossa_raw_joint_track) * (size_t)joints, 16);
    if (!tk || !tracks) {
        ossa_free(allocator, tk);
        ossa_free(allocator, tracks);
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "default character: out of memory");
    }
    memset(tracks, 0, sizeof(ossa_raw_joint_track) * (size_t)joints);
    int track_count = 0;
    gait_pose pose;
    for (int j = 0; j < joints; ++j) {
        const char *name = ossa_skeleton_joint_name(skeleton, j);
        euler e;
        pose_at(g, 0.0, &pose);
        int animated = rotation_of(&pose, name, &e);
        int is_hips = strcmp(name, "hips") == 0;
        if (!animated && !is_hips)
            continue;
        track_keys *k = &tk[track_count];
        ossa_raw_joint_track *t = &tracks[track_count++];
        t->joint_name = name;
        for (int f = 0; f < keys; ++f) {
            /* The last key repeats the first: phase 2 pi == 0. */
            const double p = 2.0 * PI * (double)(f % frames) / frames;
            pose_at(g, p, &pose);
            k->times[f] = (float)f / KEY_RATE;
            rotation_of(&pose, name, &e);
            k->rotation[f] = quat_euler(e);
            k->translation[f] = (ossa_float3){(float)pose.hips_x, (float)pose.hips_y,
                                              (float)pose.hips_z};
        }
        t->rotation = (ossa_raw_track_quat){k->times, k->rotation, NULL, NULL, keys,
                                            OSSA_INTERP_LINEAR};
        if (is_hips)
            t->translation = (ossa_raw_track3){k->times, k->translation, NULL, NULL, keys,
                                               OSSA_INTERP_LINEAR};
    }
    /* Walking and running carry the root forward at the stride's speed;
     * the builder takes that out again as root motion (crouching stays). */
    const double speed = stride_speed(g);
    ossa_float3 *forward = NULL;
    if (speed > 0.0) {
        forward = ossa_alloc(allocator, sizeof *forward * (size_t)keys, 16);
        if (!forward) {
            ossa_free(allocator, tk);
            ossa_free(allocator, tracks);
            return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                                  "default character: out of memory");
        }
        for (int f = 0; f < keys; ++f)
            forward[f] = (ossa_float3){0.0f, 0.0f, (float)(speed * f / KEY_RATE)};
        ossa_raw_joint_track *t = &tracks[track_count++];
        memset(t, 0, sizeof *t);
        t->joint_name = "root";
        t->translation = (ossa_raw_track3){tk[0].times, forward, NULL, NULL, keys,
                                           OSSA_INTERP_LINEAR};
    }
    ossa_raw_clip raw = {clip_names[g], (float)frames / KEY_RATE, tracks, track_count};
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.rate = KEY_RATE;
    options.raw = true; /* the seeds' test character keeps raw keys (benchmarks compare them) */
    if (speed > 0.0) {
        options.root_motion = OSSA_ROOT_MOTION_EXTRACT;
        options.root_motion_joint = "root";
    }
    if (allocator)
        options.allocator = *allocator;
    ossa_result r = ossa_clip_build(&raw, skeleton, &options, out, NULL, error);
    ossa_free(allocator, tk);
    ossa_free(allocator, tracks);
    ossa_free(allocator, forward);
    return r;
}

ossa_result ossa_default_character_build(ossa_default_character *out,
                                         const ossa_allocator *allocator, ossa_error *error)
{
    ossa_error_clear(error);
    if (!out)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1,
                              "default character: no output");
    memset(out, 0, sizeof *out);
    raw_character *rc = ossa_alloc(allocator, sizeof *rc, 16);
    if (!rc)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "default character: out of memory");
    describe(rc);
    ossa_raw_skeleton raw = {rc->joints, OSSA_DEFAULT_JOINT_COUNT};
    ossa_skeleton_build_options options;
    memset(&options, 0, sizeof options);
    if (allocator)
        options.allocator = *allocator;
    ossa_result r = ossa_skeleton_build(&raw, &options, &out->skeleton, NULL, error);
    ossa_free(allocator, rc);
    for (int g = 0; r == OSSA_OK && g < OSSA_DEFAULT_CLIP_COUNT; ++g)
        r = build_clip((gait)g, out->skeleton, allocator, &out->clips[g], error);
    if (r == OSSA_OK)
        r = ossai_default_mesh_build(out->skeleton, allocator, &out->mesh, NULL, error);
    if (r != OSSA_OK)
        ossa_default_character_free(out, allocator);
    return r;
}

void ossa_default_character_free(ossa_default_character *character,
                                 const ossa_allocator *allocator)
{
    if (!character)
        return;
    for (int g = 0; g < OSSA_DEFAULT_CLIP_COUNT; ++g)
        ossa_clip_free(character->clips[g], allocator);
    ossa_mesh_free(character->mesh, allocator);
    ossa_skeleton_free(character->skeleton, allocator);
    memset(character, 0, sizeof *character);
}
