/* call.c: the smallest host. Sends each REQUEST to libpybridge, prints each response.
 *
 * usage: call LIBRARY REQUEST...
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s LIBRARY REQUEST...\n", argv[0]);
        return 2;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    char *(*call)(const char *) = NULL;
    void (*release)(char *) = NULL;
    if (library != NULL) {
        *(void **)&call = dlsym(library, "pybridge_call");
        *(void **)&release = dlsym(library, "pybridge_free");
    }
    if (call == NULL || release == NULL) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    for (int i = 2; i < argc; i++) {
        char *response = call(argv[i]);
        if (response == NULL)
            return 1;
        puts(response);
        release(response);
    }
    return 0;
}
