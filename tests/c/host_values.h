/* host_values.h: the engine values the simulated Godot host (godot_host.c) hands out.
 *
 * Real enough to catch misuse: a String is 8 bytes pointing at a reference-counted UTF-32
 * block, a StringName 8 bytes pointing at a reference-counted name, a Variant 24 bytes with
 * its type at offset 0 and its value at offset 8. Storage handed out as uninitialized is
 * poisoned, every block is counted, and a value that is not live is a failed check. A
 * Dictionary holds a few (String key, int or String value) entries; stringify() writes any
 * value as the engine's String(value) does.
 */
#ifndef PYBRIDGE_TEST_HOST_VALUES_H
#define PYBRIDGE_TEST_HOST_VALUES_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../pybridge/ffi/gdextension_api.h"

#define POISON_BYTE 0xA5 /* fills storage the host hands out as "uninitialized" */

static atomic_int failures;

static void fail(const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    fprintf(stderr, "FAIL: %s\n", message);
    atomic_fetch_add(&failures, 1);
}

static void check(int condition, const char *what)
{
    if (!condition)
        fail("%s", what);
}

static void poison(void *storage, size_t size)
{
    memset(storage, POISON_BYTE, size);
}

static int is_poison(const void *pointer_value)
{
    uintptr_t pattern;
    memset(&pattern, POISON_BYTE, sizeof pattern);
    return (uintptr_t)pointer_value == pattern;
}

/* -- UTF-8 <-> UTF-32 ------------------------------------------------------------------------ */

/* Strict decoding; every bad sequence becomes U+FFFD. Returns 1 if anything was bad. */
static int utf8_decode(const unsigned char *s, size_t n, uint32_t *out, size_t *out_length)
{
    int bad = 0;
    size_t i = 0, k = 0;
    while (i < n) {
        unsigned c = s[i];
        uint32_t cp;
        size_t length;
        if (c < 0x80) {
            cp = c;
            length = 1;
        } else if ((c & 0xE0) == 0xC0) {
            cp = c & 0x1F;
            length = 2;
        } else if ((c & 0xF0) == 0xE0) {
            cp = c & 0x0F;
            length = 3;
        } else if ((c & 0xF8) == 0xF0) {
            cp = c & 0x07;
            length = 4;
        } else {
            bad = 1;
            out[k++] = 0xFFFD;
            i++;
            continue;
        }
        int ok = i + length <= n;
        for (size_t j = 1; ok && j < length; j++) {
            unsigned cc = s[i + j];
            ok = (cc & 0xC0) == 0x80;
            cp = (cp << 6) | (cc & 0x3F);
        }
        if (ok && ((length == 2 && cp < 0x80) || (length == 3 && cp < 0x800) ||
                   (length == 4 && cp < 0x10000) || cp > 0x10FFFF ||
                   (cp >= 0xD800 && cp <= 0xDFFF)))
            ok = 0;
        if (!ok) {
            bad = 1;
            out[k++] = 0xFFFD;
            i++;
            continue;
        }
        out[k++] = cp;
        i += length;
    }
    *out_length = k;
    return bad;
}

/* Writes the UTF-8 form of one code point into out (4 bytes room); returns its length. */
static size_t utf8_encode(uint32_t cp, unsigned char *out)
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (cp >> 18));
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* -- String: 8 bytes, a pointer to a shared UTF-32 block (NULL is the empty String) -------- */

#define STRING_MAGIC 0x53747221u /* "Str!" */
#define DEAD_MAGIC 0xDEADDEADu

struct string_block {
    uint32_t magic;
    atomic_int references;
    size_t length;    /* code points, without the terminator */
    uint32_t text[]; /* NUL-terminated */
};

typedef struct {
    struct string_block *block;
} HostString;
_Static_assert(sizeof(HostString) == PYBRIDGE_GD_STRING_SIZE, "a String is 8 bytes");

static atomic_long strings_live;

/* The block of a live String, or NULL for the empty one; reports anything else. */
static struct string_block *string_block_of(const void *string, const char *who)
{
    if (string == NULL) {
        fail("%s: got a NULL String pointer (Godot would crash)", who);
        return NULL;
    }
    struct string_block *block = ((const HostString *)string)->block;
    if (block == NULL)
        return NULL;
    if (is_poison(block)) {
        fail("%s: got uninitialized String storage", who);
        return NULL;
    }
    if (block->magic != STRING_MAGIC) {
        fail("%s: got something that is not a live String", who);
        return NULL;
    }
    return block;
}

