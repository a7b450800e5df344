/* A program that uses an installed ossa: found through find_package(ossa)
 * or pkg-config by tests/install/check_install.sh. */
#include <ossa/ossa.h>
#include <stdio.h>

int main(void)
{
    const ossa_mat34 m = ossa_mat34_identity();
    ossa_local_to_model_job job = {0};
    /* A zeroed job is refused with a code, not run. */
    const ossa_result r = ossa_local_to_model_job_validate(&job);
    printf("identity %g, zeroed job: %s\n", (double)m.m[0][0], ossa_result_name(r));
    return m.m[0][0] == 1.0f && r == OSSA_ERR_MISSING_INPUT ? 0 : 1;
}
