/* import_fbx_records.c - reading an FBX record's properties once the
 * preflight (import_fbx_check.c) has walked them: little-endian integers,
 * property sizes, the n-th property of a binary or an ASCII record. */
#include <ctype.h>
#include <stdlib.h>
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

/* ASCII: values separated by commas and blanks; strings quoted; "*N" (an
 * array's size) is no value; ';' starts a comment. */
static bool blank(unsigned char c)
{
    return isspace(c) || c == ',';
}

static uint64_t skip_text_blank(const ossai_fbx_record *r, uint64_t at)
{
    while (at < r->props_end && (blank(r->data[at]) || r->data[at] == ';')) {
        if (r->data[at] == ';')
            while (at < r->props_end && r->data[at] != '\n')
                ++at;
        else
            ++at;
    }
    return at;
}

/* The end of an unquoted word at `at`. */
static uint64_t word_end(const ossai_fbx_record *r, uint64_t at)
{
    while (at < r->props_end && !blank(r->data[at]) && r->data[at] != ';' &&
           r->data[at] != '{' && r->data[at] != '}' && r->data[at] != '"')
        ++at;
    return at;
}

static bool text_value_at(const ossai_fbx_record *r, uint64_t index, ossai_fbx_value *out)
{
    uint64_t at = skip_text_blank(r, r->props_at), n = 0;
    while (at < r->props_end) {
        ossai_fbx_value v = {0, r->data + at, 0, 0, 0, at, true};
        uint64_t end;
        if (r->data[at] == '"') {
            const unsigned char *close =
                memchr(r->data + at + 1, '"', (size_t)(r->props_end - at - 1));
            end = close ? (uint64_t)(close - r->data) + 1 : r->props_end;
            v.type = 'S';
            v.bytes = r->data + at + 1;
            v.size = end - at - 1 - (close != NULL);
        } else {
            end = word_end(r, at);
            if (end == at)
                end = at + 1; /* a stray brace */
            v.type = 'L';
            for (uint64_t k = at; k < end; ++k)
                if (!(isdigit(r->data[k]) || (k == at && (r->data[k] == '-' || r->data[k] == '+'))))
                    v.type = 'D';
            v.size = end - at;
        }
        if (r->data[at] != '*') { /* an array's size is no value */
            if (n == index) {
                *out = v;
                return true;
            }
            ++n;
        }
        at = skip_text_blank(r, end);
    }
    return false;
}

ossai_fbx_value ossai_fbx_text_array(const ossai_fbx_record *r)
{
    ossai_fbx_value v = {'t', r->data + r->props_at, r->props_end - r->props_at, 0, 0,
                         r->props_at, true};
    for (uint64_t at = skip_text_blank(r, r->props_at); at < r->props_end;
         at = skip_text_blank(r, at)) {
        const uint64_t end = word_end(r, at);
        at = end > at ? end : at + 1;
        ++v.length;
    }
    return v;
}

int64_t ossai_fbx_int(const ossai_fbx_value *v)
{
    if (v->text) {
        char number[32];
        const size_t n = v->size < sizeof number - 1 ? (size_t)v->size : sizeof number - 1;
        memcpy(number, v->bytes, n);
        number[n] = '\0';
        return v->type == 'L' ? strtoll(number, NULL, 10) : 0;
    }
    const int bytes = (int)ossai_fbx_scalar_size(v->type);
    if (v->type == 'F' || v->type == 'D' || bytes == 0)
        return 0;
    const uint64_t bits = ossai_fbx_le(v->bytes, bytes);
    const int shift = 64 - 8 * bytes; /* sign-extend */
    return (int64_t)(bits << shift) >> shift;
}

bool ossai_fbx_value_at(const ossai_fbx_record *r, uint64_t index, ossai_fbx_value *out)
{
    if (r->text)
        return text_value_at(r, index, out);
    uint64_t at = r->props_at;
    for (uint64_t p = 0; p < r->count && at < r->props_end; ++p) {
        const char type = (char)r->data[at++];
        ossai_fbx_value v = {type, r->data + at, ossai_fbx_scalar_size(type), 0, 0, at - 1, false};
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
