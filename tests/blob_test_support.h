/* blob_test_support.h - shared by the blob tests (blob_test.c,
 * blob_corruption_test.c): an independent bitwise CRC-32C, the blob under
 * test, and opening an exact-size copy of bytes (so that ASan catches a
 * read past them) with the checks every open must pass. */
#ifndef OSSA_BLOB_TEST_SUPPORT_H
#define OSSA_BLOB_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "blob_layout.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* ---- an independent CRC-32C: bit by bit, reflected polynomial 0x82F63B78 ---- */

static inline uint32_t crc_reference(const void *data, size_t bytes)
{
    const unsigned char *p = data;
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < bytes; ++i) {
        crc ^= p[i];
        for (int b = 0; b < 8; ++b)
            crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* The checksum a blob should carry: the CRC of the blob with the field zeroed. */
static inline uint32_t crc_reference_sealed(const unsigned char *blob, size_t bytes)
{
    unsigned char *copy = malloc(bytes);
    memcpy(copy, blob, bytes);
    memset(copy + TL_CHECKSUM_OFFSET, 0, 4);
    const uint32_t crc = crc_reference(copy, bytes);
    free(copy);
    return crc;
}

/* Recomputes a blob's checksum (the CRC of the blob with its field zeroed),
 * so that a corruption reaches the structural checks behind it. */
static inline void reseal(unsigned char *blob, size_t bytes)
{
    memset(blob + TL_CHECKSUM_OFFSET, 0, 4);
    uint32_t crc = crc_reference(blob, bytes);
    memcpy(blob + TL_CHECKSUM_OFFSET, &crc, 4);
}

/* ---- the blob under test: a skeleton and two clips (one with STEP) ---- */

typedef struct fixture {
    ossa_skeleton *skeleton;
    ossa_clip *clips[2];
    unsigned char *data;
    size_t bytes;
} fixture;

static inline bool fixture_make(fixture *f, bool with_skeleton)
{
    memset(f, 0, sizeof *f);
    ts_rng r = ts_rng_make(201);
    uint16_t parents[7];
    ossa_transform rest[7], keys[7 * 9];
    ts_parents(&r, 7, 2, parents);
    for (int j = 0; j < 7; ++j)
        rest[j] = ts_transform(&r, TS_SCALE_ANY);
    for (int k = 0; k < 7 * 9; ++k)
        keys[k] = ts_transform(&r, TS_SCALE_ANY);
    const uint8_t step[7] = {0, 1, 2, 4, 7, 0, 3};
    f->skeleton = ts_skeleton_make(parents, rest, 7);
    if (!f->skeleton)
        return false;
    f->clips[0] = ts_clip_make(f->skeleton, keys, 9, 24.0f, NULL, "idle");
    f->clips[1] = ts_clip_make(f->skeleton, keys, 5, 10.0f, step, "wave");
    const ossa_clip *clips[2] = {f->clips[0], f->clips[1]};
    ossa_blob_contents contents = {with_skeleton ? f->skeleton : NULL, clips, 2, NULL, 0};
    void *data = NULL;
    if (!f->clips[0] || !f->clips[1] ||
        ossa_blob_write_memory(&contents, NULL, &data, &f->bytes, NULL) != OSSA_OK)
        return false;
    f->data = data;
    return true;
}

static inline void fixture_free(fixture *f)
{
    ossa_free(NULL, f->data);
    ossa_clip_free(f->clips[0], NULL);
    ossa_clip_free(f->clips[1], NULL);
    ossa_skeleton_free(f->skeleton, NULL);
}

/* Everything a caller may read from an opened blob, read. */
static inline void use_blob(const ossa_blob *blob)
{
    if (blob->skeleton)
        for (int j = 0; j < ossa_skeleton_joint_count(blob->skeleton); ++j)
            (void)strlen(ossa_skeleton_joint_name(blob->skeleton, j));
    for (int c = 0; c < blob->clip_count; ++c) {
        const ossa_clip *clip = ossa_blob_clip(blob, c);
        const float d = ossa_clip_duration(clip);
        for (int j = 0; j < ossa_clip_joint_count(clip); ++j)
            for (int k = 0; k <= 4; ++k)
                (void)ossa_clip_sample_joint(clip, NULL, j, d * (float)k / 4, OSSA_ROTATION_SLERP);
        (void)strlen(ossa_clip_name(clip));
    }
}

/* Opens an exact-size copy; checks the code, that a failure leaves the blob
 * zeroed and says something, and that a success is safe to use. */
static inline ossa_result open_copy(const unsigned char *data, size_t bytes, unsigned flags,
                                    ossa_error *error)
{
    void *copy = ts_exact_copy(data, bytes);
    ossa_blob blob;
    memset(&blob, 0xAB, sizeof blob);
    ossa_result r = ossa_blob_open(&blob, copy, bytes, flags, error);
    if (r == OSSA_OK) {
        use_blob(&blob);
    } else {
        ossa_blob zero;
        memset(&zero, 0, sizeof zero);
        CHECK(memcmp(&blob, &zero, sizeof blob) == 0);
        CHECK(error->code == r && error->message[0] != '\0');
    }
    free(copy);
    return r;
}

#endif /* OSSA_BLOB_TEST_SUPPORT_H */
