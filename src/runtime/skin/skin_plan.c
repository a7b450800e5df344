/* skin_plan.c - builds a skin plan: the mesh's influence groups in blocks of
 * 16 vertices, laid out for the AVX-512 packed kernel (skin_plan.h). */
#include <string.h>

#include "blob/format.h"
#include "skin/skin_pack.h"
#include "skin/skin_plan.h"

/* The plan's own header, rounded up to a cache line. */
#define PLAN_HEADER_BYTES ((sizeof(struct ossa_skin_plan) + 63u) / 64u * 64u)

/* Vertices in the group's first block: up to where a packed output at a
 * 64-byte boundary reaches the next one (16 vertices of 20 bytes make 5
 * lines, 4 of 16 one line), at most 16, at most the group. */
static uint32_t lead_in(uint32_t first, uint32_t count, bool tangents)
{
    const uint32_t period = tangents ? 16u : 4u;
    const uint32_t k = (period - first % period) % period;
    const uint32_t lead = k ? k : OSSAI_PLAN_LANES;
    return lead < count ? lead : count;
}

static uint32_t blocks_in(uint32_t first, uint32_t count, bool tangents)
{
    if (count == 0)
        return 0;
    const uint32_t lead = lead_in(first, count, tangents);
    return 1 + (count - lead + OSSAI_PLAN_LANES - 1) / OSSAI_PLAN_LANES;
}

size_t ossa_skin_plan_size(const ossa_mesh *mesh)
{
    if (!mesh)
        return 0;
    const bool tangents = (mesh->flags & OSSAI_MESH_HAS_TANGENTS) != 0;
    size_t bytes = PLAN_HEADER_BYTES;
    uint32_t first = 0;
    for (int g = 1; g <= OSSA_MAX_INFLUENCES; ++g) {
        const uint32_t count = mesh->group_counts[g - 1];
        bytes += (size_t)blocks_in(first, count, tangents) * ossai_plan_block_bytes(g, tangents);
        first += count;
    }
    return bytes;
}

bool ossai_skin_plan_fits(const ossa_skin_plan *plan, const ossa_mesh *mesh)
{
    return plan->magic == OSSAI_PLAN_MAGIC && plan->mesh == mesh &&
           plan->vertex_count == mesh->vertex_count &&
           plan->skin_joint_count == mesh->skin_joint_count;
}

/* Fills one block of n influences: vertices [first, first + count) of the
 * group that starts at mesh vertex group_first, whose joints and weights
 * start at joints / weights. */
static void fill_block(unsigned char *block, int n, bool tangents, uint32_t first, uint32_t count,
                       uint32_t group_first, const uint16_t *joints, const float *weights,
                       const float *stream, size_t floats)
{
    memset(block, 0, ossai_plan_block_bytes(n, tangents));
    ossai_plan_header *h = (ossai_plan_header *)(void *)block;
    uint8_t *local = block + ossai_plan_local();
    uint32_t *offsets = (uint32_t *)(void *)(block + ossai_plan_offsets());
    float *w = (float *)(void *)(block + ossai_plan_weights(n));
    float *in = (float *)(void *)(block + ossai_plan_stream(n));
    h->first = first;
    h->count = count;
    uint32_t distinct[OSSAI_PLAN_LANES * OSSA_MAX_INFLUENCES];
    uint32_t d_count = 0;
    for (int lane = 0; lane < OSSAI_PLAN_LANES; ++lane) {
        const int bv = ossai_plan_lane_vertex(lane);
        const uint32_t v = first + (bv < (int)count ? (uint32_t)bv : count - 1); /* mesh vertex */
        const size_t i = v - group_first;                                        /* in the group */
        for (int k = 0; k < n; ++k) {
            const uint32_t joint = joints[i * (size_t)n + (size_t)k];
            uint32_t d = 0;
            while (d < d_count && distinct[d] != joint)
                ++d;
            if (d == d_count)
                distinct[d_count++] = joint;
            offsets[k * OSSAI_PLAN_LANES + lane] = joint * (uint32_t)sizeof(ossa_mat34);
            local[k * OSSAI_PLAN_LANES + lane] = (uint8_t)((d & 3u) + 16u * ((d >> 2) & 1u));
        }
        for (int k = 0; k + 1 < n; ++k)
            w[k * OSSAI_PLAN_LANES + lane] = weights[i * (size_t)(n - 1) + (size_t)k];
        const float *x = stream + (size_t)v * floats;
        for (int c = 0; c < 3; ++c) {
            in[c * OSSAI_PLAN_LANES + lane] = x[c];
            in[(3 + c) * OSSAI_PLAN_LANES + lane] = x[4 + c];
            if (tangents)
                in[(6 + c) * OSSAI_PLAN_LANES + lane] = x[8 + c];
        }
        if (tangents) {
            const uint32_t hand = ossai_pack_hand(x[11]) ^ OSSAI_PACK_FLIP;
            memcpy(&in[9 * OSSAI_PLAN_LANES + lane], &hand, 4);
        }
    }
    h->kind = d_count <= OSSAI_PLAN_TABLE ? OSSAI_PLAN_TABLE_BLOCK : OSSAI_PLAN_GENERAL_BLOCK;
    for (uint32_t d = 0; d < OSSAI_PLAN_TABLE; ++d)
        h->table[d] = (d < d_count ? distinct[d] : distinct[0]) * (uint32_t)sizeof(ossa_mat34);
}

