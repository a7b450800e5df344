/* format.h - the byte layout of .ossa blobs, shared by the runtime (which
 * validates and reads it) and the pipeline (which writes it). Private: users
 * see only the accessors in include/ossa/. See docs/blob-format.md. */
#ifndef OSSA_FORMAT_H
#define OSSA_FORMAT_H

#include <stdint.h>

#include "ossa/blob.h"

#define OSSAI_MAGIC_BYTES "OSSA\r\n\x1a\n"
#define OSSAI_ENDIAN_TAG 0x01020304u
#define OSSAI_TAG(a, b, c, d) \
    ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))
#define OSSAI_TAG_SKELETON OSSAI_TAG('S', 'K', 'E', 'L')
#define OSSAI_TAG_CLIP OSSAI_TAG('C', 'L', 'I', 'P')
#define OSSAI_TAG_MESH OSSAI_TAG('M', 'E', 'S', 'H')

/* Blob header: 64 bytes at offset 0. */
typedef struct ossai_blob_header {
    uint8_t magic[8];              /* OSSAI_MAGIC_BYTES */
    uint32_t version;              /* OSSA_BLOB_VERSION */
    uint32_t endian;               /* OSSAI_ENDIAN_TAG as the writer stored it */
    uint64_t total_bytes;          /* size of the whole blob */
    uint32_t header_bytes;         /* sizeof(ossai_blob_header) */
    uint32_t section_count;
    uint64_t section_table_offset; /* == header_bytes */
    uint32_t checksum;             /* CRC-32C of the blob with this field as 0 */
    uint32_t flags;                /* 0 */
    uint8_t reserved[16];          /* 0 */
} ossai_blob_header;

#define OSSAI_CHECKSUM_OFFSET 40u

/* Section table entry: 32 bytes. Sections are sorted: the skeleton (at most
 * one) first, then clips, then meshes; they do not overlap. */
typedef struct ossai_section {
    uint32_t kind;     /* ossa_section_kind */
    uint32_t reserved0;
    uint64_t offset;   /* from the blob's start, multiple of 64 */
    uint64_t bytes;
    uint64_t reserved1;
} ossai_section;

/* Every section starts with its own header; offsets inside a section are
 * from the section's start, so a section can be copied out alone. */

#define OSSAI_SKELETON_BREADTH_FIRST 1u

struct ossa_skeleton {
    uint32_t tag;            /* OSSAI_TAG_SKELETON */
    uint32_t bytes;          /* size of the section */
    uint32_t joint_count;    /* 1..OSSA_MAX_JOINTS */
    uint32_t flags;          /* OSSAI_SKELETON_* */
    uint32_t max_depth;
    uint32_t parents_offset; /* hot:  uint16_t[joint_count], 16-aligned */
    uint32_t rest_offset;    /* hot:  ossa_transform[joint_count], 16-aligned */
    uint32_t names_offset;   /* cold: uint32_t[joint_count], name offsets in strings */
    uint32_t strings_offset; /* cold: NUL-terminated UTF-8 names */
    uint32_t strings_bytes;
    float metres_per_unit;   /* length of one unit in metres, 0 when unknown */
    uint32_t reserved[5];
};

/* Components of one frame row, in order. */
enum {
    OSSAI_TX, OSSAI_TY, OSSAI_TZ,
    OSSAI_QX, OSSAI_QY, OSSAI_QZ, OSSAI_QW,
    OSSAI_SX, OSSAI_SY, OSSAI_SZ,
    OSSAI_COMPONENTS
};

/* Rows are padded to a multiple of this many joints (64 bytes). */
#define OSSAI_CLIP_JOINT_ALIGN 16u

#define OSSAI_CLIP_HAS_STEP 1u
#define OSSAI_NO_ERROR_JOINT 0xFFFFFFFFu
/* Bits of the per-joint step byte: the track holds instead of interpolating. */
#define OSSAI_STEP_T 1u
#define OSSAI_STEP_R 2u
#define OSSAI_STEP_S 4u

struct ossa_clip {
    uint32_t tag;            /* OSSAI_TAG_CLIP */
    uint32_t bytes;
    uint32_t joint_count;
    uint32_t joint_stride;   /* floats per component row, joint_count rounded up to 16 */
    uint32_t frame_count;    /* >= 1 */
    uint32_t flags;          /* OSSAI_CLIP_* */
    float duration;          /* seconds; > 0 when frame_count >= 2 */
    float rate;              /* (frame_count - 1) / duration, 0 when frame_count == 1 */
    uint32_t frames_offset;  /* float[frame_count][OSSAI_COMPONENTS][joint_stride], 64-aligned */
    uint32_t step_offset;    /* uint8_t[joint_count] of OSSAI_STEP_* bits */
    uint32_t name_offset;    /* NUL-terminated UTF-8 */
    uint32_t name_bytes;     /* including the NUL */
    /* The builder's largest error against the source curves in the clip
     * metric (ossa/clip_builder.h), informational: model units, where. */
    float error;
    float error_time_s;
    uint32_t error_joint;    /* OSSAI_NO_ERROR_JOINT when no joint moves */
    uint32_t reserved;
};

