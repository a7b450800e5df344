#!/usr/bin/env python3
"""play.py - play.c's frame from Python, through ctypes on the shared runtime
(libossa.so, built with -DBUILD_SHARED_LIBS=ON; docs/linking.md): load a
blob, sample two clips, blend them, walk the hierarchy, build palettes and
skin the mesh for a few characters, and print where one joint and one
skinned vertex of each are. The options, the characters and the output are
play.c's (see there): the same numbers, line for line.

    python3 play.py [--lib PATH/libossa.so] FILE.ossa [--characters N] [--time T]
                    [--clips A B] [--joint NAME] [--vertex K]

Without --lib the library is looked up as the system does (ctypes.util,
LD_LIBRARY_PATH). Nothing else is needed: no compiler, no numpy. A blob to
play: `ossa build --default -o hero.ossa`.

ctypes knows nothing of C headers: the structures below mirror include/ossa/
math.h, result.h, blob.h and the five jobs' headers field for field, in
order, and a change there must be made here too (the tests run this file
against the library, so a mismatch fails them). Every enum is a C int;
bool is c_bool; the library's int counts are c_int, byte sizes c_size_t.
"""
import argparse
import ctypes
import ctypes.util
import sys
from ctypes import POINTER, byref, c_bool, c_char, c_char_p, c_float, c_int, c_int64
from ctypes import c_size_t, c_uint, c_uint16, c_uint32, c_void_p


class Float3(ctypes.Structure):
    _fields_ = [("x", c_float), ("y", c_float), ("z", c_float)]


class Quat(ctypes.Structure):
    _fields_ = [("x", c_float), ("y", c_float), ("z", c_float), ("w", c_float)]


class Transform(ctypes.Structure):  # ossa_transform: 40 bytes
    _fields_ = [("translation", Float3), ("rotation", Quat), ("scale", Float3)]


class Mat34(ctypes.Structure):  # ossa_mat34: 3x4 row-major, translation in column 3
    _fields_ = [("m", (c_float * 4) * 3)]


class Error(ctypes.Structure):  # ossa_error
    _fields_ = [("code", c_int), ("index", c_int), ("offset", c_int64),
                ("message", c_char * 320)]


class Blob(ctypes.Structure):  # ossa_blob
    _fields_ = [("data", c_void_p), ("bytes", c_size_t), ("version", c_uint32),
                ("checksum", c_uint32), ("skeleton", c_void_p), ("clip_count", c_int),
                ("mesh_count", c_int), ("section_count", c_int)]


# The jobs. Fields left out of the constructor are zero: the defaults.
class SamplingJob(ctypes.Structure):  # ossa_sampling_job
    _fields_ = [("clips", POINTER(c_void_p)), ("clip_count", c_int),
                ("clip_index", POINTER(c_uint16)), ("clip_index_count", c_int),
                ("time_s", POINTER(c_float)), ("character_count", c_int),
                ("character_begin", c_int), ("character_end", c_int),
                ("wrap", c_int), ("rotation_interp", c_int),
                ("rest_pose", POINTER(Transform)), ("rest_pose_count", c_int),
                ("output", POINTER(Transform)), ("output_count", c_int)]


class BlendLayer(ctypes.Structure):  # ossa_blend_layer
    _fields_ = [("pose", POINTER(Transform)), ("pose_count", c_int),
                ("weights", POINTER(c_float)), ("weight_count", c_int), ("weight", c_float),
                ("joint_mask", POINTER(c_float)), ("joint_mask_count", c_int),
                ("reference", POINTER(Transform)), ("reference_count", c_int)]


class BlendingJob(ctypes.Structure):  # ossa_blending_job
    _fields_ = [("layers", POINTER(BlendLayer)), ("layer_count", c_int),
                ("additive", POINTER(BlendLayer)), ("additive_count", c_int),
                ("rest_pose", POINTER(Transform)), ("joint_count", c_int),
                ("character_count", c_int), ("character_begin", c_int), ("character_end", c_int),
                ("threshold", c_float),
                ("output", POINTER(Transform)), ("output_count", c_int)]


class LocalToModelJob(ctypes.Structure):  # ossa_local_to_model_job
    _fields_ = [("parents", POINTER(c_uint16)), ("joint_count", c_int),
                ("local", POINTER(Transform)), ("local_count", c_int),
                ("character_count", c_int), ("character_begin", c_int), ("character_end", c_int),
                ("root", POINTER(Mat34)), ("root_count", c_int),
                ("partial", c_bool), ("from_joint", c_int),
                ("model", POINTER(Mat34)), ("model_count", c_int)]


