/* tracks_report.c - see tracks_report.h. */
#include "tracks_report.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

void tracks_report(const ossa_clip *clip, const ossa_skeleton *skeleton, float metres_per_unit)
{
    if (ossa_clip_has_root_motion(clip)) {
        const int j = ossa_clip_root_motion_joint(clip);
        const ossa_root_motion loop = ossa_clip_loop_motion(clip);
        const double travel = hypot(loop.x, loop.z);
        char joint[96];
        if (skeleton && j < ossa_skeleton_joint_count(skeleton))
            snprintf(joint, sizeof joint, "'%s'", ossa_skeleton_joint_name(skeleton, j));
        else
            snprintf(joint, sizeof joint, "joint %d", j);
        printf("      root motion from %s: one loop moves %.4g units", joint, travel);
        if (metres_per_unit > 0.0f)
            printf(" (%.3g m)", travel * metres_per_unit);
        printf(" to (x %.4g, z %.4g) and turns %.3g deg\n", (double)loop.x, (double)loop.z,
               (double)loop.yaw_rad * 57.29577951308232);
        bool packed;
        const size_t bytes = ossa_clip_root_motion_bytes(clip, &packed);
        printf("      motion track: %zu bytes, %s\n", bytes,
               packed ? "packed" : "raw floats (x, z, yaw, 0 per frame)");
    }
    const int tracks = ossa_clip_float_track_count(clip);
    if (tracks > 0) {
        printf("      %d float track%s:", tracks, tracks == 1 ? "" : "s");
        for (int k = 0; k < tracks && k < 8; ++k)
            printf("%s '%s'", k ? "," : "", ossa_clip_float_track_name(clip, k));
        printf("%s\n", tracks > 8 ? " ..." : "");
    }
}

int tracks_check_nodes(const ossa_import *imports, int import_count, const char *const *names,
                       int name_count)
{
    for (int n = 0; n < name_count; ++n) {
        const size_t len = strlen(names[n]);
        bool found = false;
        for (int i = 0; i < import_count && !found; ++i) {
            const ossa_import *im = &imports[i];
            for (int c = 0; c < im->clip_count && !found && im->clip_float_tracks; ++c)
                for (int t = 0; t < im->clip_float_tracks[c].count && !found; ++t) {
                    const char *track = im->clip_float_tracks[c].tracks[t].name;
                    /* a node's channels "NODE.x...", or an FBX property /
                     * Collada value "OBJECT.PROPERTY" itself */
                    found = strncmp(track, names[n], len) == 0 &&
                            (track[len] == '.' || track[len] == '\0');
                }
        }
        if (!found) {
            cli_error("build", "--track '%s': no input animates a node or property of that name",
                      names[n]);
            return 1;
        }
    }
    return 0;
}
