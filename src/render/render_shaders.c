/* render_shaders.c - the renderer's GLSL 3.30 programs: characters skinned on
 * the CPU or in the vertex shader (one source, two variants, the same
 * lighting), and the ground plane. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "render_internal.h"

/* Skinning on the GPU blends the palette rows exactly as the CPU kernels do:
 * M = sum w_k P[j_k], then p' = M p (ossa_mat34 rows are the three texels). */
static const char character_vs[] =
    "layout(location = 0) in vec4 a_position;\n"
    "layout(location = 1) in vec4 a_normal;\n"
    "layout(location = 2) in vec2 a_uv;\n"
    "layout(location = 3) in vec4 a_color;\n"
    "#ifdef GPU_SKINNING\n"
    "layout(location = 4) in uvec4 a_joints;\n"
    "layout(location = 5) in vec4 a_weights;\n"
    "uniform samplerBuffer u_palette;\n"
    "uniform int u_palette_base;\n"
    "#endif\n"
    "uniform mat4 u_view_proj;\n"
    "uniform vec4 u_model[3];\n"
    "out vec3 v_world;\n"
    "out vec3 v_normal;\n"
    "out vec2 v_uv;\n"
    "out vec4 v_color;\n"
    "void main() {\n"
    "    vec4 p = vec4(a_position.xyz, 1.0);\n"
    "    vec4 n = vec4(a_normal.xyz, 0.0);\n"
    "#ifdef GPU_SKINNING\n"
    "    vec4 r0 = vec4(0.0), r1 = vec4(0.0), r2 = vec4(0.0);\n"
    "    for (int k = 0; k < 4; ++k) {\n"
    "        int b = u_palette_base + 3 * int(a_joints[k]);\n"
    "        float w = a_weights[k];\n"
    "        r0 += w * texelFetch(u_palette, b);\n"
    "        r1 += w * texelFetch(u_palette, b + 1);\n"
    "        r2 += w * texelFetch(u_palette, b + 2);\n"
    "    }\n"
    "    p = vec4(dot(r0, p), dot(r1, p), dot(r2, p), 1.0);\n"
    "    n = vec4(dot(r0, n), dot(r1, n), dot(r2, n), 0.0);\n"
    "#endif\n"
    "    v_world = vec3(dot(u_model[0], p), dot(u_model[1], p), dot(u_model[2], p));\n"
    "    v_normal = vec3(dot(u_model[0], n), dot(u_model[1], n), dot(u_model[2], n));\n"
    "    v_uv = a_uv;\n"
    "    v_color = a_color;\n"
    "    gl_Position = u_view_proj * vec4(v_world, 1.0);\n"
    "}\n";

/* Display-space tint -> linear; key light, sky/ground ambient, a little
 * specular and rim; a faint uv check so the static stream shows (and any uv
 * swimming would). */
static const char character_fs[] =
    "in vec3 v_world;\n"
    "in vec3 v_normal;\n"
    "in vec2 v_uv;\n"
    "in vec4 v_color;\n"
    "uniform vec3 u_tint;\n"
    "uniform vec3 u_eye;\n"
    "out vec4 o_color;\n"
    "const vec3 LIGHT = vec3(-0.4305, 0.7654, 0.4784);\n"
    "void main() {\n"
    "    vec3 n = v_normal * inversesqrt(max(dot(v_normal, v_normal), 1e-20));\n"
    "    vec3 v = normalize(u_eye - v_world);\n"
    "    vec2 cell = floor(v_uv * 48.0);\n"
    "    float check = mod(cell.x + cell.y, 2.0);\n"
    "    vec3 base = pow(u_tint, vec3(2.2)) * v_color.rgb * (0.93 + 0.07 * check);\n"
    "    float diffuse = max(dot(n, LIGHT), 0.0);\n"
    "    vec3 ambient = mix(vec3(0.16, 0.13, 0.10), vec3(0.30, 0.36, 0.46), 0.5 + 0.5 * n.y);\n"
    "    float spec = pow(max(dot(n, normalize(LIGHT + v)), 0.0), 24.0) * 0.12;\n"
    "    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * 0.12;\n"
    "    vec3 c = base * (ambient + 1.05 * diffuse * vec3(1.0, 0.95, 0.88)) + spec +\n"
    "             rim * vec3(0.55, 0.65, 0.85);\n"
    "    o_color = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);\n"
    "}\n";

/* Without relief (u_relief.w = 0): a square from gl_VertexID, centre
 * (x, z) = u_ground.xy, half size u_ground.z. With relief: two triangles per
 * cell of a grid of u_relief_size samples taken every u_relief.w-th sample
 * of the height texture, origin u_relief.xy, sample spacing u_relief.z; the
 * normal from the neighbouring samples. */
