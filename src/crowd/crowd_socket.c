/* crowd_socket.c - a socket of a crowd character: its joint's world
 * transform as of the character's last update, times the socket's offset. */
#include "crowd_internal.h"

#include "ossa/socket.h"

ossa_result ossa_crowd_socket(const ossa_crowd *crowd, ossa_entity entity,
                              const ossa_socket *socket, ossa_mat34 *out)
{
    if (!crowd || !socket)
        return OSSA_ERR_MISSING_INPUT;
    if (!ossa_crowd_alive(crowd, entity))
        return OSSA_ERR_STALE_ID;
    const ossa_mat34 *pose = ossa_crowd_pose(crowd, entity);
    if (!pose)
        return OSSA_ERR_NOT_FOUND;
    return ossa_socket_transform(pose, crowd->joint_count, socket, out);
}