/* Floats in one frame. */
static inline uint32_t ossai_clip_frame_floats(const struct ossa_clip *clip)
{
    return OSSAI_COMPONENTS * clip->joint_stride;
}

static inline const float *ossai_clip_frames(const struct ossa_clip *clip)
{
    return (const float *)(const void *)((const char *)clip + clip->frames_offset);
}

static inline const uint8_t *ossai_clip_steps(const struct ossa_clip *clip)
{
    return (const uint8_t *)clip + clip->step_offset;
}

/* Mesh section (seed 002's layout). Hot data first: the bind-pose skinned
 * stream, then the influence joints and weights skinning reads with it; then
 * what the renderer reads once (indices, static stream) and the cold data.
 *
 * Vertices are grouped by influence count: group g (g = 1..4) holds
 * group_counts[g - 1] vertices, in that order. The joints array holds g
 * uint16 skin-joint indices per vertex of group g, groups one after the
 * other; the weights array holds g - 1 floats per vertex of group g (none for
 * group 1), the last weight being 1 - their sum. */
#define OSSAI_MESH_HAS_TANGENTS 1u
#define OSSAI_MESH_HAS_UVS 2u
#define OSSAI_MESH_HAS_COLORS 4u
#define OSSAI_MESH_FLAGS (OSSAI_MESH_HAS_TANGENTS | OSSAI_MESH_HAS_UVS | OSSAI_MESH_HAS_COLORS)
/* Alignment of the skinned stream in a section (a cache line). */
#define OSSAI_MESH_STREAM_ALIGN 64u
/* A stored weight sum may exceed 1 by this much (rounding in the builder). */
#define OSSAI_WEIGHT_SUM_TOLERANCE 1e-4f

struct ossa_mesh {
    uint32_t tag;                  /* OSSAI_TAG_MESH */
    uint32_t bytes;                /* size of the section */
    uint32_t vertex_count;         /* >= 1, = the sum of group_counts */
    uint32_t index_count;          /* 3 * triangles, >= 3 */
    uint32_t group_counts[4];      /* vertices with 1, 2, 3, 4 influences */
    uint32_t flags;                /* OSSAI_MESH_* */
    uint32_t stride;               /* bytes per skinned vertex: 32, or 48 with tangents */
    uint32_t skin_joint_count;     /* 1..65535 */
    uint32_t stream_offset;        /* hot: float[vertex_count][stride / 4], 64-aligned */
    uint32_t joints_offset;        /* hot: uint16_t, grouped as above, 16-aligned */
    uint32_t weights_offset;       /* hot: float, grouped as above, 16-aligned */
    uint32_t indices_offset;       /* uint32_t[index_count], 16-aligned */
    uint32_t uvs_offset;           /* float[vertex_count][2]; 0 without OSSAI_MESH_HAS_UVS */
    uint32_t colors_offset;        /* uint32_t[vertex_count]; 0 without OSSAI_MESH_HAS_COLORS */
    uint32_t skin_joints_offset;   /* uint16_t[skin_joint_count]: skeleton joints */
    uint32_t inverse_binds_offset; /* ossa_mat34[skin_joint_count], 16-aligned */
    uint32_t source_offset;        /* cold: uint32_t[vertex_count], runtime -> source vertex */
    uint32_t name_offset;          /* cold: NUL-terminated UTF-8 */
    uint32_t name_bytes;           /* including the NUL */
    uint32_t reserved[2];
};
_Static_assert(sizeof(struct ossa_mesh) == 96, "the mesh header is 96 bytes");

/* Joints and weights stored before group g's first vertex (g = 1..4). */
static inline uint64_t ossai_mesh_joints_before(const uint32_t counts[4], int g)
{
    uint64_t n = 0;
    for (int k = 1; k < g; ++k)
        n += (uint64_t)counts[k - 1] * (uint64_t)k;
    return n;
}

static inline uint64_t ossai_mesh_weights_before(const uint32_t counts[4], int g)
{
    uint64_t n = 0;
    for (int k = 2; k < g; ++k)
        n += (uint64_t)counts[k - 1] * (uint64_t)(k - 1);
    return n;
}

static inline uint32_t ossai_align_up(uint32_t value, uint32_t alignment)
{
    return (value + alignment - 1u) & ~(alignment - 1u);
}

#endif /* OSSA_FORMAT_H */
