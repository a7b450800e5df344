/* blob_tracks_test.c - a clip's tracks block (root motion and float tracks,
 * docs/blob-format.md) on bad bytes: every field corrupted is refused with
 * its own code and a message naming it, a blob truncated at every length is
 * refused, and any byte flipped (then resealed) is refused or safe to use;
 * for raw motion floats and for a packed motion track.
 * The layout is read through blob_layout.h, written from the page. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob_layout.h"
#include "blob_test_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

typedef struct tracks_fixture {
    ossa_skeleton *skeleton;
    ossa_clip *clip;
    unsigned char *data;
    size_t bytes;
    uint64_t clip_at;  /* the clip section, from the blob's start */
    uint64_t block_at; /* the tracks block, from the blob's start */
    tl_tracks header;
} tracks_fixture;

/* A three-joint skeleton and a clip whose root walks: root motion and two
 * float tracks ("heel" and "toe") over 9 frames; a raw clip (raw motion
 * floats) or a compressed one (packed motion). The walk sways off its
 * straight line by `sway` across (x), `side` along (z) and `turn` radians
 * of heading: the residuals the packed track stores. */
static int tracks_fixture_make_swaying(tracks_fixture *f, bool packed, float sway, float side,
                                       float turn)
{
    memset(f, 0, sizeof *f);
    ossa_raw_joint joints[3] = {{"root", -1, ossa_transform_identity()},
                                {"leg", 0, ossa_transform_identity()},
                                {"foot", 1, ossa_transform_identity()}};
    ossa_raw_skeleton rs = {joints, 3};
    ossa_error e;
    if (ossa_skeleton_build(&rs, NULL, &f->skeleton, NULL, &e) != OSSA_OK)
        return 0;
    float times[9], heel[9], toe[3] = {0.0f, 1.0f, 0.0f}, toe_times[3] = {0.0f, 0.5f, 1.0f};
    ossa_float3 t[9];
    ossa_quat r[9];
    for (int k = 0; k < 9; ++k) {
        times[k] = (float)k / 8.0f;
        /* a sway off the straight line: residuals the packed track stores */
        t[k] = (ossa_float3){0.1f * (float)k + sway * (float)(k % 3), 1.0f,
                             0.3f * (float)k + side * (float)(k % 2)};
        r[k] = ossa_quat_from_axis_angle((ossa_float3){0, 1, 0},
                                         0.05f * (float)k + (k % 3 == 1 ? turn : 0.0f));
        heel[k] = (float)(k % 4) * 0.25f;
    }
    ossa_raw_joint_track track = {0};
    track.joint_name = "root";
    track.translation = (ossa_raw_track3){times, t, NULL, NULL, 9, OSSA_INTERP_LINEAR};
    track.rotation = (ossa_raw_track_quat){times, r, NULL, NULL, 9, OSSA_INTERP_LINEAR};
    const ossa_raw_float_track floats[2] = {
        {"heel", times, heel, NULL, NULL, 9, OSSA_INTERP_LINEAR},
        {"toe", toe_times, toe, NULL, NULL, 3, OSSA_INTERP_STEP}};
    ossa_raw_clip raw = {"walk", 1.0f, &track, 1};
    ossa_clip_build_options o = {0};
    o.rate = 8.0f;
    o.raw = !packed;
    o.root_motion = OSSA_ROOT_MOTION_EXTRACT;
    o.float_tracks = floats;
    o.float_track_count = 2;
    if (ossa_clip_build(&raw, f->skeleton, &o, &f->clip, NULL, &e) != OSSA_OK) {
        fprintf(stderr, "%s\n", e.message);
        return 0;
    }
    const ossa_clip *clips[1] = {f->clip};
    ossa_blob_contents contents = {f->skeleton, clips, 1, NULL, 0};
    void *data = NULL;
    if (ossa_blob_write_memory(&contents, NULL, &data, &f->bytes, &e) != OSSA_OK)
        return 0;
    f->data = data;
    ossa_blob blob;
    if (ossa_blob_open(&blob, f->data, f->bytes, 0, &e) != OSSA_OK)
        return 0;
    ossa_blob_section(&blob, 1, &f->clip_at, NULL);
    const tl_clip *c = TL_CAT(tl_clip, f->data, f->clip_at);
    if (c->tracks_offset == 0)
        return 0;
    f->block_at = f->clip_at + c->tracks_offset;
    memcpy(&f->header, f->data + f->block_at, sizeof f->header);
    return f->header.tag == TL_TAG_TRACKS && f->header.track_count == 2 &&
           f->header.flags == (packed ? 3u : 1u) && f->header.frame_count == 9;
}