class PaletteJob(ctypes.Structure):  # ossa_palette_job
    _fields_ = [("model", POINTER(Mat34)), ("model_qvs", c_void_p), ("model_count", c_int),
                ("joint_count", c_int),
                ("skin_joint", POINTER(c_uint16)), ("inverse_bind", POINTER(Mat34)),
                ("skin_joint_count", c_int),
                ("character_count", c_int), ("character_begin", c_int), ("character_end", c_int),
                ("palette", POINTER(Mat34)), ("palette_count", c_int)]


class SkinningJob(ctypes.Structure):  # ossa_skinning_job
    _fields_ = [("mesh", c_void_p), ("palette", POINTER(Mat34)), ("palette_count", c_int),
                ("vertex_begin", c_int), ("vertex_end", c_int),
                ("output", c_void_p), ("output_bytes", c_size_t),
                ("format", c_int), ("plan", c_void_p),  # ossa_skin_format: 0 float4, 1 packed
                ("path", c_int), ("stream_output", c_bool)]


# The functions used here, with their C signatures (opaque pointers -
# skeleton, clip, mesh - are c_void_p).
SIGNATURES = {
    "ossa_blob_file_bytes": (c_int, [c_char_p, POINTER(c_size_t), POINTER(Error)]),
    "ossa_blob_file_read": (c_int, [POINTER(Blob), c_char_p, c_void_p, c_size_t, c_uint,
                                    POINTER(Error)]),
    "ossa_blob_clip": (c_void_p, [POINTER(Blob), c_int]),
    "ossa_blob_find_clip": (c_int, [POINTER(Blob), c_char_p]),
    "ossa_blob_mesh": (c_void_p, [POINTER(Blob), c_int]),
    "ossa_clip_name": (c_char_p, [c_void_p]),
    "ossa_clip_duration": (c_float, [c_void_p]),
    "ossa_skeleton_joint_count": (c_int, [c_void_p]),
    "ossa_skeleton_joint_name": (c_char_p, [c_void_p, c_int]),
    "ossa_skeleton_find_joint": (c_int, [c_void_p, c_char_p]),
    "ossa_skeleton_parents": (POINTER(c_uint16), [c_void_p]),
    "ossa_skeleton_rest_pose": (POINTER(Transform), [c_void_p]),
    "ossa_skeleton_metres_per_unit": (c_float, [c_void_p]),
    "ossa_mesh_name": (c_char_p, [c_void_p]),
    "ossa_mesh_vertex_count": (c_int, [c_void_p]),
    "ossa_mesh_skinned_stride": (c_int, [c_void_p]),
    "ossa_mesh_skin_joint_count": (c_int, [c_void_p]),
    "ossa_mesh_skin_joints": (POINTER(c_uint16), [c_void_p]),
    "ossa_mesh_inverse_binds": (POINTER(Mat34), [c_void_p]),
    "ossa_mesh_source_vertices": (POINTER(c_uint32), [c_void_p]),
    "ossa_transform_identity": (Transform, []),
    "ossa_quat_from_axis_angle": (Quat, [Float3, c_float]),
    "ossa_mat34_from_transform": (Mat34, [Transform]),
    "ossa_sampling_job_run": (c_int, [POINTER(SamplingJob)]),
    "ossa_blending_job_run": (c_int, [POINTER(BlendingJob)]),
    "ossa_local_to_model_job_run": (c_int, [POINTER(LocalToModelJob)]),
    "ossa_palette_job_run": (c_int, [POINTER(PaletteJob)]),
    "ossa_skinning_job_run": (c_int, [POINTER(SkinningJob)]),
    "ossa_result_str": (c_char_p, [c_int]),
    "ossa_result_name": (c_char_p, [c_int]),
}


class OssaError(Exception):
    pass


def load_library(path):
    name = path or ctypes.util.find_library("ossa") or "libossa.so.0"
    try:
        lib = ctypes.CDLL(name)
    except OSError as e:
        raise OssaError(f"cannot load the runtime ({e}); give --lib PATH/libossa.so") from e
    for function, (restype, argtypes) in SIGNATURES.items():
        getattr(lib, function).restype = restype
        getattr(lib, function).argtypes = argtypes
    return lib


def check(lib, result, what):
    """A job's result code as an exception with the library's message."""
    if result != 0:
        raise OssaError(f"{what}: {lib.ossa_result_str(result).decode()} "
                        f"(OSSA_{lib.ossa_result_name(result).decode()})")


