/* format.h - the byte layout of .ossa blobs, shared by the runtime (which
 * validates and reads it) and the pipeline (which writes it). Private: users
 * see only the accessors in include/ossa/. See docs/blob-format.md. */
#ifndef OSSA_FORMAT_H
#define OSSA_FORMAT_H

#include <stdint.h>
#include <string.h>

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
/* The clip is compressed: frames_offset locates its ossai_clip_packed
 * header and step_offset is 0 (the masks hold the STEP bits). */
#define OSSAI_CLIP_PACKED 2u
/* Some track of a compressed clip is the rest pose (not stored) or an
 * animated rotation (stored relative to it): sampling needs the skeleton's
 * rest pose. */
#define OSSAI_CLIP_USES_REST 4u
/* Some animated rotation of a compressed clip stores its w as well (a mask
 * row says which): near w = 0 (half a turn from the rest rotation) a w
 * rebuilt from x, y, z would lose its precision. */
#define OSSAI_CLIP_FULL_ROTATIONS 8u
#define OSSAI_CLIP_FLAGS                                                                        \
    (OSSAI_CLIP_HAS_STEP | OSSAI_CLIP_PACKED | OSSAI_CLIP_USES_REST | OSSAI_CLIP_FULL_ROTATIONS)
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
    uint32_t frames_offset;  /* float[frame_count][OSSAI_COMPONENTS][joint_stride], 64-aligned;
                                packed: its ossai_clip_packed header, 16-aligned */
    uint32_t step_offset;    /* uint8_t[joint_count] of OSSAI_STEP_* bits; packed: 0 */
    uint32_t name_offset;    /* NUL-terminated UTF-8 */
    uint32_t name_bytes;     /* including the NUL */
    /* The builder's largest error against the source curves in the clip
     * metric (ossa/clip_builder.h), informational: model units, where. */
    float error;
    float error_time_s;
    uint32_t error_joint;    /* OSSAI_NO_ERROR_JOINT when no joint moves */
    /* The clip's tracks block (root motion, float tracks), from the clip's
     * start, 64-aligned; 0 when the clip has none. */
    uint32_t tracks_offset;
};

/* ---- compressed clips (docs/blob-format.md, docs/compression.md) ----
 *
 * A joint's translation, rotation and scale are three tracks (kinds T, R, S
 * below). Each is the rest pose (stored nowhere: the sampler takes the
 * skeleton's), constant (stored once: three floats, a rotation four), or
 * animated: its three components are quantised at every frame inside a
 * packed block - a rotation's as the rotation relative to the rest one,
 * conj(rest) q, with w >= 0 rebuilt from x y z (near 1, so precisely) or,
 * for a rotation that goes half a turn from the rest, stored as well (and
 * then kept on one hemisphere from frame to frame instead). The joint masks say which, per
 * chunk of 16 joints (u16, bit j of chunk k is joint 16 k + j): rows
 * OSSAI_MASK_ANIM + kind, OSSAI_MASK_CONST + kind, then with
 * OSSAI_CLIP_HAS_STEP OSSAI_MASK_STEP + kind, then with
 * OSSAI_CLIP_FULL_ROTATIONS the full row (ossai_mask_full_row): animated
 * rotations that store w too. A track is rest when neither its anim nor its
 * const bit is set.
 *
 * Components are numbered in record order: chunk by chunk; inside a chunk
 * kind T, R, S; inside a kind x, y, z (and for R then w, over the full
 * rotations only); inside those the chunk's joints in ascending order.
 * Constants follow the same order over the constant tracks (a rotation's
 * four components x, y, z, w). */
enum { OSSAI_KIND_T, OSSAI_KIND_R, OSSAI_KIND_S, OSSAI_KINDS };
enum { OSSAI_MASK_ANIM = 0, OSSAI_MASK_CONST = 3, OSSAI_MASK_STEP = 6 };

static inline uint32_t ossai_mask_full_row(uint32_t clip_flags)
{
    return (clip_flags & OSSAI_CLIP_HAS_STEP) ? 9u : 6u;
}

/* The joints a mask names (its set bits), portably: the validator and the
 * reports count masks with it (the kernels have their own, by instruction). */
static inline int ossai_mask_count(uint32_t mask)
{
    int n = 0;
    for (; mask; mask &= mask - 1)
        ++n;
    return n;
}

static inline uint32_t ossai_mask_rows(uint32_t clip_flags)
{
    return ossai_mask_full_row(clip_flags) + ((clip_flags & OSSAI_CLIP_FULL_ROTATIONS) ? 1u : 0u);
}
#define OSSAI_CHUNK 16u

/* The widest quantised value, in bits (float holds every integer below
 * 2^24 exactly). */
#define OSSAI_PACK_MAX_BITS 23u
/* Packed block flag: per segment ranges are stored. */
#define OSSAI_PACK_SEGMENT_RANGES 1u
/* Readable bytes after the last bit of a block's data: a decoder may load 8
 * bytes (unaligned) at any bit's byte. */
