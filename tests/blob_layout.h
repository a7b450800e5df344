/* blob_layout.h - the .ossa byte layout as docs/blob-format.md states it,
 * written from that page (not from the runtime's private format.h), for the
 * tests that build, corrupt and read blobs byte by byte. The sizes and
 * offsets asserted below are the page's: if the runtime's layout drifted
 * from its documentation, these tests would fail. */
#ifndef OSSA_TEST_BLOB_LAYOUT_H
#define OSSA_TEST_BLOB_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/math.h"

/* Header, 64 bytes at offset 0. */
typedef struct tl_header {
    uint8_t magic[8];
    uint32_t version;
    uint32_t endian;
    uint64_t total_bytes;
    uint32_t header_bytes;
    uint32_t section_count;
    uint64_t section_table_offset;
    uint32_t checksum;
    uint32_t flags;
    uint8_t reserved[16];
} tl_header;
_Static_assert(sizeof(tl_header) == 64, "the header is 64 bytes");
_Static_assert(offsetof(tl_header, checksum) == 40, "the checksum is at byte 40");
#define TL_CHECKSUM_OFFSET 40u

/* Section table entry, 32 bytes. */
typedef struct tl_section {
    uint32_t kind;
    uint32_t reserved0;
    uint64_t offset;
    uint64_t bytes;
    uint64_t reserved1;
} tl_section;
_Static_assert(sizeof(tl_section) == 32, "a section entry is 32 bytes");

#define TL_TAG(a, b, c, d) \
    ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

/* Skeleton section header, 64 bytes. */
typedef struct tl_skeleton {
    uint32_t tag, bytes, joint_count, flags, max_depth;
    uint32_t parents_offset, rest_offset, names_offset, strings_offset, strings_bytes;
    float metres_per_unit;
    uint32_t reserved[5];
} tl_skeleton;
_Static_assert(sizeof(tl_skeleton) == 64, "the skeleton header is 64 bytes");

/* Clip section header, 64 bytes. Raw clips: frames are
 * f32[frame_count][10][joint_stride]: rows tx ty tz qx qy qz qw sx sy sz.
 * Compressed clips (flag 2): frames_offset locates a tl_clip_packed. */
typedef struct tl_clip {
    uint32_t tag, bytes, joint_count, joint_stride, frame_count, flags;
    float duration, rate;
    uint32_t frames_offset, step_offset, name_offset, name_bytes;
    float error, error_time_s;
    uint32_t error_joint, tracks_offset;
} tl_clip;
_Static_assert(sizeof(tl_clip) == 64, "the clip header is 64 bytes");
#define TL_CLIP_HAS_STEP 1u
#define TL_CLIP_COMPRESSED 2u
#define TL_CLIP_USES_REST 4u
#define TL_CLIP_FULL_ROTATIONS 8u

/* A compressed clip's packed block header, 48 bytes. */
typedef struct tl_packed_block {
    uint32_t component_count, segment_shift, segment_count, flags;
    uint32_t ranges_offset, segments_offset, seg_data_offset, bits_offset, bits_bytes;
    uint32_t reserved[3];
} tl_packed_block;
_Static_assert(sizeof(tl_packed_block) == 48, "the packed block header is 48 bytes");

/* A compressed clip's header after the clip header, 80 bytes. Masks are
 * u16[rows][joint_stride / 16], rows anim T R S, const T R S, then step T R
 * S with flag 1, then the full rotations' row with flag 8. */
typedef struct tl_clip_packed {
    uint32_t masks_offset, constants_offset, constant_count, rest_crc;
    float tolerance, distance;
    uint32_t extension_offset, reserved;
    tl_packed_block block;
} tl_clip_packed;
_Static_assert(sizeof(tl_clip_packed) == 80, "the compressed clip header is 80 bytes");

/* A segment's entry: where its first frame's bits start, and its bits per
 * frame (the sum of its widths). */
typedef struct tl_packed_segment {
    uint32_t byte_offset, frame_bits;
} tl_packed_segment;

/* A clip's tracks block header, 64 bytes at tracks_offset: motion frames
 * f32[frame_count][4] (x, z, yaw, 0), float track values
 * f32[track_count][frame_count], name offsets u32[track_count]. */
typedef struct tl_tracks {
    uint32_t tag, bytes, frame_count, flags, motion_joint, motion_offset;
    uint32_t track_count, values_offset, names_offset, strings_offset, strings_bytes;
    uint32_t reserved[5];
} tl_tracks;
_Static_assert(sizeof(tl_tracks) == 64, "the tracks header is 64 bytes");
#define TL_TAG_TRACKS TL_TAG('T', 'R', 'K', 'S')
/* flags: bit 0 root motion, bit 1 packed motion. A packed motion track,
 * 96 bytes at motion_offset, its bits after it: frame f's x, z, yaw
 * residuals at bit f * frame_bits. */
typedef struct tl_packed_motion {
    float loop[4], slope[4], step[4];
    int32_t qmin[4];
    uint8_t width[4];
    uint32_t frame_bits, bits_bytes;
    uint32_t reserved[5];
} tl_packed_motion;
_Static_assert(sizeof(tl_packed_motion) == 96, "the packed motion header is 96 bytes");
enum { TL_TX, TL_TY, TL_TZ, TL_QX, TL_QY, TL_QZ, TL_QW, TL_SX, TL_SY, TL_SZ, TL_COMPONENTS };

/* Mesh section header, 96 bytes. */
typedef struct tl_mesh {
    uint32_t tag, bytes, vertex_count, index_count;
    uint32_t group_counts[4];
    uint32_t flags, stride, skin_joint_count;
    uint32_t stream_offset, joints_offset, weights_offset, indices_offset, uvs_offset;
    uint32_t colors_offset, skin_joints_offset, inverse_binds_offset, source_offset;
    uint32_t name_offset, name_bytes;
    uint32_t reserved[2];
} tl_mesh;
_Static_assert(sizeof(tl_mesh) == 96, "the mesh header is 96 bytes");
#define TL_MESH_HAS_UVS 2u

/* Joint indices stored before group g's first vertex (g = 1..4; 5: all):
 * group k holds k per vertex. */
static inline uint64_t tl_mesh_joints_before(const uint32_t counts[4], int g)
{
    uint64_t n = 0;
    for (int k = 1; k < g; ++k)
        n += (uint64_t)counts[k - 1] * (uint64_t)k;
    return n;
}

/* Weights stored before group g's first vertex: group k holds k - 1. */
static inline uint64_t tl_mesh_weights_before(const uint32_t counts[4], int g)
{
    uint64_t n = 0;
    for (int k = 2; k < g; ++k)
        n += (uint64_t)counts[k - 1] * (uint64_t)(k - 1);
    return n;
}

/* The bytes of a section (or header) at `offset` of a blob, typed. */
#define TL_AT(type, base, offset) ((type *)(void *)((unsigned char *)(base) + (offset)))
#define TL_CAT(type, base, offset) ((const type *)(const void *)((const unsigned char *)(base) + (offset)))

#endif /* OSSA_TEST_BLOB_LAYOUT_H */