static void string_from_code_points(HostString *dest, const uint32_t *text, size_t length)
{
    if (length == 0) {
        dest->block = NULL;
        return;
    }
    struct string_block *block = malloc(sizeof *block + (length + 1) * sizeof(uint32_t));
    if (block == NULL) {
        fail("host out of memory");
        exit(1);
    }
    block->magic = STRING_MAGIC;
    atomic_init(&block->references, 1);
    block->length = length;
    memcpy(block->text, text, length * sizeof(uint32_t));
    block->text[length] = 0;
    atomic_fetch_add(&strings_live, 1);
    dest->block = block;
}

/* Constructs a String from UTF-8; returns 1 if the bytes were not valid UTF-8. */
static int string_from_utf8(HostString *dest, const char *utf8, size_t size)
{
    uint32_t *text = malloc((size + 1) * sizeof(uint32_t));
    size_t length = 0;
    if (text == NULL) {
        fail("host out of memory");
        exit(1);
    }
    int bad = utf8_decode((const unsigned char *)utf8, size, text, &length);
    string_from_code_points(dest, text, length);
    free(text);
    return bad;
}

static void string_copy(HostString *dest, const void *source, const char *who)
{
    struct string_block *block = string_block_of(source, who);
    if (block != NULL)
        atomic_fetch_add(&block->references, 1);
    dest->block = block;
}

static void string_release(void *string, const char *who)
{
    struct string_block *block = string_block_of(string, who);
    if (block != NULL && atomic_fetch_sub(&block->references, 1) == 1) {
        block->magic = DEAD_MAGIC;
        free(block);
        atomic_fetch_sub(&strings_live, 1);
    }
    if (string != NULL)
        poison(string, sizeof(HostString)); /* destroyed storage is uninitialized again */
}

/* The UTF-8 form of a String, malloc'ed and NUL-terminated. */
static char *string_to_utf8(const void *string, const char *who)
{
    struct string_block *block = string_block_of(string, who);
    size_t length = block != NULL ? block->length : 0;
    char *out = malloc(length * 4 + 1);
    size_t n = 0;
    if (out == NULL) {
        fail("host out of memory");
        exit(1);
    }
    for (size_t i = 0; i < length; i++)
        n += utf8_encode(block->text[i], (unsigned char *)out + n);
    out[n] = '\0';
    return out;
}

/* -- StringName: 8 bytes, a pointer to a shared name (NULL is the empty name) -------------- */

#define NAME_MAGIC 0x4E616D65u /* "Name" */

struct name_block {
    uint32_t magic;
    atomic_int references;
    char text[];
};

typedef struct {
    struct name_block *block;
} HostStringName;
_Static_assert(sizeof(HostStringName) == PYBRIDGE_GD_STRING_NAME_SIZE, "a StringName is 8 bytes");

static atomic_long names_live;

/* The text of a live StringName ("" for the empty one); NULL and a report otherwise. */
static const char *name_text(const void *name, const char *who)
{
    if (name == NULL) {
        fail("%s: got a NULL StringName pointer (Godot would crash)", who);
        return NULL;
    }
    struct name_block *block = ((const HostStringName *)name)->block;
    if (block == NULL)
        return "";
    if (is_poison(block)) {
        fail("%s: got uninitialized StringName storage", who);
        return NULL;
    }
    if (block->magic != NAME_MAGIC) {
        fail("%s: got something that is not a live StringName", who);
        return NULL;
    }
    return block->text;
}

static void name_copy(HostStringName *dest, const void *source, const char *who)
{
    dest->block = NULL;
    if (name_text(source, who) == NULL)
        return;
    dest->block = ((const HostStringName *)source)->block;
    if (dest->block != NULL)
        atomic_fetch_add(&dest->block->references, 1);
}

static void name_release(void *name, const char *who)
{
    if (name_text(name, who) == NULL)
        return;
    struct name_block *block = ((HostStringName *)name)->block;
    if (block != NULL && atomic_fetch_sub(&block->references, 1) == 1) {
        block->magic = DEAD_MAGIC;
        free(block);
        atomic_fetch_sub(&names_live, 1);
    }
    poison(name, sizeof(HostStringName));
}

/* -- Dictionary: a shared block of a few entries, String keys, int or String values ----- */

#define DICTIONARY_MAGIC 0x44696374u /* "Dict" */
#define DICTIONARY_ENTRIES 4

struct dictionary_entry {
    char key[32];
    int is_text;
    int64_t integer;
    char text[64];
};

struct dictionary_block {
    uint32_t magic;
    atomic_int references;
    int count;
    struct dictionary_entry entries[DICTIONARY_ENTRIES];
};

static atomic_long dictionaries_live;

static struct dictionary_block *dictionary_new(void)
{
    struct dictionary_block *block = calloc(1, sizeof *block);
    if (block == NULL) {
        fail("host out of memory");
        exit(1);
    }
    block->magic = DICTIONARY_MAGIC;
    atomic_init(&block->references, 1);
    atomic_fetch_add(&dictionaries_live, 1);
    return block;
}

