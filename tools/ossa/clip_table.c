/* clip_table.c - see clip_table.h. */
#include "clip_table.h"

#include <string.h>

#include "json_out.h"

size_t clip_table_raw_bytes(const ossa_clip *clip)
{
    return (size_t)10 * sizeof(float) * (size_t)ossa_clip_joint_count(clip) *
           (size_t)ossa_clip_frame_count(clip);
}

double clip_table_mm_per_unit(const ossa_skeleton *skeleton, bool *assumed)
{
    const float m = skeleton ? ossa_skeleton_metres_per_unit(skeleton) : 0.0f;
    *assumed = !(m > 0.0f);
    return *assumed ? 1000.0 : 1000.0 * (double)m;
}

void clip_table_header(bool with_source)
{
    printf("  %-20s ", "name");
    if (with_source)
        printf("%-16s ", "from");
    printf("%9s %8s %6s %-6s %9s %9s %6s %9s  %s\n", "duration", "rate", "keys", "kind", "raw B",
           "bytes", "ratio", "error mm", "worst at");
}

bool clip_table_row(const ossa_clip *clip, const ossa_skeleton *skeleton, const char *source)
{
    bool assumed;
    const double mm = clip_table_mm_per_unit(skeleton, &assumed);
    int joint;
    float time_s;
    const float error = ossa_clip_error(clip, &joint, &time_s);
    const size_t raw = clip_table_raw_bytes(clip), bytes = ossa_clip_bytes(clip);
    printf("  %-20s ", ossa_clip_name(clip));
    if (source) {
        const char *slash = strrchr(source, '/');
        printf("%-16s ", slash ? slash + 1 : source);
    }
    printf("%7.3f s %5.1f Hz %6d %-6s %9zu %9zu %5.1f:1 %8.4f%s", (double)ossa_clip_duration(clip),
           (double)ossa_clip_rate(clip), ossa_clip_frame_count(clip),
           ossa_clip_is_compressed(clip) ? "packed" : "raw", raw, bytes,
           bytes ? (double)raw / (double)bytes : 0.0, (double)error * mm, assumed ? "*" : " ");
    const char *name = skeleton && joint >= 0 ? ossa_skeleton_joint_name(skeleton, joint) : NULL;
    if (joint >= 0 && error > 0.0f) {
        if (name)
            printf("  '%s' at %.3f s", name, (double)time_s);
        else
            printf("  joint %d at %.3f s", joint, (double)time_s);
    }
    printf("\n");
    return assumed;
}

void clip_table_tracks(const ossa_clip *clip)
{
    ossa_clip_tracks t;
    if (!ossa_clip_is_compressed(clip) || !ossa_clip_get_tracks(clip, &t))
        return;
    static const char *const kind[OSSA_TRACK_KINDS] = {"translations", "rotations", "scales"};
    static const int order[OSSA_TRACK_KINDS] = {OSSA_TRACK_ROTATION, OSSA_TRACK_TRANSLATION,
                                                OSSA_TRACK_SCALE};
    printf("      tracks animated/constant/at rest:");
    for (int i = 0; i < OSSA_TRACK_KINDS; ++i) {
        const int k = order[i];
        printf("%s %s %d/%d/%d", i ? "," : "", kind[k], t.animated[k], t.constant[k], t.rest[k]);
        if (t.stepped[k])
            printf(" (%d stepped)", t.stepped[k]);
    }
    if (!t.values) {
        printf("\n      no value changes from frame to frame\n");
        return;
    }
    printf("\n      %d values a frame", t.values);
    if (t.full_rotations)
        printf(" (%d rotation%s w too)", t.full_rotations,
               t.full_rotations == 1 ? " stores" : "s store");
    printf(", %.1f bits each (%.0f a frame), %d segment%s of %d frames\n",
           t.bits_per_frame / t.values, t.bits_per_frame, t.segments, t.segments == 1 ? "" : "s",
           t.segment_frames);
}

void clip_table_footnote(bool assumed)
{
    if (assumed)
        printf("  * the skeleton's units are unknown: model units taken as metres\n");
}

void clip_table_json(FILE *to, const ossa_clip *clip, const ossa_skeleton *skeleton)
{
    bool assumed;
    const double mm = clip_table_mm_per_unit(skeleton, &assumed);
    int joint;
    float time_s;
    const float error = ossa_clip_error(clip, &joint, &time_s);
    fprintf(to, "\"name\": ");
    json_string(to, ossa_clip_name(clip));
    fprintf(to, ", \"duration\": ");
    json_float(to, ossa_clip_duration(clip));
    fprintf(to, ", \"rate\": ");
    json_float(to, ossa_clip_rate(clip));
    fprintf(to, ", \"keys\": %d, \"compressed\": %s, \"raw_bytes\": %zu, \"bytes\": %zu, "
                "\"error\": ",
            ossa_clip_frame_count(clip), ossa_clip_is_compressed(clip) ? "true" : "false",
            clip_table_raw_bytes(clip), ossa_clip_bytes(clip));
    json_float(to, error);
    fprintf(to, ", \"error_mm\": ");
    json_float(to, (float)(error * mm));
    fprintf(to, ", \"units_assumed\": %s, \"error_joint\": ", assumed ? "true" : "false");
    if (joint >= 0 && skeleton)
        json_string(to, ossa_skeleton_joint_name(skeleton, joint));
    else if (joint >= 0)
        fprintf(to, "%d", joint);
    else
        fprintf(to, "null");
    fprintf(to, ", \"error_time\": ");
    json_float(to, time_s);
    ossa_clip_tracks t;
    if (!ossa_clip_get_tracks(clip, &t))
        return;
    const int *rows[] = {t.animated, t.constant, t.rest, t.stepped};
    static const char *const names[] = {"animated", "constant", "rest", "stepped"};
    fprintf(to, ", \"tracks\": {");
    for (int r = 0; r < 4; ++r)
        fprintf(to, "\"%s\": [%d, %d, %d], ", names[r], rows[r][OSSA_TRACK_TRANSLATION],
                rows[r][OSSA_TRACK_ROTATION], rows[r][OSSA_TRACK_SCALE]);
    fprintf(to, "\"full_rotations\": %d, \"values\": %d, \"bits_per_frame\": ", t.full_rotations,
            t.values);
    json_float(to, (float)t.bits_per_frame);
    fprintf(to, ", \"segments\": %d, \"segment_frames\": %d}", t.segments, t.segment_frames);
}
