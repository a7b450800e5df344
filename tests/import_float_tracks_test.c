/* import_float_tracks_test.c - animated scalar channels imported as float
 * tracks: glTF morph target weights (LINEAR and CUBICSPLINE, written here)
 * split per target with the file's own numbers; the channels of a node
 * named by track_nodes (pab walk's "Bip01 Footsteps"), equal to the
 * imported curves; a clip built with them samples the source values at its
 * keys. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "import_gltf_writer.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

static const ossa_raw_float_track *find(const ossa_import *im, int clip, const char *name)
{
    const ossa_raw_float_tracks *l = &im->clip_float_tracks[clip];
    for (int k = 0; k < l->count; ++k)
        if (strcmp(l->tracks[k].name, name) == 0)
            return &l->tracks[k];
    return NULL;
}

TEST(gltf_morph_weights_become_a_float_track_per_target)
{
    /* node N: a translation (so it is a joint), three weights LINEAR over
     * three keys, two weights CUBICSPLINE over two keys */
    const float times[3] = {0.0f, 0.5f, 1.0f};
    const float trans[9] = {0, 0, 0, 1, 0, 0, 2, 0, 0};
    const float w3[9] = {0.0f, 1.0f, 0.25f, 0.5f, 0.0f, 0.75f, 1.0f, 0.5f, 0.0f};
    /* cubic: per key in-tangents(2), values(2), out-tangents(2) */
    const float ctimes[2] = {0.0f, 1.0f};
    const float cubic[12] = {0, 0, 0.0f, 1.0f, 2.0f, -1.0f, 1.0f, 0.5f, 1.0f, 0.0f, 0, 0};
    unsigned char bytes[256];
    size_t at = 0;
    memcpy(bytes + at, times, sizeof times), at += sizeof times;
    memcpy(bytes + at, trans, sizeof trans), at += sizeof trans;
    memcpy(bytes + at, w3, sizeof w3), at += sizeof w3;
    memcpy(bytes + at, ctimes, sizeof ctimes), at += sizeof ctimes;
    memcpy(bytes + at, cubic, sizeof cubic), at += sizeof cubic;
    const char *accessors =
        "[{\"bufferView\":0,\"byteOffset\":0,\"componentType\":5126,\"count\":3,"
        "\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
        "{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
        "{\"bufferView\":0,\"byteOffset\":48,\"componentType\":5126,\"count\":9,\"type\":\"SCALAR\"},"
        "{\"bufferView\":0,\"byteOffset\":84,\"componentType\":5126,\"count\":2,"
        "\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
        "{\"bufferView\":0,\"byteOffset\":92,\"componentType\":5126,\"count\":12,\"type\":\"SCALAR\"}]";
    const char *samplers = "[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2},"
                           "{\"input\":3,\"output\":4,\"interpolation\":\"CUBICSPLINE\"}]";
    char path[512];
    snprintf(path, sizeof path, "%s/weights.gltf", ts_temp_dir());
    for (int cubic_channel = 0; cubic_channel < 2; ++cubic_channel) {
        const char *channels =
            cubic_channel ? "[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
                            "{\"sampler\":2,\"target\":{\"node\":0,\"path\":\"weights\"}}]"
                          : "[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
                            "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"weights\"}}]";
        REQUIRE(tg_write_anim(path, accessors, NULL, samplers, channels, bytes, at, NULL, NULL) ==
                0);
        ossa_import im;
        ossa_error e;
        REQUIRE(ossa_import_file(path, NULL, &im, &e) == OSSA_OK);
        REQUIRE(im.clip_count == 1 && im.clip_float_tracks != NULL);
        const int targets = cubic_channel ? 2 : 3;
        CHECK_INT(im.clip_float_tracks[0].count, targets);
        for (int i = 0; i < targets; ++i) {
            char name[32];
            snprintf(name, sizeof name, "N.weights[%d]", i);
            const ossa_raw_float_track *t = find(&im, 0, name);
            REQUIRE(t != NULL);
            if (!cubic_channel) {
                CHECK_INT(t->key_count, 3);
                CHECK(t->interpolation == OSSA_INTERP_LINEAR);
                for (int k = 0; k < 3; ++k)
                    CHECK(t->times_s[k] == times[k] && t->values[k] == w3[3 * k + i]);
            } else {
                CHECK_INT(t->key_count, 2);
                CHECK(t->interpolation == OSSA_INTERP_CUBICSPLINE);
                for (int k = 0; k < 2; ++k)
                    CHECK(t->in_tangents[k] == cubic[6 * k + i] &&
                          t->values[k] == cubic[6 * k + 2 + i] &&
                          t->out_tangents[k] == cubic[6 * k + 4 + i]);
            }
        }
        /* built into a clip, the tracks give the file's values at its keys */
        ossa_skeleton *sk = ts_import_skeleton(&im);
        REQUIRE(sk != NULL);
        ossa_clip_build_options o = {0};
        o.rate = 10.0f;
        o.float_tracks = im.clip_float_tracks[0].tracks;
        o.float_track_count = im.clip_float_tracks[0].count;
        ossa_clip *clip = NULL;
        REQUIRE(ossa_clip_build(&im.clips[0], sk, &o, &clip, NULL, &e) == OSSA_OK);
        CHECK_INT(ossa_clip_float_track_count(clip), targets);
        for (int i = 0; i < targets; ++i) {
            const ossa_float_track v = ossa_clip_float_track(clip, i);
            for (int k = 0; k < (cubic_channel ? 2 : 3); ++k) {
                const float t = cubic_channel ? ctimes[k] : times[k];
                const float want = cubic_channel ? cubic[6 * k + 2 + i] : w3[3 * k + i];
                CHECK_NEAR(ossa_float_track_sample(&v, t), want, 1e-6);
            }
        }
        ossa_clip_free(clip, NULL);
        ossa_skeleton_free(sk, NULL);
        ossa_import_free(&im);
    }
}

