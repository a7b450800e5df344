/* blob_file.c - see blob_file.h. */
#include "blob_file.h"

#include "cli.h"
#include "json_out.h"
#include "ossa/pipeline.h"

bool blob_file_load(const char *command, const char *path, ossa_blob *blob, void **data)
{
    ossa_error error;
    *data = NULL;
    if (ossa_blob_load_file(path, NULL, blob, data, &error) != OSSA_OK) {
        cli_error(command, "%s (%s)", error.message, ossa_result_name(error.code));
        return false;
    }
    return true;
}

void blob_file_json_joint(FILE *to, const ossa_skeleton *skeleton, int joint)
{
    const uint16_t parent = ossa_skeleton_parents(skeleton)[joint];
    fprintf(to, "{\"name\": ");
    json_string(to, ossa_skeleton_joint_name(skeleton, joint));
    fprintf(to, ", \"parent\": ");
    json_string(to, parent == OSSA_NO_PARENT ? NULL : ossa_skeleton_joint_name(skeleton, parent));
}
