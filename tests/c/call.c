/* call.c: the smallest host. Sends each REQUEST to libpybridge, prints each response.
 *
 * usage: call LIBRARY REQUEST...
 */
#include <stdio.h>

#include "load_abi.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s LIBRARY REQUEST...\n", argv[0]);
        return 2;
    }
    struct pybridge_abi abi = load_abi(argv[1]);
    for (int i = 2; i < argc; i++) {
        char *response = abi.call(argv[i]);
        if (response == NULL)
            return 1;
        puts(response);
        abi.release(response);
    }
    return 0;
}
