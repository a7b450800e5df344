/* ossa/pipeline.h - the offline side: raw data -> runtime blobs. */
#ifndef OSSA_PIPELINE_H
#define OSSA_PIPELINE_H

#include "allocator.h"
#include "blob_writer.h"
#include "clip_builder.h"
#include "default_character.h"
#include "importer.h"
#include "mesh_builder.h"
#include "skeleton_builder.h"

#endif /* OSSA_PIPELINE_H */