static int tracks_fixture_make(tracks_fixture *f, bool packed)
{
    return tracks_fixture_make_swaying(f, packed, 0.05f, 0.0f, 0.0f);
}

static void tracks_fixture_free(tracks_fixture *f)
{
    ossa_free(NULL, f->data);
    ossa_clip_free(f->clip, NULL);
    ossa_skeleton_free(f->skeleton, NULL);
}

/* A corruption at an offset from the block's start (or, with clip set, the
 * clip's), the code expected and a word of the message. */
typedef struct damage {
    const char *what;
    uint64_t offset;
    int clip;
    uint64_t value;
    int size;
    ossa_result expect;
    const char *mention;
} damage;

#define TRK(field) offsetof(tl_tracks, field)

/* Each case applied to a copy of f's blob, resealed, opened. */
static void check_damage(const tracks_fixture *f, const damage *cases, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        const damage *d = &cases[i];
        unsigned char *copy = malloc(f->bytes);
        memcpy(copy, f->data, f->bytes);
        memcpy(copy + (d->clip ? f->clip_at : f->block_at) + d->offset, &d->value,
               (size_t)d->size);
        reseal(copy, f->bytes);
        ossa_error e;
        const ossa_result r = open_copy(copy, f->bytes, 0, &e);
        const bool said = strstr(e.message, d->mention) != NULL;
        if (r != d->expect || !said)
            fprintf(stderr, "%s: %s, expected %s: %s\n", d->what, ossa_result_name(r),
                    ossa_result_name(d->expect), e.message);
        CHECK(r == d->expect && said);
        free(copy);
    }
}

