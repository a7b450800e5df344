/* render_prop.h - a simple prop every character of `ossa render` / `view`
 * holds: a stick on a joint's socket (ossa/socket.h), pointing on from the
 * joint's parent through the joint, drawn by a second renderer over the
 * characters. */
#ifndef OSSA_RENDER_PROP_H
#define OSSA_RENDER_PROP_H

#include <stdbool.h>
#include <stddef.h>

#include "ossa/socket.h"
#include "render_scene.h"

typedef struct render_prop {
    ossa_mesh *mesh;          /* the stick, skinned to the socket's joint */
    ossa_renderer *renderer;
    ossa_socket socket;
    int capacity;             /* characters the renderer draws, at most */
    ossa_mat34 *palettes;     /* per character: the socket's model-space transform */
    ossa_mat34 *rest;         /* the rest pose, for still scenes */
} render_prop;

/* Builds the prop for the scene's skeleton on the joint named `joint` (its
 * own context current); false, saying why in err, for an unknown joint. */
bool render_prop_open(render_prop *p, const render_scene *s, const char *joint, char *err,
                      size_t err_bytes);
void render_prop_close(render_prop *p);
/* Draws the prop of every character over the frame just drawn. */
bool render_prop_draw(render_prop *p, const render_scene *s, const ossa_render_camera *camera,
                      int width, int height, char *err, size_t err_bytes);

#endif /* OSSA_RENDER_PROP_H */
