/* blob.c - the .ossa container: header and section table validation,
 * CRC-32C, and the accessors of a validated blob. */
#include <string.h>

#include "blob/format.h"
#include "blob/validate_internal.h"
#include "core/cpu.h"

/* CRC-32C, reflected polynomial 0x82F63B78. The byte table is built by the
 * preprocessor (eight shift-and-xor rounds per entry), so it is constant data;
 * CPUs with SSE4.2 use its crc32 instruction, which computes this very CRC. */
#define CRC_R(c) (((c) >> 1) ^ (0x82F63B78u & (0u - ((c) & 1u))))
#define CRC_8(c) CRC_R(CRC_R(CRC_R(CRC_R(CRC_R(CRC_R(CRC_R(CRC_R((uint32_t)(c)))))))))
#define CRC_4(i) CRC_8(i), CRC_8((i) + 1), CRC_8((i) + 2), CRC_8((i) + 3)
#define CRC_16(i) CRC_4(i), CRC_4((i) + 4), CRC_4((i) + 8), CRC_4((i) + 12)
#define CRC_64(i) CRC_16(i), CRC_16((i) + 16), CRC_16((i) + 32), CRC_16((i) + 48)
static const uint32_t crc_table[256] = {CRC_64(0), CRC_64(64), CRC_64(128), CRC_64(192)};

static uint32_t crc_bytes(uint32_t crc, const unsigned char *p, size_t bytes)
{
    while (bytes--)
        crc = (crc >> 8) ^ crc_table[(crc ^ *p++) & 0xFFu];
    return crc;
}

#if (defined(__x86_64__)) && !defined(OSSA_NO_SIMD)
__attribute__((target("sse4.2"))) static uint32_t crc_sse42(uint32_t crc, const unsigned char *p,
                                                             size_t bytes)
{
    uint64_t c = crc;
    while (bytes >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = __builtin_ia32_crc32di(c, v);
        p += 8;
        bytes -= 8;
    }
    return crc_bytes((uint32_t)c, p, bytes);
}
#endif

uint32_t ossa_crc32c(uint32_t crc, const void *data, size_t bytes)
{
    const unsigned char *p = (const unsigned char *)data;
#if (defined(__x86_64__)) && !defined(OSSA_NO_SIMD)
    if (ossai_cpu_features() & OSSAI_CPU_SSE42)
        return ~crc_sse42(~crc, p, bytes);
#endif
    return ~crc_bytes(~crc, p, bytes);
}

static const ossai_section *section_table(const ossa_blob *blob)
{
    const ossai_blob_header *h = (const ossai_blob_header *)blob->data;
    return (const ossai_section *)(const void *)((const char *)blob->data +
                                                 h->section_table_offset);
}

static const char *kind_name(uint32_t kind)
{
    switch (kind) {
    case OSSA_SECTION_SKELETON: return "skeleton";
    case OSSA_SECTION_CLIP: return "clip";
    case OSSA_SECTION_MESH: return "mesh";
    default: return "unknown";
    }
}

/* Re-labels a section validator's message with the section's position. */
static ossa_result in_section(ossa_result r, ossa_error *error, int index, uint64_t offset)
{
    if (r == OSSA_OK || !error)
        return r;
    char inner[sizeof error->message];
    memcpy(inner, error->message, sizeof inner);
    if (error->offset >= 0)
        error->offset += (int64_t)offset;
    ossa_error_set(error, r, error->index, error->offset, "section %d (at byte %llu): %s", index,
                   (unsigned long long)offset, inner);
    return r;
}

