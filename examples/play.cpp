// play.cpp - play.c's frame from C++: ossa's headers are C wrapped in
// extern "C", so a C++ program includes them and links the same library.
// What C++ changes here: memory and the blob are held by RAII (std::unique_ptr
// with free() for the aligned buffers), errors become exceptions carrying
// the library's messages, and a job value-initialised with {} has every
// field zero - the defaults, as {0} in C.
//
//   play_cpp FILE.ossa [--characters N] [--time T] [--clips A B] [--joint NAME] [--vertex K]
//
// The options, the characters and the output are play.c's (see there): the
// same numbers, line for line.
//
// Build it against an installed ossa (docs/linking.md), as C++17:
//   CMake:       find_package(ossa REQUIRED)   (project(... LANGUAGES C CXX))
//                target_link_libraries(play_cpp PRIVATE ossa::runtime)
//   pkg-config:  c++ -std=c++17 play.cpp $(pkg-config --cflags --libs ossa) -o play_cpp
// A blob to play: `ossa build --default -o hero.ossa`.
#include <ossa/ossa.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// Memory for ossa: 64-byte aligned. A blob needs 16 at least (64 is best),
// and so do the palettes skinning reads and the vertices it writes.
// std::vector's memory is only as aligned as new makes it: use this.
struct free_deleter {
    void operator()(void *p) const { std::free(p); }
};
template <class T> using buffer = std::unique_ptr<T[], free_deleter>;

template <class T> buffer<T> make_buffer(std::size_t count)
{
    const std::size_t bytes = (count * sizeof(T) + 63) / 64 * 64;
    void *p = std::aligned_alloc(64, bytes ? bytes : 64);
    if (!p)
        throw std::runtime_error("out of memory");
    return buffer<T>(static_cast<T *>(p));
}

// A job's result as an exception naming the stage.
void check(ossa_result r, const char *what)
{
    if (r != OSSA_OK)
        throw std::runtime_error(std::string(what) + ": " + ossa_result_str(r) + " (OSSA_" +
                                 ossa_result_name(r) + ")");
}

// A blob file in memory of its own: validated once when loaded, read in
// place after. The ossa_blob points into memory_, so they live together.
class blob_file {
  public:
    explicit blob_file(const char *path)
    {
        ossa_error error;
        std::size_t bytes = 0;
        if (ossa_blob_file_bytes(path, &bytes, &error) != OSSA_OK)
            throw std::runtime_error(error.message + std::string(" (OSSA_") +
                                     ossa_result_name(error.code) + ")");
        memory_ = make_buffer<unsigned char>(bytes);
        if (ossa_blob_file_read(&blob_, path, memory_.get(), bytes, OSSA_BLOB_DEFAULT, &error) !=
            OSSA_OK)
            throw std::runtime_error(error.message + std::string(" (OSSA_") +
                                     ossa_result_name(error.code) + ")");
    }
    const ossa_blob *get() const { return &blob_; }

  private:
    buffer<unsigned char> memory_;
    ossa_blob blob_{};
};

struct options {
    const char *path = nullptr;
    int characters = 4;
    float time_s = 0.5f;
    const char *clip_a = nullptr, *clip_b = nullptr; // the blob's first two clips
    const char *joint = nullptr;                     // the deepest joint
    int vertex = 0;                                  // in the source's vertex order
};

options parse(int argc, char **argv)
{
    options o;
    for (int i = 1; i < argc; ++i) {
        const int more = argc - i - 1;
        const std::string a = argv[i];
        if (a == "--characters" && more >= 1)
            o.characters = std::atoi(argv[++i]);
        else if (a == "--time" && more >= 1)
            o.time_s = std::strtof(argv[++i], nullptr);
        else if (a == "--clips" && more >= 2) {
            o.clip_a = argv[++i];
            o.clip_b = argv[++i];
        } else if (a == "--joint" && more >= 1)
            o.joint = argv[++i];
        else if (a == "--vertex" && more >= 1)
            o.vertex = std::atoi(argv[++i]);
        else if (a[0] == '-' || o.path)
            throw std::invalid_argument("unexpected argument or missing value");
        else
            o.path = argv[i];
    }
    if (!o.path)
        throw std::invalid_argument("no file given");
    if (o.characters < 1 || o.characters > 100000)
        throw std::invalid_argument("--characters: expected 1 to 100000");
    return o;
}

