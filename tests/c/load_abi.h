/* load_abi.h: open libpybridge as a game engine does (dlopen with RTLD_LOCAL) and find its
 * C ABI, shared by the test hosts. A library or a symbol that is missing ends the program
 * with 1 and says why on stderr. */
#ifndef PYBRIDGE_TEST_LOAD_ABI_H
#define PYBRIDGE_TEST_LOAD_ABI_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

struct pybridge_abi {
    const char *(*version)(void);
    char *(*call)(const char *);
    void (*release)(char *);
};

static struct pybridge_abi load_abi(const char *path)
{
    struct pybridge_abi abi = {NULL, NULL, NULL};
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "%s\n", dlerror());
        exit(1);
    }
    *(void **)&abi.version = dlsym(library, "pybridge_version");
    *(void **)&abi.call = dlsym(library, "pybridge_call");
    *(void **)&abi.release = dlsym(library, "pybridge_free");
    if (!abi.version || !abi.call || !abi.release) {
        fprintf(stderr, "missing symbol: %s\n", dlerror());
        exit(1);
    }
    return abi;
}

#endif
