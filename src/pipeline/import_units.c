/* import_units.c - the unit a source file declares, and lengths kept in it.
 *
 * ossa keeps a file's lengths as its numbers say and records the unit:
 * FBX's UnitScaleFactor (centimetres per unit; assimp 5.2 leaves FBX
 * lengths unscaled), glTF's metres, Collada's <asset><unit meter="..."/>.
 * assimp 5.2.5 applies the Collada unit itself, as a scale on the scene's
 * root node (after any up-axis rotation it also puts there), and records it
 * nowhere else: so the unit is read back from that root and taken off it,
 * leaving the file's own lengths, as for FBX. */
#include <assimp/scene.h> /* and its metadata.h */
#include <math.h>
#include <string.h>

#include "import_internal.h"

static bool metadata_number(const struct aiScene *scene, const char *key, double *out)
{
    const struct aiMetadata *meta = scene->mMetaData;
    for (unsigned i = 0; meta && i < meta->mNumProperties; ++i) {
        const struct aiMetadataEntry *e = &meta->mValues[i];
        if (strcmp(meta->mKeys[i].data, key) != 0 || !e->mData)
            continue;
        switch (e->mType) {
        case AI_FLOAT: *out = *(const float *)e->mData; return true;
        case AI_DOUBLE: *out = *(const double *)e->mData; return true;
        case AI_INT32: *out = *(const int32_t *)e->mData; return true;
        default: return false;
        }
    }
    return false;
}

static double determinant3(const ossai_dmat *m)
{
    const double(*a)[4] = m->m;
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
           a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

/* The Collada root is assimp's node for the <visual_scene>, which has no
 * transform of its own in the format: assimp 5.2.5 makes it
 * scale(meter) * up-axis rotation, whose entries are exactly 0 or +-meter
 * (a float). The length of its x axis is therefore the unit to the bit (a
 * float squared is exact in double); dividing it out leaves the rotation.
 * A reflection (a negative meter) or a zero scale is refused. */
static ossa_result collada_units(ossai_scene *sc, double *metres_per_unit)
{
    ossai_dmat *root = &sc->nodes[0].local;
    const double(*m)[4] = root->m;
    const double unit = sqrt(m[0][0] * m[0][0] + m[1][0] * m[1][0] + m[2][0] * m[2][0]);
    if (!(determinant3(root) > 0.0) || !isnormal((float)unit))
        return ossa_error_set(sc->error, OSSA_ERR_BAD_VALUE, 0, -1,
                              "%s: the Collada <unit meter> gives the scene a scale of %g "
                              "(determinant %g): one unit must be a positive length of at "
                              "least 1.2e-38 m",
                              sc->path, unit, determinant3(root));
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            root->m[r][c] /= unit;
    *metres_per_unit = unit;
    return OSSA_OK;
}

ossa_result ossai_units_decide(ossai_scene *sc)
{
    ossa_import *im = sc->im;
    double unit = 0.0, factor;
    ossa_result r;
    switch (im->format) {
    case OSSA_SOURCE_GLTF: unit = 1.0; break;
    case OSSA_SOURCE_FBX:
        if (metadata_number(sc->ai, "UnitScaleFactor", &factor) && isfinite(factor) &&
            factor > 0.0)
            unit = factor / 100.0;
        break;
    case OSSA_SOURCE_COLLADA:
        if (sc->node_count > 0 && (r = collada_units(sc, &unit)))
            return r;
        break;
    default: break;
    }
    im->source_metres_per_unit = (float)unit;
    im->metres_per_unit = (float)(unit / sc->scale);
    im->scale = (float)sc->scale;
    return OSSA_OK;
}
