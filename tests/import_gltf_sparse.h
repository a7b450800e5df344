/* import_gltf_sparse.h - the sparse documents of import_gltf_sparse_test.c
 * (also written as import fuzz seeds by make_import_seeds.c): an
 * animation whose inputs and outputs are sparse accessors, and a skinned
 * quad whose positions, joints and indices are, each with the dense values
 * it stands for. Header-only. */
#ifndef OSSA_IMPORT_GLTF_SPARSE_H
#define OSSA_IMPORT_GLTF_SPARSE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "import_gltf_writer.h"

/* ---- the animation: node "N", four keys, every channel sparse ---- */

enum { SP_KEYS = 4 };
static const float sp_key_times[SP_KEYS] = {0.0f, 0.5f, 1.0f, 1.5f};
/* Translation (LINEAR, floats): keys 1 and 3 substituted over a base that
 * holds 9s there, so a missed substitution shows. */
static const float sp_translations[SP_KEYS][3] = {{0, 0, 0}, {1, 2, 3}, {0, 0, 0}, {-4, 5, 0.25f}};
/* Rotation (LINEAR, normalised shorts): key 2 substituted over identities. */
static const short sp_rotations[SP_KEYS][4] = {
    {0, 0, 0, 32767}, {0, 0, 0, 32767}, {0, 23170, 0, 23170}, {0, 0, 0, 32767}};
/* Scale (CUBICSPLINE): (in-tangent, value, out-tangent) per key; elements
 * 4 (key 1's value), 6 and 7 (key 2's in-tangent and value) substituted
 * over a base of zero tangents and unit values. */
static const float sp_scales[SP_KEYS][3][3] = {
    {{0, 0, 0}, {1, 1, 1}, {0, 0, 0}},
    {{0, 0, 0}, {2, 2, 2}, {0, 0, 0}},
    {{0.5f, 0, 0}, {1, 3, 1}, {0, 0, 0}},
    {{0, 0, 0}, {1, 1, 1}, {0, 0, 0}}};

static const char sp_anim_members[] =
    "\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"name\":\"N\"}],\"animations\":[{\"name\":\"a\",\"channels\":["
    "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
    "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"rotation\"}},"
    "{\"sampler\":2,\"target\":{\"node\":0,\"path\":\"scale\"}}],"
    "\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2},"
    "{\"input\":0,\"output\":3,\"interpolation\":\"CUBICSPLINE\"}]}]";

/* Accessors 0 times, 1 sp_translations, 2 sp_rotations, 3 sp_scales: dense, or
 * sparse as described above (times: no base view, all four substituted). */