TEST(tracks_block_fields_corrupted_are_rejected_naming_the_field)
{
    tracks_fixture f;
    REQUIRE(tracks_fixture_make(&f, false));
    const tl_tracks *h = &f.header;
    const tl_clip *c = TL_CAT(tl_clip, f.data, f.clip_at);
    const uint32_t nan_bits = 0x7FC00000u, one_bits = 0x3F800000u;
    const uint64_t motion = h->motion_offset, values = h->values_offset;
    uint32_t second_name;
    memcpy(&second_name, f.data + f.block_at + h->names_offset + 4, 4);
    const damage cases[] = {
        {"tag", TRK(tag), 0, 0x534B5255u, 4, OSSA_ERR_BLOB_INVARIANT, "'TRKS'"},
        {"bytes too few", TRK(bytes), 0, 16, 4, OSSA_ERR_BLOB_TRUNCATED, "tracks block bytes"},
        {"bytes too many", TRK(bytes), 0, c->bytes, 4, OSSA_ERR_BLOB_TRUNCATED, "tracks block bytes"},
        {"frame count", TRK(frame_count), 0, 8, 4, OSSA_ERR_BLOB_INVARIANT, "frame_count = 8"},
        {"flags", TRK(flags), 0, 5, 4, OSSA_ERR_BLOB_INVARIANT, "unknown flags"},
        {"reserved", TRK(reserved) + 8, 0, 1, 4, OSSA_ERR_BLOB_INVARIANT, "reserved word 2"},
        {"motion joint", TRK(motion_joint), 0, 3, 4, OSSA_ERR_BLOB_INVARIANT, "root motion joint 3"},
        {"motion misaligned", TRK(motion_offset), 0, motion + 4, 4, OSSA_ERR_BLOB_ALIGNMENT, "root motion"},
        {"motion outside", TRK(motion_offset), 0, h->bytes - 16, 4, OSSA_ERR_BLOB_TRUNCATED, "root motion"},
        {"motion in the header", TRK(motion_offset), 0, 16, 4, OSSA_ERR_BLOB_INVARIANT, "overlaps the tracks header"},
        {"motion without flag", TRK(flags), 0, 0, 4, OSSA_ERR_BLOB_INVARIANT, "without root motion"},
        {"motion frame NaN", motion + 16 * 3 + 4, 0, nan_bits, 4, OSSA_ERR_BLOB_INVARIANT, "root motion frame 3 is not finite"},
        {"motion fourth float", motion + 16 * 5 + 12, 0, one_bits, 4, OSSA_ERR_BLOB_INVARIANT, "frame 5's fourth float"},
        {"motion frame 0", motion, 0, one_bits, 4, OSSA_ERR_BLOB_INVARIANT, "frame 0"},
        {"too many tracks", TRK(track_count), 0, 5000, 4, OSSA_ERR_BLOB_INVARIANT, "track_count = 5000"},
        {"tracks past the block", TRK(track_count), 0, 4000, 4, OSSA_ERR_BLOB_TRUNCATED, "float track values"},
        {"values misaligned", TRK(values_offset), 0, values + 4, 4, OSSA_ERR_BLOB_ALIGNMENT, "float track values"},
        {"values in the header", TRK(values_offset), 0, 0, 4, OSSA_ERR_BLOB_INVARIANT, "overlap the tracks header"},
        {"names outside", TRK(names_offset), 0, h->bytes, 4, OSSA_ERR_BLOB_TRUNCATED, "float track names"},
        {"strings outside", TRK(strings_bytes), 0, h->bytes, 4, OSSA_ERR_BLOB_TRUNCATED, "float track strings"},
        {"name outside", h->names_offset + 4, 0, h->strings_bytes, 4, OSSA_ERR_BLOB_INVARIANT, "float track 1's name"},
        {"name unterminated", h->strings_offset + h->strings_bytes - 1, 0, 'x', 1, OSSA_ERR_BLOB_INVARIANT, "float track 1's name"},
        {"name empty", h->names_offset + 4, 0, second_name - 1, 4, OSSA_ERR_BLOB_INVARIANT, "empty name"},
        {"names equal", h->names_offset + 4, 0, 0, 4, OSSA_ERR_BLOB_INVARIANT, "both named 'heel'"},
        {"value NaN", values + 4 * (9 + 2), 0, nan_bits, 4, OSSA_ERR_BLOB_INVARIANT, "float track 'toe' frame 2"},
        {"no tracks, arrays left", TRK(track_count), 0, 0, 4, OSSA_ERR_BLOB_INVARIANT, "without float tracks"},
        {"offset into the keys", offsetof(tl_clip, tracks_offset), 1, c->frames_offset, 4, OSSA_ERR_BLOB_INVARIANT, "'TRKS'"},
    };
    check_damage(&f, cases, sizeof cases / sizeof cases[0]);
    tracks_fixture_free(&f);
}

#define PM(field) (motion + offsetof(tl_packed_motion, field))

