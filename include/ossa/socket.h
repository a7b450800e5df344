/* ossa/socket.h - sockets: where something attached to a joint sits (a
 * sword in a hand, a hat on a head). A socket is a joint and an offset in
 * that joint's space; its transform for a posed character is the joint's
 * transform times the offset - in model space for a model-space pose (the
 * local->model jobs' output), in world space for a world-space one (the
 * crowd's poses, ossa_crowd_socket). Thread safety: pure functions. */
#ifndef OSSA_SOCKET_H
#define OSSA_SOCKET_H

#include "math.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_socket {
    int joint;        /* the joint it hangs on */
    ossa_mat34 offset; /* in the joint's space, lengths in model units; a
                        * zeroed offset is taken as the identity */
} ossa_socket;

/* out = pose[socket->joint] * offset, for a pose of joint_count matrices:
 * OSSA_ERR_MISSING_INPUT / OSSA_ERR_MISSING_OUTPUT, OSSA_ERR_BAD_INDEX for
 * a joint outside [0, joint_count). */
ossa_result ossa_socket_transform(const ossa_mat34 *pose, int joint_count,
                                  const ossa_socket *socket, ossa_mat34 *out);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_SOCKET_H */
