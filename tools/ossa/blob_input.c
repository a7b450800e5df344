/* blob_input.c - see blob_input.h. */
#include "blob_input.h"

#include "cli.h"
#include "json_out.h"

bool blob_input_load(const char *command, const char *path, ossa_blob *blob, void **data)
{
    ossa_error error;
    size_t bytes = 0;
    *data = NULL;
    /* The runtime's own loader: a size, memory of ours, one read. */
    if (ossa_blob_file_bytes(path, &bytes, &error) == OSSA_OK) {
        *data = cli_alloc(bytes);
        if (ossa_blob_file_read(blob, path, *data, bytes, OSSA_BLOB_DEFAULT, &error) == OSSA_OK)
            return true;
        cli_free(*data);
        *data = NULL;
    }
    cli_error(command, "%s (%s)", error.message, ossa_result_name(error.code));
    return false;
}

void blob_input_free(void *data)
{
    cli_free(data);
}

void blob_input_json_joint(FILE *to, const ossa_skeleton *skeleton, int joint)
{
    const uint16_t parent = ossa_skeleton_parents(skeleton)[joint];
    fprintf(to, "{\"name\": ");
    json_string(to, ossa_skeleton_joint_name(skeleton, joint));
    fprintf(to, ", \"parent\": ");
    json_string(to, parent == OSSA_NO_PARENT ? NULL : ossa_skeleton_joint_name(skeleton, parent));
}
