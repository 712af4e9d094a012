/* read_file.h: the whole of a file as a NUL-terminated string, shared by the test hosts.
 * A file that cannot be read ends the program with READ_FILE_FAILURE (default 1). */
#ifndef PYBRIDGE_TEST_READ_FILE_H
#define PYBRIDGE_TEST_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

#ifndef READ_FILE_FAILURE
#define READ_FILE_FAILURE 1
#endif

#ifdef _WIN32
#include <windows.h>
#endif

/* `path` is UTF-8 (on Windows too, where it is opened by its UTF-16 name). */
static char *read_file(const char *path)
{
#ifdef _WIN32
    wchar_t wide[4096];
    FILE *file = MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, 4096) > 0 ? _wfopen(wide, L"rb") : NULL;
#else
    FILE *file = fopen(path, "rb");
#endif
    if (file == NULL) {
        perror(path);
        exit(READ_FILE_FAILURE);
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char *text = malloc((size_t)size + 1);
    if (text == NULL || fread(text, 1, (size_t)size, file) != (size_t)size) {
        fprintf(stderr, "%s: cannot read\n", path);
        exit(READ_FILE_FAILURE);
    }
    text[size] = '\0';
    fclose(file);
    return text;
}

#endif
