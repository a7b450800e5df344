/* make_blob_seeds.c - writes the seed corpus for blob_fuzz: small valid
 * blobs (a skeleton alone, skeleton + raw and compressed clips with STEP
 * tracks, clips alone, skinned meshes with and without a skeleton, a clip
 * with a tracks block) and a few broken ones. Run by
 * hand: make_blob_seeds DIR. */
#include <stdio.h>
#include <string.h>

#include "ossa/pipeline.h"

static int write(const char *dir, const char *name, const void *data, size_t bytes)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, bytes, f) != bytes) {
        perror(path);
        return 1;
    }
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_blob_seeds DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    ossa_raw_joint joints[4] = {
        {"root", -1, {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"a", 0, {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"b", 1, {{0, 1, 0}, {0, 0.7071068f, 0, 0.7071068f}, {1, 1, 1}}},
        {"c", 0, {{1, 0, 0}, {0, 0, 0, 1}, {2, 2, 2}}},
    };
    ossa_raw_skeleton raw = {joints, 4};
    ossa_skeleton *skeleton = NULL;
    ossa_error e;
    if (ossa_skeleton_build(&raw, NULL, &skeleton, NULL, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    float times[3] = {0.0f, 0.5f, 1.0f};
    ossa_float3 t[3] = {{0, 1, 0}, {0, 1.5f, 0}, {0, 1, 0}};
    ossa_quat q[3] = {{0, 0, 0, 1}, {0, 0, 0.3826834f, 0.9238795f}, {0, 0, 0, 1}};
    ossa_raw_joint_track tracks[2] = {
        {"a", {times, t, NULL, NULL, 3, OSSA_INTERP_LINEAR},
         {times, q, NULL, NULL, 3, OSSA_INTERP_LINEAR}, {0}},
        {"c", {times, t, NULL, NULL, 3, OSSA_INTERP_STEP}, {0}, {0}},
    };
    ossa_raw_clip raw_clip = {"wave", 0.0f, tracks, 2};
    ossa_clip_build_options options = {0};
    options.rate = 4.0f;
    options.raw = true;
    ossa_clip *clip = NULL, *packed = NULL;
    if (ossa_clip_build(&raw_clip, skeleton, &options, &clip, NULL, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    /* The same clip with root motion extracted from "a" and two float
     * tracks: a tracks block. */
    float heel[3] = {0.0f, 1.0f, 0.25f};
    const ossa_raw_float_track floats[2] = {
        {"heel", times, heel, NULL, NULL, 3, OSSA_INTERP_LINEAR},
        {"toe", times, heel, NULL, NULL, 3, OSSA_INTERP_STEP}};
    ossa_clip_build_options tracks_options = options;
    tracks_options.root_motion = OSSA_ROOT_MOTION_EXTRACT;
    tracks_options.root_motion_joint = "a";
    tracks_options.float_tracks = floats;
    tracks_options.float_track_count = 2;
    ossa_clip *tracked = NULL;
    if (ossa_clip_build(&raw_clip, skeleton, &tracks_options, &tracked, NULL, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    /* the same compressed: its motion track packed */
    ossa_clip *packed_tracked = NULL;
    tracks_options.raw = false;
    if (ossa_clip_build(&raw_clip, skeleton, &tracks_options, &packed_tracked, NULL, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    /* and compressed, with a constant and a rest-pose track beside the
     * animated ones (16 Hz: several frames per key) */
    options.raw = false;
    options.rate = 16.0f;
    if (ossa_clip_build(&raw_clip, skeleton, &options, &packed, NULL, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    /* A small skinned mesh over the skeleton: 1- to 5-influence vertices (the
     * builder reduces the last), tangents, uvs and colours. */
    ossa_float3 positions[6] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 2, 0}, {1, 2, 1}};
    ossa_float3 normals[6] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 1, 0}};
    ossa_float4 tangents[6] = {{1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, -1},
                               {1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, -1}};
    float uvs[12] = {0, 0, 1, 0, 0, 0.5f, 1, 0.5f, 0, 1, 1, 1};
    uint32_t colors[6] = {0xFF0000FFu, 0xFF00FF00u, 0xFFFF0000u, 0xFFFFFFFFu, 0xFF808080u, 0};
    uint32_t indices[12] = {0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4};
    int offsets[7] = {0, 1, 3, 6, 10, 11, 16};
    ossa_raw_influence influences[16] = {
        {0, 1}, {0, 0.5f}, {1, 0.5f}, {1, 0.2f}, {2, 0.3f}, {3, 0.5f}, {0, 0.1f}, {1, 0.2f},
        {2, 0.3f}, {3, 0.4f}, {2, 1}, {0, 0.3f}, {1, 0.25f}, {2, 0.2f}, {3, 0.15f}, {0, 0.1f}};
    ossa_raw_skin_joint skins[4] = {{"root", {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}}},
                                    {"a", {{{1, 0, 0, 0}, {0, 1, 0, -1}, {0, 0, 1, 0}}}},
                                    {"b", {{{0, 0, -1, 0}, {0, 1, 0, -2}, {1, 0, 0, 0}}}},
                                    {"c", {{{0.5f, 0, 0, -1}, {0, 0.5f, 0, 0}, {0, 0, 0.5f, 0}}}}};
    ossa_raw_mesh raw_mesh = {"patch", 6, positions, normals, tangents, uvs, colors, indices, 12,
                              offsets, influences, skins, 4};
    ossa_mesh *mesh = NULL, *bare = NULL;
    ossa_mesh_build_options bare_options = {0};
    bare_options.no_tangents = true;
    raw_mesh.colors = NULL;
    if (ossa_mesh_build(&raw_mesh, skeleton, &bare_options, &bare, NULL, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    raw_mesh.colors = colors;
    if (ossa_mesh_build(&raw_mesh, skeleton, NULL, &mesh, NULL, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    const ossa_mesh *meshes[2] = {mesh, bare};
    const ossa_clip *clips[2] = {clip, packed};
    const ossa_clip *tracked_clips[2] = {tracked, clip};
    const ossa_clip *packed_tracked_clips[1] = {packed_tracked};
    int failed = 0;
    struct {
        const char *name;
        ossa_blob_contents contents;
    } seeds[] = {
        {"skeleton", {skeleton, NULL, 0, NULL, 0}},
        {"skeleton_clip", {skeleton, clips, 1, NULL, 0}},
        {"skeleton_two_clips", {skeleton, clips, 2, NULL, 0}},
        {"clip_only", {NULL, clips, 1, NULL, 0}},
        {"skeleton_packed_clip", {skeleton, clips + 1, 1, NULL, 0}},
        {"packed_clip_only", {NULL, clips + 1, 1, NULL, 0}},
        {"empty", {NULL, NULL, 0, NULL, 0}},
        {"skeleton_clip_meshes", {skeleton, clips, 1, meshes, 2}},
        {"mesh_only", {NULL, NULL, 0, meshes, 1}},
        {"skeleton_clip_tracks", {skeleton, tracked_clips, 2, NULL, 0}},
        {"skeleton_packed_clip_tracks", {skeleton, packed_tracked_clips, 1, NULL, 0}},
    };
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; ++i) {
        void *data;
        size_t bytes;
        if (ossa_blob_write_memory(&seeds[i].contents, NULL, &data, &bytes, &e)) {
            fprintf(stderr, "%s\n", e.message);
            return 1;
        }
        failed |= write(dir, seeds[i].name, data, bytes);
        if (strcmp(seeds[i].name, "skeleton_clip") == 0) {
            failed |= write(dir, "truncated", data, bytes / 2);
            ((unsigned char *)data)[bytes / 3] ^= 0x40;
            failed |= write(dir, "bit_flip", data, bytes);
        }
        if (strcmp(seeds[i].name, "skeleton_packed_clip") == 0) {
            failed |= write(dir, "packed_truncated", data, bytes - 100);
            ((unsigned char *)data)[bytes - 200] ^= 0x08;
            failed |= write(dir, "packed_bit_flip", data, bytes);
        }
        if (strcmp(seeds[i].name, "skeleton_clip_meshes") == 0) {
            /* the meshes' section cut short, and a flipped weight bit */
            failed |= write(dir, "meshes_truncated", data, bytes - 200);
            ((unsigned char *)data)[bytes - 300] ^= 0x10;
            failed |= write(dir, "meshes_bit_flip", data, bytes);
        }
        if (strcmp(seeds[i].name, "skeleton_clip_tracks") == 0) {
            /* the tracks block cut short, and a flipped motion bit */
            failed |= write(dir, "tracks_truncated", data, bytes - 700);
            ((unsigned char *)data)[bytes - 800] ^= 0x08;
            failed |= write(dir, "tracks_bit_flip", data, bytes);
        }
        if (strcmp(seeds[i].name, "skeleton_packed_clip_tracks") == 0) {
            /* the packed motion's bits cut short, and a flipped bit in them */
            failed |= write(dir, "packed_tracks_truncated", data, bytes - 100);
            ((unsigned char *)data)[bytes - 150] ^= 0x04;
            failed |= write(dir, "packed_tracks_bit_flip", data, bytes);
        }
        ossa_free(NULL, data);
    }
    ossa_clip_free(packed_tracked, NULL);
    ossa_clip_free(tracked, NULL);
    ossa_mesh_free(mesh, NULL);
    ossa_mesh_free(bare, NULL);
    ossa_clip_free(clip, NULL);
    ossa_clip_free(packed, NULL);
    ossa_skeleton_free(skeleton, NULL);
    return failed;
}