#define OSSAI_PACK_PADDING 8u
/* The largest magnitude a compressed clip stores (a constant, a component's
 * range end): decoding then never overflows. */
#define OSSAI_PACK_VALUE_LIMIT 1e37f
/* The longest segment: 1 << 16 frames. */
#define OSSAI_PACK_MAX_SHIFT 16u

/* n components over frame_count frames, cut into segments of 1 << shift
 * frames (the last may be shorter). Component k at frame f of segment s
 * (i = f - s 2^shift):
 *     ext_k = clip_extent * (sext / 255),  lo_k = clip_min + clip_extent * (smin / 255)
 *     value = lo_k + q * (ext_k * 2^-w)
 * with w the segment's width of k, q its w-bit value at bit
 * 8 * segment.byte_offset + i * segment.frame_bits + (sum of the segment's
 * widths of components before k), least significant bit first. Without
 * OSSAI_PACK_SEGMENT_RANGES, smin = 0 and sext = 255. packed_math.h holds the
 * arithmetic, operation by operation, that every decoder shares. */
typedef struct ossai_packed_block {
    uint32_t component_count;  /* n */
    uint32_t segment_shift;    /* <= OSSAI_PACK_MAX_SHIFT */
    uint32_t segment_count;    /* ceil(frame_count / 2^shift) */
    uint32_t flags;            /* OSSAI_PACK_* */
    uint32_t ranges_offset;    /* f32 clip_min[n], then f32 clip_extent[n] (>= 0); 4-aligned */
    uint32_t segments_offset;  /* ossai_packed_segment[segment_count]; 4-aligned */
    uint32_t seg_data_offset;  /* per segment: u8 widths[n], with ranges u8 smin[n], sext[n] */
    uint32_t bits_offset;      /* the bits of every segment */
    uint32_t bits_bytes;       /* their bytes, OSSAI_PACK_PADDING included */
    uint32_t reserved[3];
} ossai_packed_block;
_Static_assert(sizeof(ossai_packed_block) == 48, "the packed block header is 48 bytes");

typedef struct ossai_packed_segment {
    uint32_t byte_offset; /* of its first frame, in the block's bits */
    uint32_t frame_bits;  /* sum of its widths */
} ossai_packed_segment;

/* What follows the clip header of a compressed clip. Offsets are from the
 * clip section's start. */
typedef struct ossai_clip_packed {
    uint32_t masks_offset;     /* u16[ossai_mask_rows][joint_stride / 16], 2-aligned */
    uint32_t constants_offset; /* f32[constant_count], 4-aligned */
    uint32_t constant_count;   /* 3 per constant T or S track, 4 per R */
    uint32_t rest_crc;         /* CRC-32C of the rest pose it was built on (informational;
                                  ossa_clip_fits_skeleton) */
    float tolerance;           /* the builder's bound and distance, model units */
    float distance;
    uint32_t extension_offset; /* 0; reserved for root motion and float tracks */
    uint32_t reserved;
    ossai_packed_block block;  /* the animated components, in record order */
} ossai_clip_packed;
_Static_assert(sizeof(ossai_clip_packed) == 80, "the packed clip header is 80 bytes");

static inline const ossai_clip_packed *ossai_clip_packed_header(const struct ossa_clip *clip)
{
    return (const ossai_clip_packed *)(const void *)((const char *)clip + clip->frames_offset);
}

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

/* The tracks block of a clip (docs/blob-format.md): its root motion and
 * float tracks, raw floats at the clip's frames, behind one header. Offsets
 * are from the block's start. */
#define OSSAI_TAG_TRACKS OSSAI_TAG('T', 'R', 'K', 'S')
#define OSSAI_TRACKS_HAS_MOTION 1u
/* With OSSAI_TRACKS_HAS_MOTION: the motion is packed (ossai_packed_motion)
 * rather than raw floats. */
#define OSSAI_TRACKS_PACKED_MOTION 2u
#define OSSAI_NO_JOINT 0xFFFFFFFFu
/* Floats per root motion frame: x, z, yaw, 0. */
#define OSSAI_MOTION_C 4u
/* Most float tracks in one clip. */
#define OSSAI_MAX_FLOAT_TRACKS 4096u

