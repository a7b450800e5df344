/* render_internal.h - shared inside libossa_render: GL helpers. */
#ifndef OSSA_RENDER_INTERNAL_H
#define OSSA_RENDER_INTERNAL_H

#include <epoxy/gl.h>

#include "ossa/render.h"

/* The shader programs the renderer draws with. */
typedef enum ossai_program_kind {
    OSSAI_PROGRAM_CPU_SKINNED, /* skinned stream + static stream */
    OSSAI_PROGRAM_GPU_SKINNED, /* bind stream + influences + palette texture buffer */
    OSSAI_PROGRAM_GROUND,
    OSSAI_PROGRAM_COUNT
} ossai_program_kind;

/* Vertex attribute locations shared by the character programs. */
enum {
    OSSAI_ATTR_POSITION = 0,
    OSSAI_ATTR_NORMAL = 1,
    OSSAI_ATTR_UV = 2,
    OSSAI_ATTR_COLOR = 3,
    OSSAI_ATTR_JOINTS = 4,
    OSSAI_ATTR_WEIGHTS = 5
};

/* Compiles and links one program; 0 with a message in *error on failure
 * (the driver's log, first line). */
GLuint ossai_render_program(ossai_program_kind kind, ossa_error *error);

/* "GL_INVALID_OPERATION", ... for a glGetError code. */
const char *ossai_gl_error_name(GLenum code);

/* Monotonic time in ms. */
double ossai_render_now_ms(void);

#endif /* OSSA_RENDER_INTERNAL_H */