ossa_result ossa_blob_open(ossa_blob *blob, const void *data, size_t bytes, unsigned flags,
                           ossa_error *error)
{
    ossa_result r;
    ossa_error_clear(error);
    if (!blob)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "blob: no output record");
    memset(blob, 0, sizeof *blob);
    if (!data)
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1, "blob: no data");
    if ((uintptr_t)data % OSSA_BLOB_MIN_ALIGNMENT != 0)
        return ossa_error_set(error, OSSA_ERR_BLOB_ALIGNMENT, -1, 0,
                              "blob: memory at %p is not %d-byte aligned", data,
                              OSSA_BLOB_MIN_ALIGNMENT);
    if (bytes < 8 || memcmp(data, OSSAI_MAGIC_BYTES, 8) != 0)
        return ossa_error_set(error, bytes < 8 ? OSSA_ERR_BLOB_TRUNCATED : OSSA_ERR_BLOB_MAGIC, -1,
                              0, "blob: %s", bytes < 8 ? "shorter than the 8-byte magic"
                                                       : "does not start with the ossa magic");
    if (bytes < sizeof(ossai_blob_header))
        return ossa_error_set(error, OSSA_ERR_BLOB_TRUNCATED, -1, 0,
                              "blob: %zu bytes, shorter than the %zu-byte header", bytes,
                              sizeof(ossai_blob_header));
    const ossai_blob_header *h = (const ossai_blob_header *)data;
    if (h->endian != OSSAI_ENDIAN_TAG)
        return ossa_error_set(error,
                              h->endian == 0x04030201u ? OSSA_ERR_BLOB_ENDIAN
                                                       : OSSA_ERR_BLOB_INVARIANT,
                              -1, 12, "blob: byte-order tag is 0x%08x, expected 0x%08x",
                              h->endian, OSSAI_ENDIAN_TAG);
    if (h->version != OSSA_BLOB_VERSION)
        return ossa_error_set(error, OSSA_ERR_BLOB_VERSION, -1, 8,
                              "blob: version %u, this build reads version %u", h->version,
                              OSSA_BLOB_VERSION);
    if (h->total_bytes != bytes)
        return ossa_error_set(error,
                              h->total_bytes > bytes ? OSSA_ERR_BLOB_TRUNCATED : OSSA_ERR_BLOB_SIZE,
                              -1, 16, "blob: header says %llu bytes, the data has %zu",
                              (unsigned long long)h->total_bytes, bytes);
    if (h->header_bytes != sizeof(ossai_blob_header) ||
        h->section_table_offset != sizeof(ossai_blob_header))
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 24,
                              "blob: header size %u / section table offset %llu, expected %zu",
                              h->header_bytes, (unsigned long long)h->section_table_offset,
                              sizeof(ossai_blob_header));
    if (h->flags != 0)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 44,
                              "blob: unknown header flags 0x%x", h->flags);
    for (size_t i = 0; i < sizeof h->reserved; ++i)
        if (h->reserved[i] != 0)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 48 + (int64_t)i,
                                  "blob: reserved header byte %zu is not zero", i);
    if ((r = ossai_check_array(bytes, h->section_table_offset, h->section_count,
                               sizeof(ossai_section), 8, "blob", "section table", error)))
        return r;
    if (!(flags & OSSA_BLOB_SKIP_CHECKSUM)) {
        static const unsigned char zero[4] = {0, 0, 0, 0};
        uint32_t crc = ossa_crc32c(0, data, OSSAI_CHECKSUM_OFFSET);
        crc = ossa_crc32c(crc, zero, 4);
        crc = ossa_crc32c(crc, (const char *)data + OSSAI_CHECKSUM_OFFSET + 4,
                          bytes - OSSAI_CHECKSUM_OFFSET - 4);
        if (crc != h->checksum)
            return ossa_error_set(error, OSSA_ERR_BLOB_CHECKSUM, -1, OSSAI_CHECKSUM_OFFSET,
                                  "blob: checksum is 0x%08x, the contents give 0x%08x",
                                  h->checksum, crc);
    }

    ossa_blob view;
    memset(&view, 0, sizeof view);
    view.data = data;
    view.bytes = bytes;
    view.version = h->version;
    view.checksum = h->checksum;
    view.section_count = (int)h->section_count;
    const ossai_section *table = section_table(&view);
    uint64_t end_of_previous = h->section_table_offset + (uint64_t)h->section_count * sizeof *table;
    uint32_t previous_kind = OSSA_SECTION_NONE;
    for (uint32_t i = 0; i < h->section_count; ++i) {
        const ossai_section *s = &table[i];
        int64_t entry = (int64_t)(h->section_table_offset + i * sizeof *table);
        if (s->kind <= OSSA_SECTION_NONE || s->kind >= OSSA_SECTION_COUNT)
            return ossa_error_set(error, OSSA_ERR_BLOB_SECTION, (int)i, entry,
                                  "section %u: unknown kind %u", i, s->kind);
        if (s->kind < previous_kind || (s->kind == OSSA_SECTION_SKELETON && view.skeleton))
            return ossa_error_set(error, OSSA_ERR_BLOB_SECTION, (int)i, entry,
                                  "section %u: %s out of order (the skeleton, at most one, comes "
                                  "first, then clips, then meshes)",
                                  i, kind_name(s->kind));
        if (s->reserved0 != 0 || s->reserved1 != 0)
            return ossa_error_set(error, OSSA_ERR_BLOB_SECTION, (int)i, entry,
                                  "section %u: reserved fields are not zero", i);
        if (s->offset % OSSA_BLOB_SECTION_ALIGNMENT != 0)
            return ossa_error_set(error, OSSA_ERR_BLOB_ALIGNMENT, (int)i, entry + 8,
                                  "section %u (%s): offset %llu is not %d-byte aligned", i,
                                  kind_name(s->kind), (unsigned long long)s->offset,
                                  OSSA_BLOB_SECTION_ALIGNMENT);
        if (s->offset < end_of_previous || s->offset > bytes || s->bytes > bytes - s->offset)
            return ossa_error_set(error, OSSA_ERR_BLOB_SECTION, (int)i, entry + 8,
                                  "section %u (%s): bytes [%llu, %llu) overlap another section "
                                  "or run past the blob's %zu bytes",
                                  i, kind_name(s->kind), (unsigned long long)s->offset,
                                  (unsigned long long)(s->offset + s->bytes), bytes);
        end_of_previous = s->offset + s->bytes;
        previous_kind = s->kind;
        const void *p = (const char *)data + s->offset;
        switch (s->kind) {
        case OSSA_SECTION_SKELETON:
            r = ossa_skeleton_validate(p, (size_t)s->bytes, &view.skeleton, error);
            break;
        case OSSA_SECTION_CLIP: {
            const ossa_clip *clip = NULL;
            r = ossa_clip_validate(p, (size_t)s->bytes, &clip, error);
            if (r == OSSA_OK && view.skeleton &&
                clip->joint_count != (uint32_t)ossa_skeleton_joint_count(view.skeleton))
                r = ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 8,
                                   "clip '%s' animates %u joints, the skeleton has %d",
                                   ossa_clip_name(clip), clip->joint_count,
                                   ossa_skeleton_joint_count(view.skeleton));
            else if (r == OSSA_OK && view.skeleton && !ossa_clip_fits_skeleton(clip, view.skeleton))
                r = ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1,
                                   (int64_t)clip->frames_offset +
                                       (int64_t)offsetof(ossai_clip_packed, rest_crc),
                                   "clip '%s' was compressed against another rest pose than "
                                   "the skeleton's",
                                   ossa_clip_name(clip));
            view.clip_count++;
            break;
        }
        case OSSA_SECTION_MESH:
        default:
            r = ossai_mesh_validate_section(p, (size_t)s->bytes, view.skeleton, error);
            view.mesh_count++;
            break;
        }
        if ((r = in_section(r, error, (int)i, s->offset)))
            return r;
    }
    *blob = view;
    return OSSA_OK;
}

