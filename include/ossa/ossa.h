/* ossa/ossa.h - the runtime: everything a program needs to play animations.
 * Depends on nothing but the C library and libm. */
#ifndef OSSA_OSSA_H
#define OSSA_OSSA_H

#include "blending_job.h"
#include "blob.h"
#include "clip.h"
#include "ik.h"
#include "lanes.h"
#include "local_to_model_job.h"
#include "math.h"
#include "mesh.h"
#include "palette_job.h"
#include "result.h"
#include "sampling_job.h"
#include "skeleton.h"
#include "skinning_job.h"

#define OSSA_VERSION_MAJOR 0
#define OSSA_VERSION_MINOR 1
#define OSSA_VERSION_PATCH 0

#endif /* OSSA_OSSA_H */
