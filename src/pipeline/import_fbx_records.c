/* import_fbx_records.c - reading an FBX binary record's properties once
 * the preflight (import_fbx_check.c) has checked them: little-endian
 * integers, property sizes, the n-th property of a record. */
#include <string.h>

#include "import_fbx.h"

uint64_t ossai_fbx_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = v << 8 | p[i];
    return v;
}

bool ossai_fbx_name_is(const unsigned char *name, uint64_t length, const char *text)
{
    return length == strlen(text) && memcmp(name, text, (size_t)length) == 0;
}

uint64_t ossai_fbx_scalar_size(char type)
{
    switch (type) {
    case 'C': return 1;
    case 'Y': return 2;
    case 'I': case 'F': return 4;
    case 'D': case 'L': return 8;
    default: return 0;
    }
}

bool ossai_fbx_is_array(char type)
{
    return type == 'f' || type == 'd' || type == 'l' || type == 'i' || type == 'b' || type == 'c';
}

bool ossai_fbx_value_at(const ossai_fbx_record *r, uint64_t index, ossai_fbx_value *out)
{
    uint64_t at = r->props_at;
    for (uint64_t p = 0; p < r->count && at < r->props_end; ++p) {
        const char type = (char)r->data[at++];
        ossai_fbx_value v = {type, r->data + at, ossai_fbx_scalar_size(type), 0, 0, at - 1};
        uint64_t size = v.size;
        if (type == 'S' || type == 'R') {
            v.bytes = r->data + at + 4;
            v.size = ossai_fbx_le(r->data + at, 4);
            size = 4 + v.size;
        } else if (ossai_fbx_is_array(type)) {
            v.length = ossai_fbx_le(r->data + at, 4);
            v.encoding = (uint32_t)ossai_fbx_le(r->data + at + 4, 4);
            v.size = ossai_fbx_le(r->data + at + 8, 4);
            v.bytes = r->data + at + 12;
            size = 12 + v.size;
        }
        if (p == index) {
            *out = v;
            return true;
        }
        at += size;
    }
    return false;
}