TEST(packed_motion_fields_corrupted_are_rejected_naming_the_field)
{
    tracks_fixture f;
    REQUIRE(tracks_fixture_make(&f, true));
    const tl_tracks *h = &f.header;
    const uint64_t motion = h->motion_offset;
    tl_packed_motion p;
    memcpy(&p, f.data + f.block_at + motion, sizeof p);
    /* the fixture's track needs bits for some component */
    REQUIRE(p.frame_bits > 0 && p.frame_bits <= 56);
    const uint32_t nan_bits = 0x7FC00000u, one_bits = 0x3F800000u;
    const damage cases[] = {
        {"packed without motion", TRK(flags), 0, 2, 4, OSSA_ERR_BLOB_INVARIANT, "packed motion without motion"},
        {"unknown flag", TRK(flags), 0, 7, 4, OSSA_ERR_BLOB_INVARIANT, "unknown flags"},
        {"header outside", TRK(motion_offset), 0, h->bytes - 64, 4, OSSA_ERR_BLOB_TRUNCATED, "packed root motion"},
        {"misaligned", TRK(motion_offset), 0, motion + 4, 4, OSSA_ERR_BLOB_ALIGNMENT, "packed root motion"},
        {"loop NaN", PM(loop) + 4, 0, nan_bits, 4, OSSA_ERR_BLOB_INVARIANT, "component 1"},
        {"fourth slope", PM(slope) + 12, 0, one_bits, 4, OSSA_ERR_BLOB_INVARIANT, "component 3"},
        {"step NaN", PM(step), 0, nan_bits, 4, OSSA_ERR_BLOB_INVARIANT, "component 0"},
        {"width 25", PM(width) + 2, 0, 25, 1, OSSA_ERR_BLOB_INVARIANT, "25 bits"},
        {"fourth width", PM(width) + 3, 0, 1, 1, OSSA_ERR_BLOB_INVARIANT, "component 3"},
        {"residuals past 2^24", PM(qmin), 0, (uint32_t)(1 << 24), 4, OSSA_ERR_BLOB_INVARIANT, "within 2^24"},
        {"frame bits", PM(frame_bits), 0, p.frame_bits + 1, 4, OSSA_ERR_BLOB_INVARIANT, "frame_bits"},
        {"bits bytes", PM(bits_bytes), 0, p.bits_bytes - 1, 4, OSSA_ERR_BLOB_INVARIANT, "bits_bytes"},
        {"reserved", PM(reserved) + 4, 0, 1, 4, OSSA_ERR_BLOB_INVARIANT, "reserved word 1"},
    };
    check_damage(&f, cases, sizeof cases / sizeof cases[0]);
    tracks_fixture_free(&f);
}

/* The packed track decoded as docs/blob-format.md says, bit by bit from
 * the blob's bytes: what the runtime's M(t) gives at every frame time. */
static void check_decodes_as_the_format_page_says(const tracks_fixture *f)
{
    tl_packed_motion p;
    const unsigned char *at = f->data + f->block_at + f->header.motion_offset;
    memcpy(&p, at, sizeof p);
    const unsigned char *bits = at + sizeof p;
    ossa_blob blob;
    ossa_error e;
    REQUIRE(ossa_blob_open(&blob, f->data, f->bytes, 0, &e) == OSSA_OK);
    const ossa_clip *clip = ossa_blob_clip(&blob, 0);
    const uint32_t frames = f->header.frame_count;
    for (uint32_t fr = 0; fr < frames; ++fr) {
        float want[3];
        uint64_t bit = (uint64_t)fr * p.frame_bits;
        for (int c = 0; c < 3; ++c) {
            uint32_t u = 0;
            for (uint32_t b = 0; b < p.width[c]; ++b, ++bit)
                u |= (uint32_t)((bits[bit >> 3] >> (bit & 7)) & 1u) << b;
            const float line = (float)fr * p.slope[c], residual = (float)(p.qmin[c] + (int32_t)u) * p.step[c];
            want[c] = fr == 0 ? 0.0f : fr + 1 == frames ? p.loop[c] : line + residual;
        }
        const ossa_root_motion m = ossa_clip_root_motion_at(clip, (float)fr / 8.0f);
        CHECK(m.x == want[0] && m.z == want[1] && m.yaw_rad == want[2]);
    }
    bool packed;
    CHECK_INT((int)ossa_clip_root_motion_bytes(clip, &packed), (int)(sizeof p + p.bits_bytes));
    CHECK(packed);
}

