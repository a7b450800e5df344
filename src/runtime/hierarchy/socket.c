/* socket.c - a socket's transform: its joint's pose times its offset. */
#include "ossa/socket.h"

#include <string.h>

ossa_result ossa_socket_transform(const ossa_mat34 *pose, int joint_count,
                                  const ossa_socket *socket, ossa_mat34 *out)
{
    if (!pose || !socket)
        return OSSA_ERR_MISSING_INPUT;
    if (!out)
        return OSSA_ERR_MISSING_OUTPUT;
    if (socket->joint < 0 || socket->joint >= joint_count)
        return OSSA_ERR_BAD_INDEX;
    static const ossa_mat34 zero;
    if (memcmp(&socket->offset, &zero, sizeof zero) == 0) {
        *out = pose[socket->joint];
        return OSSA_OK;
    }
    *out = ossa_mat34_mul(&pose[socket->joint], &socket->offset);
    return OSSA_OK;
}