typedef struct ossai_clip_tracks {
    uint32_t tag;            /* OSSAI_TAG_TRACKS */
    uint32_t bytes;          /* size of the block, header included */
    uint32_t frame_count;    /* the clip's frame_count */
    uint32_t flags;          /* OSSAI_TRACKS_* */
    uint32_t motion_joint;   /* joint the motion was taken from; OSSAI_NO_JOINT without */
    uint32_t motion_offset;  /* raw float[frame_count][4] (x, z, yaw, 0), or packed
                              * (ossai_packed_motion); 16-aligned; 0 without */
    uint32_t track_count;    /* float tracks, <= OSSAI_MAX_FLOAT_TRACKS */
    uint32_t values_offset;  /* float[track_count][frame_count], 16-aligned */
    uint32_t names_offset;   /* uint32_t[track_count]: name offsets in the strings */
    uint32_t strings_offset; /* NUL-terminated UTF-8 names */
    uint32_t strings_bytes;
    uint32_t reserved[5];    /* 0 */
} ossai_clip_tracks;
_Static_assert(sizeof(ossai_clip_tracks) == 64, "the tracks header is 64 bytes");

/* The clip's tracks block, or NULL (a validated clip). */
static inline const ossai_clip_tracks *ossai_clip_tracks_of(const struct ossa_clip *clip)
{
    return clip->tracks_offset
               ? (const ossai_clip_tracks *)(const void *)((const char *)clip +
                                                           clip->tracks_offset)
               : NULL;
}

/* The motion frames of a block with OSSAI_TRACKS_HAS_MOTION. */
static inline const float *ossai_tracks_motion(const ossai_clip_tracks *t)
{
    return (const float *)(const void *)((const char *)t + t->motion_offset);
}

/* A packed motion track, at the block's motion_offset (16-aligned), its
 * bits right after: frame f (0 < f < last = frame_count - 1) of component c
 * (x, z, yaw) is f slope[c] + (qmin[c] + u) step[c] in float arithmetic,
 * u the width[c]-bit number at bit f frame_bits + (the widths before c) of
 * the bits, least significant first; frame 0 is 0 and frame `last` is
 * loop[c] exactly (one loop's motion). The decoder reads 4 bytes at the byte
 * of each value's first bit (7 + 24 bits at most), so the bits end with 8
 * bytes of padding (4 would do; 8 since frames were read whole, when
 * frame_bits was at most 56) and frame_bits is at most 3 x 24. */
#define OSSAI_MOTION_MAX_WIDTH 24u
#define OSSAI_MOTION_MAX_FRAME_BITS 72u
typedef struct ossai_packed_motion {
    float loop[4];        /* the last frame: x, z, yaw; 0 */
    float slope[4];       /* per frame: x, z, yaw; 0 */
    float step[4];        /* the quantisation step: x, z, yaw; 0 */
    int32_t qmin[4];      /* the smallest residual, in steps; 0 */
    uint8_t width[4];     /* bits: x, z, yaw (each <= 24); 0 */
    uint32_t frame_bits;  /* width[0] + width[1] + width[2], <= 72 */
    uint32_t bits_bytes;  /* ceil(frame_count frame_bits / 8) + 8 */
    uint32_t reserved[5]; /* 0 */
} ossai_packed_motion;
_Static_assert(sizeof(ossai_packed_motion) == 96, "the packed motion header is 96 bytes");

/* Frame f of a motion track (raw or packed), x, z and yaw in out. */
static inline void ossai_tracks_motion_frame(const ossai_clip_tracks *t, uint32_t f, float out[3])
{
    if (!(t->flags & OSSAI_TRACKS_PACKED_MOTION)) {
        const float *m = ossai_tracks_motion(t) + (size_t)f * 4u;
        out[0] = m[0], out[1] = m[1], out[2] = m[2];
        return;
    }
    const ossai_packed_motion *p = (const ossai_packed_motion *)(const void *)ossai_tracks_motion(t);
    if (f == 0 || f + 1 >= t->frame_count) {
        const float k = f == 0 ? 0.0f : 1.0f;
        out[0] = p->loop[0] * k, out[1] = p->loop[1] * k, out[2] = p->loop[2] * k;
        return;
    }
    const unsigned char *bits = (const unsigned char *)(p + 1);
    uint64_t bit = (uint64_t)f * p->frame_bits;
    const float frame = (float)f;
    for (int c = 0; c < 3; ++c) {
        const uint32_t w = p->width[c];
        uint32_t word; /* as the clip decoder reads (little-endian hosts) */
        memcpy(&word, bits + (bit >> 3), sizeof word);
        const uint32_t u = (uint32_t)(((uint64_t)word >> (bit & 7u)) & ((1ull << w) - 1u));
        bit += w;
        out[c] = frame * p->slope[c] + (float)(p->qmin[c] + (int32_t)u) * p->step[c];
    }
}

/* Float track k's frame_count values. */
static inline const float *ossai_tracks_values(const ossai_clip_tracks *t, uint32_t k)
{
    return (const float *)(const void *)((const char *)t + t->values_offset) +
           (size_t)k * t->frame_count;
}

static inline const char *ossai_tracks_name(const ossai_clip_tracks *t, uint32_t k)
{
    uint32_t at;
    memcpy(&at, (const char *)t + t->names_offset + 4u * k, sizeof at);
    return (const char *)t + t->strings_offset + at;
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