ossa_result ossa_skin_plan_init(const ossa_skin_plan **out, void *memory, size_t bytes,
                                const ossa_mesh *mesh)
{
    if (out)
        *out = NULL;
    if (!out || !memory)
        return OSSA_ERR_MISSING_OUTPUT;
    if (!mesh)
        return OSSA_ERR_MISSING_INPUT;
    if ((uintptr_t)memory % 64 != 0)
        return OSSA_ERR_MISALIGNED;
    const size_t need = ossa_skin_plan_size(mesh);
    if (bytes < need)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    const bool tangents = (mesh->flags & OSSAI_MESH_HAS_TANGENTS) != 0;
    struct ossa_skin_plan *plan = memory;
    memset(plan, 0, PLAN_HEADER_BYTES);
    plan->vertex_count = mesh->vertex_count;
    plan->skin_joint_count = mesh->skin_joint_count;
    plan->tangents = tangents ? 1u : 0u;
    plan->mesh = mesh;
    plan->bytes = need;
    const float *stream = (const float *)(const void *)((const char *)mesh + mesh->stream_offset);
    const uint16_t *joints = (const uint16_t *)(const void *)((const char *)mesh +
                                                             mesh->joints_offset);
    const float *weights = (const float *)(const void *)((const char *)mesh +
                                                        mesh->weights_offset);
    const size_t floats = mesh->stride / 4u;
    size_t at = PLAN_HEADER_BYTES;
    uint32_t first = 0;
    for (int g = 1; g <= OSSA_MAX_INFLUENCES; ++g) {
        const uint32_t count = mesh->group_counts[g - 1];
        const size_t block_bytes = ossai_plan_block_bytes(g, tangents);
        const uint16_t *gj = joints + ossai_mesh_joints_before(mesh->group_counts, g);
        const float *gw = weights + ossai_mesh_weights_before(mesh->group_counts, g);
        plan->block_count[g - 1] = blocks_in(first, count, tangents);
        plan->block_bytes[g - 1] = (uint32_t)block_bytes;
        plan->block_offset[g - 1] = at;
        for (uint32_t done = 0; done < count;) {
            const uint32_t left = count - done;
            const uint32_t size = done == 0 ? lead_in(first, count, tangents)
                                            : (left < OSSAI_PLAN_LANES ? left : OSSAI_PLAN_LANES);
            fill_block((unsigned char *)memory + at, g, tangents, first + done, size, first, gj, gw,
                       stream, floats);
            at += block_bytes;
            done += size;
        }
        first += count;
    }
    plan->magic = OSSAI_PLAN_MAGIC; /* last: a half-built plan never fits */
    *out = plan;
    return OSSA_OK;
}