static const char ground_vs[] =
    "uniform mat4 u_view_proj;\n"
    "uniform vec4 u_ground;\n"
    "uniform vec4 u_relief;\n"
    "uniform ivec2 u_relief_size;\n"
    "uniform sampler2D u_heights;\n"
    "out vec3 v_world;\n"
    "out vec3 v_normal;\n"
    "float height_at(ivec2 s) {\n"
    "    ivec2 last = textureSize(u_heights, 0) - 1;\n"
    "    return texelFetch(u_heights, clamp(s, ivec2(0), last), 0).r;\n"
    "}\n"
    "void main() {\n"
    "    if (u_relief.w < 0.5) {\n"
    "        vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;\n"
    "        v_world = vec3(u_ground.x + c.x * u_ground.z, 0.0, u_ground.y + c.y * u_ground.z);\n"
    "        v_normal = vec3(0.0, 1.0, 0.0);\n"
    "    } else {\n"
    "        int step = int(u_relief.w);\n"
    "        int quad = gl_VertexID / 6, corner = gl_VertexID - 6 * quad;\n"
    "        int dx = (corner == 1 || corner == 4 || corner == 5) ? 1 : 0;\n"
    "        int dz = (corner == 2 || corner == 3 || corner == 5) ? 1 : 0;\n"
    "        int cells = u_relief_size.x - 1;\n"
    "        ivec2 s = ivec2(quad % cells + dx, quad / cells + dz) * step;\n"
    "        ivec2 last = textureSize(u_heights, 0) - 1;\n"
    "        s = min(s, last);\n"
    "        float spacing = u_relief.z;\n"
    "        v_world = vec3(u_relief.x + float(s.x) * spacing, height_at(s),\n"
    "                       u_relief.y + float(s.y) * spacing);\n"
    "        float hx = height_at(s + ivec2(1, 0)) - height_at(s - ivec2(1, 0));\n"
    "        float hz = height_at(s + ivec2(0, 1)) - height_at(s - ivec2(0, 1));\n"
    "        v_normal = normalize(vec3(-hx, 2.0 * spacing, -hz));\n"
    "    }\n"
    "    gl_Position = u_view_proj * vec4(v_world, 1.0);\n"
    "}\n";

/* Checked tiles of u_ground.w units with anti-aliased lines, lit by the key
 * light relative to a flat ground (so the plane looks as it always did),
 * fading into the background toward the edge. */
static const char ground_fs[] =
    "in vec3 v_world;\n"
    "in vec3 v_normal;\n"
    "uniform vec4 u_ground;\n"
    "uniform vec3 u_background;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    vec2 p = v_world.xz / u_ground.w;\n"
    "    vec2 f = abs(fract(p - 0.5) - 0.5) / max(fwidth(p), vec2(1e-6));\n"
    "    float line = 1.0 - min(min(f.x, f.y), 1.0);\n"
    "    float check = mod(floor(p.x) + floor(p.y), 2.0);\n"
    "    vec3 c = mix(vec3(0.30, 0.31, 0.30), vec3(0.36, 0.37, 0.355), check);\n"
    "    c = mix(c, vec3(0.20, 0.21, 0.20), 0.6 * line);\n"
    "    vec3 l = normalize(vec3(0.7, 0.6, -0.5));\n"
    "    c *= (0.3 + 0.7 * max(dot(normalize(v_normal), l), 0.0)) / (0.3 + 0.7 * l.y);\n"
    "    float d = length(v_world.xz - u_ground.xy) / u_ground.z;\n"
    "    vec3 shown = pow(c, vec3(1.0 / 2.2));\n"
    "    o_color = vec4(mix(shown, u_background, smoothstep(0.45, 1.0, d)), 1.0);\n"
    "}\n";

static GLuint compile(GLenum stage, const char *define, const char *body, ossa_error *error)
{
    const char *parts[3] = {"#version 330 core\n", define, body};
    GLuint s = glCreateShader(stage);
    glShaderSource(s, 3, parts, NULL);
    glCompileShader(s);
    GLint ok = GL_FALSE;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (ok)
        return s;
    char log[256] = "";
    glGetShaderInfoLog(s, sizeof log, NULL, log);
    log[strcspn(log, "\n")] = '\0';
    ossa_error_set(error, OSSA_ERR_UNSUPPORTED, -1, -1, "the driver cannot compile a %s shader: %s",
                   stage == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
    glDeleteShader(s);
    return 0;
}

GLuint ossai_render_program(ossai_program_kind kind, ossa_error *error)
{
    const bool ground = kind == OSSAI_PROGRAM_GROUND;
    const char *define = kind == OSSAI_PROGRAM_GPU_SKINNED ? "#define GPU_SKINNING 1\n" : "";
    GLuint vs = compile(GL_VERTEX_SHADER, define, ground ? ground_vs : character_vs, error);
    GLuint fs = vs ? compile(GL_FRAGMENT_SHADER, define, ground ? ground_fs : character_fs, error)
                   : 0;
    if (!fs) {
        glDeleteShader(vs);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (ok)
        return p;
    char log[256] = "";
    glGetProgramInfoLog(p, sizeof log, NULL, log);
    log[strcspn(log, "\n")] = '\0';
    ossa_error_set(error, OSSA_ERR_UNSUPPORTED, -1, -1, "the driver cannot link a program: %s",
                   log);
    glDeleteProgram(p);
    return 0;
}

const char *ossai_gl_error_name(GLenum code)
{
    switch (code) {
    case GL_NO_ERROR: return "GL_NO_ERROR";
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "unknown GL error";
    }
}

double ossai_render_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