def aligned(size, alignment=64):
    """A zeroed buffer of size bytes whose address is a multiple of alignment:
    ctypes gives no alignment guarantee, so over-allocate and step in. A blob
    needs 16 (64 is best), the palettes and the skinned vertices 16. Keep
    the buffer alive as long as the address is used."""
    memory = ctypes.create_string_buffer(size + alignment)
    return memory, (ctypes.addressof(memory) + alignment - 1) // alignment * alignment


def load_blob(lib, path):
    """Measure, hand the library aligned memory, one checked read. The blob
    points into the memory: keep both."""
    error, size, name = Error(), c_size_t(), path.encode()
    blob = Blob()
    if lib.ossa_blob_file_bytes(name, byref(size), byref(error)) == 0:
        memory, address = aligned(size.value)
        if lib.ossa_blob_file_read(byref(blob), name, address, size.value, 0, byref(error)) == 0:
            return blob, memory
    # error.message names the file, and the section and field at fault
    raise OssaError(f"{error.message.decode()} (OSSA_{lib.ossa_result_name(error.code).decode()})")


def find_clip(lib, blob, path, name, index):
    if name is not None:
        index = lib.ossa_blob_find_clip(byref(blob), name.encode())
    elif index >= blob.clip_count:
        index = 0
    clip = lib.ossa_blob_clip(byref(blob), index)
    if not clip:
        raise OssaError(f"{path}: no clip named '{name}'")
    return clip


def deepest(lib, skeleton):
    parents = lib.ossa_skeleton_parents(skeleton)
    depth = []
    for j in range(lib.ossa_skeleton_joint_count(skeleton)):
        depth.append(0 if parents[j] == 0xFFFF else depth[parents[j]] + 1)
    return depth.index(max(depth))


def runtime_vertex(lib, mesh, source):
    """Skinned vertices come out in the mesh's runtime order (grouped by
    influence count), which ossa_mesh_indices refers to; the source map says
    which source vertex each one is."""
    source_of = lib.ossa_mesh_source_vertices(mesh)
    for v in range(lib.ossa_mesh_vertex_count(mesh)):
        if source_of[v] == source:
            return v
    return -1


