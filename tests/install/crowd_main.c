/* A program that uses an installed ossa crowd library (libossa_crowd, which
 * needs libossa): found through find_package(ossa) or pkg-config ossa-crowd
 * by tests/install/check_install.sh. */
#include <ossa/crowd.h>
#include <stdio.h>

int main(void)
{
    /* A crowd without a skeleton is refused: no size, and init says why. */
    ossa_crowd_desc desc = {0};
    ossa_crowd *crowd = NULL;
    unsigned char memory[64];
    const size_t size = ossa_crowd_size(&desc);
    const ossa_result r = ossa_crowd_init(&crowd, memory, sizeof memory, &desc);
    printf("crowd without a skeleton: size %zu, init %s\n", size, ossa_result_name(r));
    return size == 0 && r != OSSA_OK && crowd == NULL ? 0 : 1;
}