TEST(named_node_channels_become_float_tracks)
{
    const char *nodes[2] = {"Bip01 Footsteps", "No Such Node"};
    ossa_import_options options = {0};
    options.track_nodes = nodes;
    options.track_node_count = 2;
    ossa_import im;
    TS_IMPORT_OR_SKIP("pab/walk.fbx", &options, &im);
    REQUIRE(im.clip_count == 1);
    const ossa_raw_joint_track *src = ossa_raw_clip_find_track(&im.clips[0], "Bip01 Footsteps");
    REQUIRE(src != NULL);
    /* every changing component, named by the node, equal to the curve */
    static const char *const what[3] = {"translation", "rotation", "scale"};
    int found = 0;
    for (int w = 0; w < 3; ++w)
        for (int c = 0; c < (w == 1 ? 4 : 3); ++c) {
            char name[96];
            snprintf(name, sizeof name, "Bip01 Footsteps.%s.%c", what[w], "xyzw"[c]);
            const ossa_raw_float_track *t = find(&im, 0, name);
            const int keys = w == 0 ? src->translation.key_count
                                    : (w == 1 ? src->rotation.key_count : src->scale.key_count);
            const float *values = w == 0   ? &src->translation.values[0].x
                                  : w == 1 ? &src->rotation.values[0].x
                                           : &src->scale.values[0].x;
            const int stride = w == 1 ? 4 : 3;
            bool changes = false;
            for (int k = 1; k < keys; ++k)
                changes |= values[k * stride + c] != values[c];
            CHECK(changes == (t != NULL));
            if (!t)
                continue;
            ++found;
            REQUIRE(t->key_count == keys);
            for (int k = 0; k < keys; ++k)
                CHECK(t->values[k] == values[k * stride + c]);
        }
    CHECK(found >= 3);
    fprintf(stderr, "'Bip01 Footsteps': %d changing channels\n", found);
    ossa_import_free(&im);
}

UTEST_MAIN(gltf_morph_weights_become_a_float_track_per_target,
           named_node_channels_become_float_tracks)