def play(lib, o):
    blob, memory = load_blob(lib, o.file)
    skeleton, mesh = blob.skeleton, lib.ossa_blob_mesh(byref(blob), 0)
    if not skeleton or not mesh or blob.clip_count == 0:
        raise OssaError(f"{o.file}: needs a skeleton, a clip and a mesh")
    clip_a = find_clip(lib, blob, o.file, o.clips[0] if o.clips else None, 0)
    clip_b = find_clip(lib, blob, o.file, o.clips[1] if o.clips else None, 1)
    joint = (lib.ossa_skeleton_find_joint(skeleton, o.joint.encode()) if o.joint
             else deepest(lib, skeleton))
    vertex = runtime_vertex(lib, mesh, o.vertex)
    if joint < 0 or vertex < 0:
        raise OssaError(f"{o.file}: no such {'joint' if joint < 0 else 'vertex'}")

    n, joints = o.characters, lib.ossa_skeleton_joint_count(skeleton)
    skins, vertices = lib.ossa_mesh_skin_joint_count(mesh), lib.ossa_mesh_vertex_count(mesh)
    stride = lib.ossa_mesh_skinned_stride(mesh)
    poses = n * joints
    # Per-character inputs, and every buffer the jobs write (the caller's).
    time_s, weight_a, weight_b = (c_float * n)(), (c_float * n)(), (c_float * n)()
    root = (Mat34 * n)()
    pose_a, pose_b, pose = (Transform * poses)(), (Transform * poses)(), (Transform * poses)()
    model = (Mat34 * poses)()
    palette_memory, palette_address = aligned(ctypes.sizeof(Mat34) * n * skins)
    palette = ctypes.cast(palette_address, POINTER(Mat34))
    skinned_memory, skinned_address = aligned(stride * vertices * n)

    metres = lib.ossa_skeleton_metres_per_unit(skeleton)
    spacing = 1.5 / (metres if metres > 0 else 1.0)
    start = c_float(o.time).value  # as a C float, so the sums round as play.c's do
    for i in range(n):
        time_s[i] = i * 0.25 + start
        weight_b[i] = i / (n - 1) if n > 1 else 0.0
        weight_a[i] = 1.0 - weight_b[i]
        place = lib.ossa_transform_identity()
        place.translation.x = i * spacing
        place.rotation = lib.ossa_quat_from_axis_angle(Float3(0.0, 1.0, 0.0), 0.5 * i)
        root[i] = lib.ossa_mat34_from_transform(place)

    # 1 sample, each clip.
    clip = (c_void_p * 1)(clip_a)
    # Compressed clips store what differs from the rest pose; raw ones ignore it.
    sample = SamplingJob(clips=clip, clip_count=1, time_s=time_s, character_count=n,
                         rest_pose=lib.ossa_skeleton_rest_pose(skeleton), rest_pose_count=joints,
                         output=pose_a, output_count=poses)
    check(lib, lib.ossa_sampling_job_run(byref(sample)), "sampling clip A")
    clip[0], sample.output = clip_b, pose_b
    check(lib, lib.ossa_sampling_job_run(byref(sample)), "sampling clip B")
    # 2 blend.
    layers = (BlendLayer * 2)(BlendLayer(pose=pose_a, pose_count=poses, weights=weight_a,
                                         weight_count=n),
                              BlendLayer(pose=pose_b, pose_count=poses, weights=weight_b,
                                         weight_count=n))
    blend = BlendingJob(layers=layers, layer_count=2,
                        rest_pose=lib.ossa_skeleton_rest_pose(skeleton), joint_count=joints,
                        character_count=n, output=pose, output_count=poses)
    check(lib, lib.ossa_blending_job_run(byref(blend)), "blending")
    # 3 local -> model, each character's root in front: world space.
    walk = LocalToModelJob(parents=lib.ossa_skeleton_parents(skeleton), joint_count=joints,
                           local=pose, local_count=poses, character_count=n,
                           root=root, root_count=n, model=model, model_count=poses)
    check(lib, lib.ossa_local_to_model_job_run(byref(walk)), "local to model")
    # 4 palettes.
    palettes = PaletteJob(model=model, model_count=poses, joint_count=joints,
                          skin_joint=lib.ossa_mesh_skin_joints(mesh),
                          inverse_bind=lib.ossa_mesh_inverse_binds(mesh), skin_joint_count=skins,
                          character_count=n, palette=palette, palette_count=n * skins)
    check(lib, lib.ossa_palette_job_run(byref(palettes)), "palettes")
    # 5 skin, one character at a time.
    for i in range(n):
        skin = SkinningJob(mesh=mesh, palette=ctypes.cast(palette_address + i * skins *
                                                          ctypes.sizeof(Mat34), POINTER(Mat34)),
                           palette_count=skins,
                           output=skinned_address + i * stride * vertices,
                           output_bytes=stride * vertices)
        check(lib, lib.ossa_skinning_job_run(byref(skin)), "skinning")

    def text(b):
        return b.decode("utf-8", "replace")
    print(f"{o.file}: {joints} joints; clip A '{text(lib.ossa_clip_name(clip_a))}' "
          f"({lib.ossa_clip_duration(clip_a):.2f} s), clip B '{text(lib.ossa_clip_name(clip_b))}' "
          f"({lib.ossa_clip_duration(clip_b):.2f} s); mesh '{text(lib.ossa_mesh_name(mesh))}', "
          f"{vertices} vertices")
    print(f"{n} characters at {o.time:g} s; world positions of joint "
          f"'{text(lib.ossa_skeleton_joint_name(skeleton, joint))}' and of source vertex "
          f"{o.vertex} (runtime vertex {vertex}):")
    for i in range(n):
        m = model[i * joints + joint].m
        p = (c_float * 3).from_address(skinned_address + (i * vertices + vertex) * stride)
        print(f"character {i}: weight {weight_b[i]:.3f}, joint {m[0][3]:.6f} {m[1][3]:.6f} "
              f"{m[2][3]:.6f}, vertex {p[0]:.6f} {p[1]:.6f} {p[2]:.6f}")
    del palette_memory, skinned_memory, memory  # the buffers outlive their last use


def main(argv):
    parser = argparse.ArgumentParser(prog="play.py", description=__doc__.split("\n")[0])
    parser.add_argument("--lib", help="the shared runtime, PATH/libossa.so")
    parser.add_argument("file", help="a blob, FILE.ossa")
    parser.add_argument("--characters", type=int, default=4)
    parser.add_argument("--time", type=float, default=0.5)
    parser.add_argument("--clips", nargs=2, metavar=("A", "B"))
    parser.add_argument("--joint")
    parser.add_argument("--vertex", type=int, default=0)
    o = parser.parse_args(argv[1:])
    if not 1 <= o.characters <= 100000:
        parser.error("--characters: expected 1 to 100000")
    try:
        play(load_library(o.lib), o)
    except OssaError as e:
        print(f"play.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
