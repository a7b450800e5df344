/* allocator.c - the pipeline's one door to memory. */
#include "ossa/allocator.h"

#include <stdlib.h>

static void *default_alloc(size_t bytes, size_t alignment)
{
    if (alignment < sizeof(void *))
        alignment = sizeof(void *);
    /* aligned_alloc wants a size that is a multiple of the alignment. */
    size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    if (rounded < bytes)
        return NULL;
    return aligned_alloc(alignment, rounded);
}

void *ossa_alloc(const ossa_allocator *allocator, size_t bytes, size_t alignment)
{
    if (bytes == 0)
        bytes = 1;
    if (allocator && allocator->alloc)
        return allocator->alloc(bytes, alignment, allocator->user);
    return default_alloc(bytes, alignment);
}

void ossa_free(const ossa_allocator *allocator, void *pointer)
{
    if (!pointer)
        return;
    if (allocator && allocator->alloc) {
        if (allocator->free)
            allocator->free(pointer, allocator->user);
        return;
    }
    free(pointer);
}