/* The index-th section of a kind, found by position: ossa_blob_open checks
 * that the skeleton (if any) comes first, then the clips, then the meshes. */
static const void *nth_of_kind(const ossa_blob *blob, ossa_section_kind kind, int index)
{
    if (!blob || !blob->data || index < 0)
        return NULL;
    const int first_clip = blob->skeleton ? 1 : 0;
    const int first = kind == OSSA_SECTION_CLIP ? first_clip : first_clip + blob->clip_count;
    const int count = kind == OSSA_SECTION_CLIP ? blob->clip_count : blob->mesh_count;
    if (index >= count || first + index >= blob->section_count)
        return NULL;
    const ossai_section *s = &section_table(blob)[first + index];
    return s->kind == (uint32_t)kind ? (const char *)blob->data + s->offset : NULL;
}

const ossa_clip *ossa_blob_clip(const ossa_blob *blob, int index)
{
    return (const ossa_clip *)nth_of_kind(blob, OSSA_SECTION_CLIP, index);
}

int ossa_blob_find_clip(const ossa_blob *blob, const char *name)
{
    if (!blob || !name)
        return -1;
    for (int i = 0; i < blob->clip_count; ++i) {
        const ossa_clip *clip = ossa_blob_clip(blob, i);
        if (clip && strcmp(ossa_clip_name(clip), name) == 0)
            return i;
    }
    return -1;
}

const ossa_mesh *ossa_blob_mesh(const ossa_blob *blob, int index)
{
    return (const ossa_mesh *)nth_of_kind(blob, OSSA_SECTION_MESH, index);
}

ossa_section_kind ossa_blob_section(const ossa_blob *blob, int index, uint64_t *offset,
                                    uint64_t *bytes)
{
    if (!blob || !blob->data || index < 0 || index >= blob->section_count)
        return OSSA_SECTION_NONE;
    const ossai_section *s = &section_table(blob)[index];
    if (offset)
        *offset = s->offset;
    if (bytes)
        *bytes = s->bytes;
    return (ossa_section_kind)s->kind;
}