TEST(packed_motion_decodes_as_the_format_page_says)
{
    tracks_fixture f;
    REQUIRE(tracks_fixture_make(&f, true));
    check_decodes_as_the_format_page_says(&f);
    tracks_fixture_free(&f);
}

/* A walk swaying metres off its line and turning a radian back and forth:
 * residuals of 20-odd bits in each component, more than 56 a frame (which
 * a frame read whole could not hold). Still packed, and decoded as the
 * format page says. */
TEST(packed_motion_wider_than_56_bits_a_frame_decodes_as_the_format_page_says)
{
    tracks_fixture f;
    REQUIRE(tracks_fixture_make_swaying(&f, true, 5.0f, 5.0f, 1.0f));
    tl_packed_motion p;
    memcpy(&p, f.data + f.block_at + f.header.motion_offset, sizeof p);
    fprintf(stderr, "wide packed motion: widths %u %u %u, frame_bits %u\n", p.width[0],
            p.width[1], p.width[2], p.frame_bits);
    CHECK(p.frame_bits > 56 && p.frame_bits <= 72);
    check_decodes_as_the_format_page_says(&f);
    tracks_fixture_free(&f);
}

/* Truncations and flips of the raw or the packed fixture. */
static void truncated_or_flipped(bool packed, bool wide)
{
    tracks_fixture f;
    REQUIRE(wide ? tracks_fixture_make_swaying(&f, packed, 5.0f, 5.0f, 1.0f)
                 : tracks_fixture_make(&f, packed));
    int wrong = 0;
    for (size_t len = 0; len < f.bytes; ++len) {
        ossa_error e;
        wrong += open_copy(f.data, len, OSSA_BLOB_SKIP_CHECKSUM, &e) != OSSA_ERR_BLOB_TRUNCATED;
    }
    CHECK_INT(wrong, 0);
    int opened = 0;
    for (size_t i = f.block_at; i < f.bytes; ++i) {
        unsigned char *copy = malloc(f.bytes);
        memcpy(copy, f.data, f.bytes);
        copy[i] ^= 0xFF;
        reseal(copy, f.bytes);
        ossa_error e;
        const ossa_result r = open_copy(copy, f.bytes, 0, &e);
        if (r == OSSA_OK) {
            ++opened;
            /* what opened is safe to read: the motion at every frame */
            ossa_blob blob;
            REQUIRE(ossa_blob_open(&blob, copy, f.bytes, 0, &e) == OSSA_OK);
            const ossa_clip *clip = ossa_blob_clip(&blob, 0);
            for (int k = 0; k <= 8; ++k) {
                const ossa_root_motion m = ossa_clip_root_motion_at(clip, (float)k / 8.0f);
                CHECK(m.x == m.x && m.z == m.z && m.yaw_rad == m.yaw_rad);
            }
        }
        free(copy);
    }
    /* values can change and stay valid; structure cannot */
    CHECK(opened > 0);
    tracks_fixture_free(&f);
}

TEST(tracks_blob_truncated_or_flipped_is_refused_or_safe)
{
    truncated_or_flipped(false, false);
}

TEST(packed_motion_blob_truncated_or_flipped_is_refused_or_safe)
{
    truncated_or_flipped(true, false);
}

TEST(wide_packed_motion_blob_truncated_or_flipped_is_refused_or_safe)
{
    truncated_or_flipped(true, true);
}

UTEST_MAIN(tracks_block_fields_corrupted_are_rejected_naming_the_field,
           packed_motion_fields_corrupted_are_rejected_naming_the_field,
           packed_motion_decodes_as_the_format_page_says,
           packed_motion_wider_than_56_bits_a_frame_decodes_as_the_format_page_says,
           tracks_blob_truncated_or_flipped_is_refused_or_safe,
           packed_motion_blob_truncated_or_flipped_is_refused_or_safe,
           wide_packed_motion_blob_truncated_or_flipped_is_refused_or_safe)