static void dictionary_set(struct dictionary_block *block, const char *key, const char *text,
                           int64_t integer)
{
    if (block->count >= DICTIONARY_ENTRIES) {
        fail("the host's dictionaries hold at most %d entries", DICTIONARY_ENTRIES);
        return;
    }
    struct dictionary_entry *entry = &block->entries[block->count++];
    snprintf(entry->key, sizeof entry->key, "%s", key);
    entry->is_text = text != NULL;
    entry->integer = integer;
    snprintf(entry->text, sizeof entry->text, "%s", text != NULL ? text : "");
}

/* -- Variant: 24 bytes, the type at offset 0 and the value at offset 8 --------------------- */

typedef struct {
    uint32_t type;
    uint32_t padding;
    union {
        HostString string;
        int64_t integer;
        double real;
        uint8_t boolean;
        struct dictionary_block *dictionary;
        void *object;
        uint8_t bytes[16];
    } value;
} HostVariant;
_Static_assert(sizeof(HostVariant) == PYBRIDGE_GD_VARIANT_SIZE, "a Variant is 24 bytes");
_Static_assert(offsetof(HostVariant, value) == 8, "a Variant's value is at offset 8");

static void variant_nil(HostVariant *variant)
{
    memset(variant, 0, sizeof *variant);
    variant->type = GDEXTENSION_VARIANT_TYPE_NIL;
}

static void variant_release(HostVariant *variant, const char *who)
{
    if (variant->type == GDEXTENSION_VARIANT_TYPE_STRING)
        string_release(&variant->value.string, who);
    if (variant->type == GDEXTENSION_VARIANT_TYPE_DICTIONARY) {
        struct dictionary_block *block = variant->value.dictionary;
        if (block == NULL || block->magic != DICTIONARY_MAGIC)
            fail("%s: a Dictionary Variant without a live dictionary", who);
        else if (atomic_fetch_sub(&block->references, 1) == 1) {
            block->magic = DEAD_MAGIC;
            free(block);
            atomic_fetch_sub(&dictionaries_live, 1);
        }
    }
    poison(variant, sizeof *variant);
}

/* Appends `text` to the malloc'ed string *out (of length *length). */
static void append(char **out, size_t *length, const char *text)
{
    size_t more = strlen(text);
    char *grown = realloc(*out, *length + more + 1);
    if (grown == NULL) {
        fail("host out of memory");
        exit(1);
    }
    memcpy(grown + *length, text, more + 1);
    *out = grown;
    *length += more;
}

/* What the engine's String(value) gives, malloc'ed UTF-8: 7 -> "7", 2.5 -> "2.5", 1.0 ->
   "1.0", true -> "true", a Dictionary -> { "key": value, ... } with its Strings quoted. */
static char *stringify(const HostVariant *variant, const char *who)
{
    char number[64];
    char *out = NULL;
    size_t length = 0;
    switch (variant->type) {
    case GDEXTENSION_VARIANT_TYPE_NIL:
        append(&out, &length, "<null>");
        break;
    case GDEXTENSION_VARIANT_TYPE_BOOL:
        append(&out, &length, variant->value.boolean ? "true" : "false");
        break;
    case GDEXTENSION_VARIANT_TYPE_INT:
        snprintf(number, sizeof number, "%lld", (long long)variant->value.integer);
        append(&out, &length, number);
        break;
    case GDEXTENSION_VARIANT_TYPE_FLOAT:
        snprintf(number, sizeof number, "%.14g", variant->value.real);
        if (strpbrk(number, ".eni") == NULL) /* a whole number keeps its ".0" */
            strcat(number, ".0");
        append(&out, &length, number);
        break;
    case GDEXTENSION_VARIANT_TYPE_STRING:
        return string_to_utf8(&variant->value.string, who);
    case GDEXTENSION_VARIANT_TYPE_DICTIONARY: {
        const struct dictionary_block *block = variant->value.dictionary;
        append(&out, &length, "{ ");
        for (int i = 0; block != NULL && i < block->count; i++) {
            const struct dictionary_entry *entry = &block->entries[i];
            append(&out, &length, i > 0 ? ", \"" : "\"");
            append(&out, &length, entry->key);
            append(&out, &length, "\": ");
            if (entry->is_text) {
                append(&out, &length, "\"");
                append(&out, &length, entry->text);
                append(&out, &length, "\"");
            } else {
                snprintf(number, sizeof number, "%lld", (long long)entry->integer);
                append(&out, &length, number);
            }
        }
        append(&out, &length, " }");
        break;
    }
    default:
        fail("%s: the host cannot write a Variant of type %u as a String", who, variant->type);
        append(&out, &length, "");
    }
    return out;
}

#endif
