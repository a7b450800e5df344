/* naive_hierarchy.c - the pointer tree and its recursive walk (seed 001,
 * "Initial implementation"), written plainly: no pools, no tricks. */
#include "naive_hierarchy.h"

#include <stdlib.h>

/* Appends, doubling the capacity when full, as std::vector::push_back does. */
static bool list_push(naive_joint_list *list, naive_joint *joint)
{
    if (list->count == list->capacity) {
        int capacity = list->capacity ? 2 * list->capacity : 1;
        naive_joint **items = realloc(list->items, sizeof *items * (size_t)capacity);
        if (!items)
            return false;
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = joint;
    return true;
}

static void list_free(naive_joint_list *list)
{
    free(list->items);
    list->items = NULL;
    list->count = list->capacity = 0;
}

void naive_skeleton_init(naive_skeleton *skeleton)
{
    skeleton->joints = (naive_joint_list){NULL, 0, 0};
    skeleton->roots = (naive_joint_list){NULL, 0, 0};
}

naive_joint *naive_skeleton_add_joint(naive_skeleton *skeleton, int parent)
{
    if (parent >= skeleton->joints.count)
        return NULL;
    naive_joint *joint = malloc(sizeof *joint);
    if (!joint)
        return NULL;
    joint->global_pose = bench_mat4_identity();
    joint->local_pose = bench_mat4_identity();
    joint->children = (naive_joint_list){NULL, 0, 0};
    naive_joint_list *siblings =
        parent < 0 ? &skeleton->roots : &skeleton->joints.items[parent]->children;
    if (!list_push(&skeleton->joints, joint)) {
        free(joint);
        return NULL;
    }
    if (!list_push(siblings, joint)) {
        skeleton->joints.count--;
        free(joint);
        return NULL;
    }
    return joint;
}

static void local_to_global(naive_joint *joint, const bench_mat4 *parent_transform)
{
    joint->global_pose = bench_mat4_mul(parent_transform, &joint->local_pose);
    /* propagate the transformation to the children */
    for (int i = 0; i < joint->children.count; ++i)
        local_to_global(joint->children.items[i], &joint->global_pose);
}

void naive_skeleton_local_to_global(naive_skeleton *skeleton)
{
    const bench_mat4 identity = bench_mat4_identity();
    for (int i = 0; i < skeleton->roots.count; ++i)
        local_to_global(skeleton->roots.items[i], &identity);
}

void naive_skeleton_free(naive_skeleton *skeleton)
{
    for (int i = 0; i < skeleton->joints.count; ++i) {
        list_free(&skeleton->joints.items[i]->children);
        free(skeleton->joints.items[i]);
    }
    list_free(&skeleton->joints);
    list_free(&skeleton->roots);
}