const ossa_clip *find_clip(const ossa_blob *blob, const char *path, const char *name, int index)
{
    if (name)
        index = ossa_blob_find_clip(blob, name);
    else if (index >= blob->clip_count)
        index = 0;
    if (const ossa_clip *clip = ossa_blob_clip(blob, index))
        return clip;
    throw std::runtime_error(std::string(path) + ": no clip named '" + name + "'");
}

int deepest(const ossa_skeleton *skeleton)
{
    const uint16_t *parents = ossa_skeleton_parents(skeleton);
    std::vector<int> depth(static_cast<std::size_t>(ossa_skeleton_joint_count(skeleton)));
    int best = 0;
    for (std::size_t j = 0; j < depth.size(); ++j) {
        depth[j] = parents[j] == OSSA_NO_PARENT ? 0 : depth[parents[j]] + 1;
        best = depth[j] > depth[static_cast<std::size_t>(best)] ? static_cast<int>(j) : best;
    }
    return best;
}

// The runtime vertex holding a source vertex: skinned vertices come out in
// the mesh's runtime order, which ossa_mesh_indices refers to.
int runtime_vertex(const ossa_mesh *mesh, int source)
{
    const uint32_t *map = ossa_mesh_source_vertices(mesh);
    for (int v = 0; v < ossa_mesh_vertex_count(mesh); ++v)
        if (source >= 0 && map[v] == static_cast<uint32_t>(source))
            return v;
    return -1;
}

