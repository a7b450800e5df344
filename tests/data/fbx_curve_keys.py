#!/usr/bin/env python3
"""fbx_curve_keys.py FILE OBJECT PROPERTY - the keys of the curves animating
OBJECT's PROPERTY in an FBX binary file, read independently of ossa (struct
and zlib only), for import_fbx_props_test.c. OBJECT is a Model's name, or
the name of the Model a NodeAttribute hangs under. Prints one line per key:
"<channel> <ticks - the stack's LocalStart> <value as float32 hex bits>"."""
import struct
import sys
import zlib

ARRAY = {'f': ('f', 4), 'd': ('d', 8), 'l': ('q', 8), 'i': ('i', 4), 'b': ('b', 1), 'c': ('b', 1)}
SCALAR = {'Y': '<h', 'C': '<b', 'I': '<i', 'F': '<f', 'D': '<d', 'L': '<q'}


def records(data, at, end, wide):
    header = 25 if wide else 13
    fields = '<QQQ' if wide else '<III'
    while at + header <= end:
        rec_end, count, _ = struct.unpack_from(fields, data, at)
        if rec_end == 0:
            return
        name_length = data[at + header - 1]
        name = data[at + header:at + header + name_length].decode('latin-1')
        p = at + header + name_length
        props = []
        for _ in range(count):
            kind = chr(data[p])
            p += 1
            if kind in SCALAR:
                props.append(struct.unpack_from(SCALAR[kind], data, p)[0])
                p += struct.calcsize(SCALAR[kind])
            elif kind in 'SR':
                (n,) = struct.unpack_from('<I', data, p)
                props.append(data[p + 4:p + 4 + n])
                p += 4 + n
            else:
                n, encoding, stored = struct.unpack_from('<III', data, p)
                raw = data[p + 12:p + 12 + stored]
                p += 12 + stored
                if encoding == 1:
                    raw = zlib.decompress(raw)
                code, _ = ARRAY[kind]
                props.append(list(struct.unpack('<%d%s' % (n, code), raw)))
        yield name, props, list(records(data, p, rec_end - header, wide)) if p < rec_end else []
        at = rec_end


def main():
    path, wanted_object, wanted_property = sys.argv[1:4]
    data = open(path, 'rb').read()
    wide = struct.unpack_from('<I', data, 23)[0] >= 7500
    top = {name: (props, children) for name, props, children in records(data, 27, len(data), wide)}
    objects = {props[0]: (name, props, children) for name, props, children in top['Objects'][1]}
    links = [props for _, props, _ in top['Connections'][1]]

    def short(name):
        return name.split(b'\x00\x01')[0].decode('utf-8')

    def owner(oid):
        kind, props, _ = objects[oid]
        if kind == 'NodeAttribute':
            for link in links:
                if link[0] == b'OO' and link[1] == oid and objects.get(link[2], ('',))[0] == 'Model':
                    return short(objects[link[2]][1][1])
        return short(props[1])

    start = 0
    for kind, props, children in objects.values():
        if kind == 'AnimationStack':
            for _, _, p70 in [c for c in children if c[0] == 'Properties70']:
                for _, p, _ in p70:
                    if p[0] == b'LocalStart':
                        start = p[4]
    nodes = [link[1] for link in links
             if link[0] == b'OP' and link[2] in objects and owner(link[2]) == wanted_object
             and link[3].decode() == wanted_property and objects[link[1]][0] == 'AnimationCurveNode']
    for link in links:
        if link[0] == b'OP' and link[2] in nodes:
            keys = {c[0]: c[1][0] for c in objects[link[1]][2]}
            for t, v in zip(keys['KeyTime'], keys['KeyValueFloat']):
                bits = struct.unpack('<I', struct.pack('<f', v))[0]
                print(link[3].decode(), t - start, '%08x' % bits)


main()
