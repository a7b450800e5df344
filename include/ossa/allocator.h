/* ossa/allocator.h - how the pipeline gets memory. The runtime never
 * allocates; builders and loaders allocate only through this. */
#ifndef OSSA_ALLOCATOR_H
#define OSSA_ALLOCATOR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_allocator {
    /* bytes > 0, alignment a power of two <= 4096. NULL on failure. */
    void *(*alloc)(size_t bytes, size_t alignment, void *user);
    void (*free)(void *pointer, void *user); /* pointer may be NULL */
    void *user;
} ossa_allocator;
/* A zeroed (or NULL) ossa_allocator means the C library's aligned_alloc/free. */

void *ossa_alloc(const ossa_allocator *allocator, size_t bytes, size_t alignment);
void ossa_free(const ossa_allocator *allocator, void *pointer);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_ALLOCATOR_H */