static inline void sp_anim_doc(tg_doc *d, bool sparse)
{
    memset(d, 0, sizeof *d);
    char acc[512];
    if (!sparse) {
        snprintf(acc, sizeof acc,
                 "{\"bufferView\":%d,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\","
                 "\"min\":[0],\"max\":[1.5]}",
                 tg_view(d, sp_key_times, sizeof sp_key_times, ""));
        tg_accessor(d, acc);
        snprintf(acc, sizeof acc,
                 "{\"bufferView\":%d,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}",
                 tg_view(d, sp_translations, sizeof sp_translations, ""));
        tg_accessor(d, acc);
        snprintf(acc, sizeof acc,
                 "{\"bufferView\":%d,\"componentType\":5122,\"normalized\":true,\"count\":4,"
                 "\"type\":\"VEC4\"}",
                 tg_view(d, sp_rotations, sizeof sp_rotations, ""));
        tg_accessor(d, acc);
        snprintf(acc, sizeof acc,
                 "{\"bufferView\":%d,\"componentType\":5126,\"count\":12,\"type\":\"VEC3\"}",
                 tg_view(d, sp_scales, sizeof sp_scales, ""));
        tg_accessor(d, acc);
        return;
    }
    const unsigned char all[4] = {0, 1, 2, 3};
    int iv = tg_view(d, all, sizeof all, "");
    int vv = tg_view(d, sp_key_times, sizeof sp_key_times, "");
    snprintf(acc, sizeof acc,
             "{\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1.5],"
             "\"sparse\":{\"count\":4,\"indices\":{\"bufferView\":%d,\"componentType\":5121},"
             "\"values\":{\"bufferView\":%d}}}",
             iv, vv);
    tg_accessor(d, acc);

    float base_t[SP_KEYS][3];
    memcpy(base_t, sp_translations, sizeof base_t);
    for (int c = 0; c < 3; ++c)
        base_t[1][c] = base_t[3][c] = 9.0f;
    const unsigned char t_at[2] = {1, 3};
    /* The values sit 4 bytes into their view: sparse.values.byteOffset. */
    float t_values[7] = {-1};
    memcpy(t_values + 1, sp_translations[1], 12);
    memcpy(t_values + 4, sp_translations[3], 12);
    const int bv = tg_view(d, base_t, sizeof base_t, "");
    iv = tg_view(d, t_at, sizeof t_at, "");
    vv = tg_view(d, t_values, sizeof t_values, "");
    snprintf(acc, sizeof acc,
             "{\"bufferView\":%d,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\","
             "\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":%d,\"componentType\":5121},"
             "\"values\":{\"bufferView\":%d,\"byteOffset\":4}}}",
             bv, iv, vv);
    tg_accessor(d, acc);

    short base_r[SP_KEYS][4];
    for (int k = 0; k < SP_KEYS; ++k)
        memcpy(base_r[k], sp_rotations[0], sizeof base_r[k]);
    const unsigned short r_at[1] = {2};
    const int rb = tg_view(d, base_r, sizeof base_r, "");
    iv = tg_view(d, r_at, sizeof r_at, "");
    vv = tg_view(d, sp_rotations[2], sizeof sp_rotations[2], "");
    snprintf(acc, sizeof acc,
             "{\"bufferView\":%d,\"componentType\":5122,\"normalized\":true,\"count\":4,"
             "\"type\":\"VEC4\",\"sparse\":{\"count\":1,\"indices\":{\"bufferView\":%d,"
             "\"componentType\":5123},\"values\":{\"bufferView\":%d}}}",
             rb, iv, vv);
    tg_accessor(d, acc);

    float base_s[SP_KEYS][3][3] = {{{0}}};
    for (int k = 0; k < SP_KEYS; ++k)
        for (int c = 0; c < 3; ++c)
            base_s[k][1][c] = 1.0f;
    const unsigned s_at[3] = {4, 6, 7};
    float s_values[3][3];
    memcpy(s_values[0], sp_scales[1][1], 12);
    memcpy(s_values[1], sp_scales[2][0], 12);
    memcpy(s_values[2], sp_scales[2][1], 12);
    const int sb = tg_view(d, base_s, sizeof base_s, "");
    iv = tg_view(d, s_at, sizeof s_at, "");
    vv = tg_view(d, s_values, sizeof s_values, "");
    snprintf(acc, sizeof acc,
             "{\"bufferView\":%d,\"componentType\":5126,\"count\":12,\"type\":\"VEC3\","
             "\"sparse\":{\"count\":3,\"indices\":{\"bufferView\":%d,\"componentType\":5125},"
             "\"values\":{\"bufferView\":%d}}}",
             sb, iv, vv);
    tg_accessor(d, acc);
}

/* ---- a skinned quad whose mesh accessors are sparse ---- */

/* A quad skinned to joints A and B: positions, JOINTS_0 and indices,
 * dense with the given values, or sparse over a base that differs at
 * vertices 1 and 3 (indices: at 1 and 3). `position_stride`: a byteStride
 * for the position view (0: packed). */
static const float sp_quad_positions[4][3] = {{0, 0, 0}, {5, 0, 0}, {0, 1, 0}, {6, 6, 0}};
static const unsigned char sp_quad_joints[4][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0},
                                                {0, 0, 0, 0}};
static const unsigned short sp_quad_indices[6] = {0, 3, 2, 0, 1, 3};

