#!/usr/bin/env python3
"""ossa from Python with ctypes, on the shared runtime (libossa.so, built with
-DBUILD_SHARED_LIBS=ON): load a blob, list its clips, sample one clip at a
time and walk the hierarchy, then print where each joint is in model space.

    python3 ossa_ctypes.py [--lib PATH/libossa.so] FILE.ossa [CLIP [TIME]]

The structures below mirror the C headers field for field (include/ossa/
math.h, result.h, blob.h, sampling_job.h, local_to_model_job.h): ctypes
knows nothing of C headers, so a change there must be made here too. Run by
tests/install/check_install.sh against an installed ossa.
"""
import ctypes
import ctypes.util
import sys
from ctypes import POINTER, c_bool, c_char, c_char_p, c_float, c_int, c_int64, c_size_t
from ctypes import c_uint16, c_uint32, c_void_p


class Float3(ctypes.Structure):
    _fields_ = [("x", c_float), ("y", c_float), ("z", c_float)]


class Quat(ctypes.Structure):
    _fields_ = [("x", c_float), ("y", c_float), ("z", c_float), ("w", c_float)]


class Transform(ctypes.Structure):  # ossa_transform: 40 bytes
    _fields_ = [("translation", Float3), ("rotation", Quat), ("scale", Float3)]


class Mat34(ctypes.Structure):  # ossa_mat34: row-major 3x4
    _fields_ = [("m", (c_float * 4) * 3)]


class Error(ctypes.Structure):  # ossa_error
    _fields_ = [("code", c_int), ("index", c_int), ("offset", c_int64),
                ("message", c_char * 320)]


class Blob(ctypes.Structure):  # ossa_blob
    _fields_ = [("data", c_void_p), ("bytes", c_size_t), ("version", c_uint32),
                ("checksum", c_uint32), ("skeleton", c_void_p), ("clip_count", c_int),
                ("mesh_count", c_int), ("section_count", c_int)]


class SamplingJob(ctypes.Structure):  # ossa_sampling_job; zeroed fields are defaults
    _fields_ = [("clips", POINTER(c_void_p)), ("clip_count", c_int),
                ("clip_index", POINTER(c_uint16)), ("clip_index_count", c_int),
                ("time_s", POINTER(c_float)), ("character_count", c_int),
                ("character_begin", c_int), ("character_end", c_int),
                ("wrap", c_int), ("rotation_interp", c_int),
                ("output", POINTER(Transform)), ("output_count", c_int)]


class LocalToModelJob(ctypes.Structure):  # ossa_local_to_model_job
    _fields_ = [("parents", POINTER(c_uint16)), ("joint_count", c_int),
                ("local", POINTER(Transform)), ("local_count", c_int),
                ("character_count", c_int), ("character_begin", c_int), ("character_end", c_int),
                ("root", POINTER(Mat34)), ("root_count", c_int),
                ("partial", c_bool), ("from_joint", c_int),
                ("model", POINTER(Mat34)), ("model_count", c_int)]


def load_library(path):
    """The runtime, with the signatures of the functions used here."""
    lib = ctypes.CDLL(path or ctypes.util.find_library("ossa") or "libossa.so.0")
    signatures = {
        "ossa_blob_file_bytes": (c_int, [c_char_p, POINTER(c_size_t), POINTER(Error)]),
        "ossa_blob_file_read": (c_int, [POINTER(Blob), c_char_p, c_void_p, c_size_t, ctypes.c_uint,
                                        POINTER(Error)]),
        "ossa_blob_clip": (c_void_p, [POINTER(Blob), c_int]),
        "ossa_blob_find_clip": (c_int, [POINTER(Blob), c_char_p]),
        "ossa_clip_name": (c_char_p, [c_void_p]),
        "ossa_clip_duration": (c_float, [c_void_p]),
        "ossa_skeleton_joint_count": (c_int, [c_void_p]),
        "ossa_skeleton_joint_name": (c_char_p, [c_void_p, c_int]),
        "ossa_skeleton_parents": (POINTER(c_uint16), [c_void_p]),
        "ossa_sampling_job_run": (c_int, [POINTER(SamplingJob)]),
        "ossa_local_to_model_job_run": (c_int, [POINTER(LocalToModelJob)]),
        "ossa_result_str": (c_char_p, [c_int]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    return lib


def open_blob(lib, path):
    """The file read into memory of ours, 64-byte aligned (16 is the minimum)."""
    error, size = Error(), c_size_t()
    name = path.encode()
    if lib.ossa_blob_file_bytes(name, ctypes.byref(size), ctypes.byref(error)) != 0:
        raise RuntimeError(error.message.decode())
    memory = ctypes.create_string_buffer(size.value + 64)
    aligned = (ctypes.addressof(memory) + 63) // 64 * 64
    blob = Blob()
    if lib.ossa_blob_file_read(ctypes.byref(blob), name, aligned, size.value, 0,
                               ctypes.byref(error)) != 0:
        raise RuntimeError(error.message.decode())
    if not blob.skeleton:
        raise RuntimeError(f"{path}: the blob holds no skeleton")
    return blob, memory  # the blob points into memory: keep both


def check(lib, result):
    if result != 0:
        raise RuntimeError(lib.ossa_result_str(result).decode())


def pose(lib, blob, clip, time_s):
    """Model-space matrices of one character: sample, then local -> model."""
    skeleton = blob.skeleton
    joints = lib.ossa_skeleton_joint_count(skeleton)
    local, model = (Transform * joints)(), (Mat34 * joints)()
    clips, times = (c_void_p * 1)(clip), (c_float * 1)(time_s)
    sample = SamplingJob(clips=clips, clip_count=1, time_s=times, character_count=1,
                         output=local, output_count=joints)
    check(lib, lib.ossa_sampling_job_run(ctypes.byref(sample)))
    walk = LocalToModelJob(parents=lib.ossa_skeleton_parents(skeleton), joint_count=joints,
                           local=local, local_count=joints, character_count=1,
                           model=model, model_count=joints)
    check(lib, lib.ossa_local_to_model_job_run(ctypes.byref(walk)))
    return model


def main(argv):
    lib_path = None
    if len(argv) > 2 and argv[1] == "--lib":
        lib_path, argv = argv[2], argv[:1] + argv[3:]
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = argv[1]
    lib = load_library(lib_path)
    try:
        blob, memory = open_blob(lib, path)
        clips = [lib.ossa_blob_clip(ctypes.byref(blob), i) for i in range(blob.clip_count)]
        listed = ", ".join(f"{lib.ossa_clip_name(c).decode()} {lib.ossa_clip_duration(c):.2f} s"
                           for c in clips)
        joints = lib.ossa_skeleton_joint_count(blob.skeleton)
        print(f"{path}: {joints} joints; clips: {listed or 'none'}")
        if not clips:
            return 0
        name = argv[2] if len(argv) > 2 else lib.ossa_clip_name(clips[0]).decode()
        index = lib.ossa_blob_find_clip(ctypes.byref(blob), name.encode())
        if index < 0:
            raise RuntimeError(f"{path}: no clip named '{name}'")
        time_s = float(argv[3]) if len(argv) > 3 else 0.0
        model = pose(lib, blob, clips[index], time_s)
        print(f"{name} at {time_s:g} s, model-space joint positions:")
        for j in range(joints):
            m = model[j].m
            joint = lib.ossa_skeleton_joint_name(blob.skeleton, j).decode()
            print(f"  {joint} {m[0][3]:.6f} {m[1][3]:.6f} {m[2][3]:.6f}")
    except RuntimeError as e:
        print(f"ossa_ctypes: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
