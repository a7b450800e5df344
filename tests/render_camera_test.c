/* render_camera_test.c - the renderer's camera and layout helpers (no GL):
 * a framed box fits the picture tightly and centred, the clip matrix is
 * projection times view as the camera defines it, the grid spaces characters
 * evenly around the origin. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "ossa/render.h"
#include "render_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_RENDER */

#define W 320
#define H 240

/* Every corner of the box projects inside the picture, and the box reaches
 * near its edges (a tight fit). */
TEST(camera_frame_fits_the_box_tightly)
{
    const ossa_float3 boxes[][2] = {{{-0.4f, 0.0f, -0.2f}, {0.4f, 1.8f, 0.2f}},
                                    {{-6.0f, 0.0f, -6.0f}, {6.0f, 1.9f, 6.0f}},
                                    {{10.0f, -3.0f, 2.0f}, {11.0f, 9.0f, 2.5f}}};
    const float views[][2] = {{0.0f, 0.0f}, {0.52f, 0.32f}, {-2.0f, 1.2f}, {3.0f, -0.3f}};
    for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; ++b)
        for (size_t v = 0; v < sizeof views / sizeof views[0]; ++v) {
            const ossa_render_camera c = ossa_render_camera_frame(
                boxes[b][0], boxes[b][1], (float)W / H, views[v][0], views[v][1], 0.0f);
            double x0 = DBL_MAX, y0 = DBL_MAX, x1 = -DBL_MAX, y1 = -DBL_MAX;
            for (int k = 0; k < 8; ++k) {
                const double p[3] = {k & 1 ? boxes[b][1].x : boxes[b][0].x,
                                     k & 2 ? boxes[b][1].y : boxes[b][0].y,
                                     k & 4 ? boxes[b][1].z : boxes[b][0].z};
                double x, y;
                ts_project(&c, W, H, p, &x, &y);
                x0 = fmin(x0, x), y0 = fmin(y0, y), x1 = fmax(x1, x), y1 = fmax(y1, y);
            }
            CHECK(x0 >= 0 && y0 >= 0 && x1 <= W && y1 <= H);
            /* Tight: the box spans at least 90% of the picture one way, and
             * sits in its middle (within 2% of the size) the other way. */
            CHECK((x1 - x0) >= 0.9 * W || (y1 - y0) >= 0.9 * H);
            CHECK_NEAR(0.5 * (x0 + x1), 0.5 * W, 0.02 * W);
            CHECK_NEAR(0.5 * (y0 + y1), 0.5 * H, 0.02 * H);
            CHECK(c.z_near > 0 && c.z_far > c.z_near);
        }
}

TEST(camera_matrix_is_projection_times_view)
{
    const ossa_render_camera c = {{3, 2, 5}, {0.5f, 1, -1}, 0.7f, 0.5f, 40.0f};
    float m[16];
    ossa_render_camera_matrix(&c, (float)W / H, m);
    const double points[][3] = {{0, 0, 0}, {1, 2, -3}, {-2, 0.5, 1}, {0.5, 1, -1}};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; ++i) {
        const double *p = points[i];
        double clip[4];
        for (int r = 0; r < 4; ++r)
            clip[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
        double x, y;
        ts_project(&c, W, H, p, &x, &y);
        CHECK_NEAR((clip[0] / clip[3] + 1.0) * 0.5 * W, x, 1e-3);
        CHECK_NEAR((1.0 - clip[1] / clip[3]) * 0.5 * H, y, 1e-3);
        CHECK(clip[2] / clip[3] > -1.0 && clip[2] / clip[3] < 1.0);
    }
}

TEST(grid_spaces_characters_on_the_ground_around_the_origin)
{
    for (int count = 1; count <= 30; ++count) {
        ossa_mat34 *p = malloc(sizeof(ossa_mat34) * (size_t)count);
        ossa_render_grid(count, 1.5f, p);
        double sx = 0, sz = 0, nearest = DBL_MAX;
        for (int i = 0; i < count; ++i) {
            CHECK(p[i].m[0][0] == 1 && p[i].m[1][1] == 1 && p[i].m[2][2] == 1);
            CHECK(p[i].m[1][3] == 0);
            sx += p[i].m[0][3], sz += p[i].m[2][3];
            for (int j = 0; j < i; ++j)
                nearest = fmin(nearest, hypot(p[i].m[0][3] - p[j].m[0][3],
                                              p[i].m[2][3] - p[j].m[2][3]));
        }
        CHECK_NEAR(sx / count, 0.0, 1.5 * 0.5 + 1e-6); /* a short last row may shift x */
        CHECK_NEAR(sz / count, 0.0, 1.5 * 0.5 + 1e-6);
        if (count > 1)
            CHECK_NEAR(nearest, 1.5, 1e-5);
        free(p);
    }
}

UTEST_MAIN(camera_frame_fits_the_box_tightly, camera_matrix_is_projection_times_view,
           grid_spaces_characters_on_the_ground_around_the_origin)