static inline void sp_quad_doc(tg_doc *d, bool sparse, int position_stride)
{
    memset(d, 0, sizeof *d);
    char acc[512], stride[32] = "";
    float pos[4][4] = {{0}};
    for (int v = 0; v < 4; ++v)
        memcpy(pos[v], sp_quad_positions[v], 12);
    unsigned char joints[4][4];
    memcpy(joints, sp_quad_joints, sizeof joints);
    unsigned short indices[6];
    memcpy(indices, sp_quad_indices, sizeof indices);
    if (sparse) { /* what the substitutes replace */
        pos[1][0] = 1.0f;
        pos[3][0] = pos[3][1] = 1.0f;
        joints[1][0] = 0;
        joints[3][0] = 1;
        indices[1] = 1;
        indices[3] = 2;
    }
    int pv;
    if (position_stride) {
        snprintf(stride, sizeof stride, ",\"byteStride\":%d", position_stride);
        pv = tg_view(d, pos, sizeof pos, stride);
    } else {
        float packed[4][3];
        for (int v = 0; v < 4; ++v)
            memcpy(packed[v], pos[v], 12);
        pv = tg_view(d, packed, sizeof packed, "");
    }
    const int jv = tg_view(d, joints, sizeof joints, "");
    const float weights[4][4] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    const int wv = tg_view(d, weights, sizeof weights, "");
    const int xv = tg_view(d, indices, sizeof indices, "");
    float ibm[2][16] = {{0}};
    for (int m = 0; m < 2; ++m)
        for (int i = 0; i < 4; ++i)
            ibm[m][5 * i] = 1.0f;
    ibm[1][13] = -1.0f;
    const int mv = tg_view(d, ibm, sizeof ibm, "");
    char sp[3][160] = {"", "", ""};
    if (sparse) {
        const unsigned short at[2] = {1, 3};
        const int iv = tg_view(d, at, sizeof at, "");
        const float pval[2][3] = {{5, 0, 0}, {6, 6, 0}};
        const unsigned char jval[2][4] = {{1, 0, 0, 0}, {0, 0, 0, 0}};
        const unsigned short xval[2] = {3, 0};
        int views[3]; /* in this order: import_gltf_sparse_test.c names view 7 */
        views[0] = tg_view(d, pval, sizeof pval, "");
        views[1] = tg_view(d, jval, sizeof jval, "");
        views[2] = tg_view(d, xval, sizeof xval, "");
        for (int i = 0; i < 3; ++i)
            snprintf(sp[i], sizeof sp[i],
                     ",\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":%d,"
                     "\"componentType\":5123},\"values\":{\"bufferView\":%d}}",
                     iv, views[i]);
    }
    snprintf(acc, sizeof acc,
             "{\"bufferView\":%d,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\","
             "\"min\":[0,0,0],\"max\":[6,6,0]%s}",
             pv, sp[0]);
    tg_accessor(d, acc);
    snprintf(acc, sizeof acc,
             "{\"bufferView\":%d,\"componentType\":5121,\"count\":4,\"type\":\"VEC4\"%s}", jv,
             sp[1]);
    tg_accessor(d, acc);
    snprintf(acc, sizeof acc, "{\"bufferView\":%d,\"componentType\":5126,\"count\":4,"
                              "\"type\":\"VEC4\"}",
             wv);
    tg_accessor(d, acc);
    snprintf(acc, sizeof acc,
             "{\"bufferView\":%d,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"%s}", xv,
             sp[2]);
    tg_accessor(d, acc);
    snprintf(acc, sizeof acc,
             "{\"bufferView\":%d,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"}", mv);
    tg_accessor(d, acc);
}

static const char sp_quad_members[] =
    "\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],"
    "\"nodes\":[{\"name\":\"mesh\",\"mesh\":0,\"skin\":0},{\"name\":\"A\",\"children\":[2]},"
    "{\"name\":\"B\",\"translation\":[0,1,0]}],"
    "\"meshes\":[{\"name\":\"quad\",\"primitives\":[{\"attributes\":{\"POSITION\":0,"
    "\"JOINTS_0\":1,\"WEIGHTS_0\":2},\"indices\":3}]}],"
    "\"skins\":[{\"joints\":[1,2],\"inverseBindMatrices\":4}]";

#endif /* OSSA_IMPORT_GLTF_SPARSE_H */