void play(const options &o)
{
    const blob_file file(o.path);
    const ossa_blob *blob = file.get();
    const ossa_skeleton *skeleton = blob->skeleton;
    const ossa_mesh *mesh = ossa_blob_mesh(blob, 0);
    if (!skeleton || !mesh || blob->clip_count == 0)
        throw std::runtime_error(std::string(o.path) + ": needs a skeleton, a clip and a mesh");
    const ossa_clip *clip_a = find_clip(blob, o.path, o.clip_a, 0);
    const ossa_clip *clip_b = find_clip(blob, o.path, o.clip_b, 1);
    const int joint = o.joint ? ossa_skeleton_find_joint(skeleton, o.joint) : deepest(skeleton);
    const int vertex = runtime_vertex(mesh, o.vertex);
    if (joint < 0 || vertex < 0)
        throw std::runtime_error(std::string(o.path) + (joint < 0 ? ": no such joint"
                                                                   : ": no such vertex"));

    const int n = o.characters, joints = ossa_skeleton_joint_count(skeleton);
    const int skins = ossa_mesh_skin_joint_count(mesh), vertices = ossa_mesh_vertex_count(mesh);
    const std::size_t poses = static_cast<std::size_t>(n) * static_cast<std::size_t>(joints);
    const std::size_t stride = static_cast<std::size_t>(ossa_mesh_skinned_stride(mesh));
    const std::size_t skin_bytes = stride * static_cast<std::size_t>(vertices);
    auto time_s = make_buffer<float>(static_cast<std::size_t>(n));
    auto weight_a = make_buffer<float>(static_cast<std::size_t>(n));
    auto weight_b = make_buffer<float>(static_cast<std::size_t>(n));
    auto root = make_buffer<ossa_mat34>(static_cast<std::size_t>(n));
    auto pose_a = make_buffer<ossa_transform>(poses);
    auto pose_b = make_buffer<ossa_transform>(poses);
    auto pose = make_buffer<ossa_transform>(poses);
    auto model = make_buffer<ossa_mat34>(poses);
    auto palette = make_buffer<ossa_mat34>(static_cast<std::size_t>(n * skins));
    auto skinned = make_buffer<unsigned char>(skin_bytes * static_cast<std::size_t>(n));

    const float metres = ossa_skeleton_metres_per_unit(skeleton);
    const float spacing = 1.5f / (metres > 0.0f ? metres : 1.0f);
    for (int i = 0; i < n; ++i) {
        time_s[i] = static_cast<float>(i) * 0.25f + o.time_s;
        weight_b[i] = n > 1 ? static_cast<float>(i) / static_cast<float>(n - 1) : 0.0f;
        weight_a[i] = 1.0f - weight_b[i];
        ossa_transform place = ossa_transform_identity();
        place.translation.x = static_cast<float>(i) * spacing;
        const float yaw = 0.5f * static_cast<float>(i);
        place.rotation = ossa_quat_from_axis_angle({0.0f, 1.0f, 0.0f}, yaw);
        root[i] = ossa_mat34_from_transform(place);
    }

    // 1 sample, each clip.
    ossa_sampling_job sample{};
    sample.clips = &clip_a;
    sample.clip_count = 1;
    sample.time_s = time_s.get();
    sample.character_count = n;
    // Compressed clips store what differs from the rest pose; raw ones ignore it.
    sample.rest_pose = ossa_skeleton_rest_pose(skeleton);
    sample.rest_pose_count = joints;
    sample.output = pose_a.get();
    sample.output_count = static_cast<int>(poses);
    check(ossa_sampling_job_run(&sample), "sampling clip A");
    sample.clips = &clip_b;
    sample.output = pose_b.get();
    check(ossa_sampling_job_run(&sample), "sampling clip B");

    // 2 blend.
    ossa_blend_layer layers[2]{};
    layers[0].pose = pose_a.get();
    layers[0].pose_count = static_cast<int>(poses);
    layers[0].weights = weight_a.get();
    layers[0].weight_count = n;
    layers[1] = layers[0];
    layers[1].pose = pose_b.get();
    layers[1].weights = weight_b.get();
    ossa_blending_job blend{};
    blend.layers = layers;
    blend.layer_count = 2;
    blend.rest_pose = ossa_skeleton_rest_pose(skeleton);
    blend.joint_count = joints;
    blend.character_count = n;
    blend.output = pose.get();
    blend.output_count = static_cast<int>(poses);
    check(ossa_blending_job_run(&blend), "blending");

    // 3 local -> model, each character's root in front: world space.
    ossa_local_to_model_job l2m{};
    l2m.parents = ossa_skeleton_parents(skeleton);
    l2m.joint_count = joints;
    l2m.local = pose.get();
    l2m.local_count = static_cast<int>(poses);
    l2m.character_count = n;
    l2m.root = root.get();
    l2m.root_count = n;
    l2m.model = model.get();
    l2m.model_count = static_cast<int>(poses);
    check(ossa_local_to_model_job_run(&l2m), "local to model");

    // 4 palettes.
    ossa_palette_job pj{};
    pj.model = model.get();
    pj.model_count = static_cast<int>(poses);
    pj.joint_count = joints;
    pj.skin_joint = ossa_mesh_skin_joints(mesh);
    pj.inverse_bind = ossa_mesh_inverse_binds(mesh);
    pj.skin_joint_count = skins;
    pj.character_count = n;
    pj.palette = palette.get();
    pj.palette_count = n * skins;
    check(ossa_palette_job_run(&pj), "palettes");

    // 5 skin, one character at a time (16-byte aligned palette and output).
    for (int i = 0; i < n; ++i) {
        ossa_skinning_job skin{};
        skin.mesh = mesh;
        skin.palette = palette.get() + static_cast<std::size_t>(i * skins);
        skin.palette_count = skins;
        skin.output = skinned.get() + static_cast<std::size_t>(i) * skin_bytes;
        skin.output_bytes = skin_bytes;
        check(ossa_skinning_job_run(&skin), "skinning");
    }

    std::printf("%s: %d joints; clip A '%s' (%.2f s), clip B '%s' (%.2f s); mesh '%s', "
                "%d vertices\n",
                o.path, joints, ossa_clip_name(clip_a), double(ossa_clip_duration(clip_a)),
                ossa_clip_name(clip_b), double(ossa_clip_duration(clip_b)), ossa_mesh_name(mesh),
                vertices);
    std::printf("%d characters at %g s; world positions of joint '%s' and of source vertex %d "
                "(runtime vertex %d):\n",
                n, double(o.time_s), ossa_skeleton_joint_name(skeleton, joint), o.vertex, vertex);
    for (int i = 0; i < n; ++i) {
        const ossa_mat34 &m = model[static_cast<std::size_t>(i * joints + joint)];
        float p[3];
        std::memcpy(p, skinned.get() + static_cast<std::size_t>(i) * skin_bytes +
                           static_cast<std::size_t>(vertex) * stride,
                    sizeof p);
        std::printf("character %d: weight %.3f, joint %.6f %.6f %.6f, vertex %.6f %.6f %.6f\n", i,
                    double(weight_b[i]), double(m.m[0][3]), double(m.m[1][3]), double(m.m[2][3]),
                    double(p[0]), double(p[1]), double(p[2]));
    }
}

} // namespace

int main(int argc, char **argv)
{
    try {
        play(parse(argc, argv));
        return 0;
    } catch (const std::invalid_argument &e) {
        std::fprintf(stderr,
                     "play_cpp: %s\nusage: play_cpp FILE.ossa [--characters N] [--time T] "
                     "[--clips A B] [--joint NAME] [--vertex K]\n",
                     e.what());
        return 2;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "play_cpp: %s\n", e.what());
        return 1;
    }
}
