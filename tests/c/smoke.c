/* smoke.c: drive libpybridge the way a game engine does (dlopen with RTLD_LOCAL).
 *
 * usage: smoke LIBRARY BATTLE_JSON MAX_REQUEST_BYTES
 * Prints "label<TAB>response" for every call, checks each response, and exits 1 if
 * any check failed. tests/test_ffi.py builds, runs and re-checks it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_abi.h"
#include "read_file.h"

static const char *(*pybridge_version)(void);
static char *(*pybridge_call)(const char *);
static void (*pybridge_free)(char *);
static int failures = 0;

/* Calls the library, prints the answer, and checks it starts with `prefix` and holds
   `needle`. Returns the response, which the caller frees. */
static char *expect(const char *label, const char *request, const char *prefix,
                    const char *needle)
{
    char *response = pybridge_call(request);
    if (response == NULL) {
        fprintf(stderr, "%s: NULL response\n", label);
        exit(1);
    }
    printf("%s\t%s\n", label, response);
    if (strncmp(response, prefix, strlen(prefix)) != 0 || strstr(response, needle) == NULL) {
        fprintf(stderr, "%s: expected %s...%s, got %.300s\n", label, prefix, needle, response);
        failures++;
    }
    return response;
}

static void expect_ok(const char *label, const char *request, const char *needle)
{
    pybridge_free(expect(label, request, "{\"ok\":true,", needle));
}

static void expect_error(const char *label, const char *request, const char *code)
{
    char needle[64];
    snprintf(needle, sizeof needle, "\"code\":\"%s\"", code);
    pybridge_free(expect(label, request, "{\"ok\":false,", needle));
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s LIBRARY BATTLE_JSON MAX_REQUEST_BYTES\n", argv[0]);
        return 2;
    }
    struct pybridge_abi abi = load_abi(argv[1]);
    pybridge_version = abi.version;
    pybridge_call = abi.call;
    pybridge_free = abi.release;

    const char *version = pybridge_version();
    printf("version\t%s\n", version);
    if (version == NULL || version[0] == '\0' || pybridge_version() != version) {
        fprintf(stderr, "version: expected one static, non-empty string\n");
        failures++;
    }

    /* Open the demo battle and keep its session id. */
    char *battle = read_file(argv[2]);
    char *request = malloc(strlen(battle) + 64);
    sprintf(request, "{\"op\":\"open\",\"id\":1,\"battle\":%s}", battle);
    char *opened = expect("open", request, "{\"ok\":true,", "\"session\":\"");
    const char *at = strstr(opened, "\"session\":\"");
    char session[32] = "";
    if (at == NULL || sscanf(at + strlen("\"session\":\""), "%31[^\"]", session) != 1) {
        fprintf(stderr, "open: no session in the response\n");
        return 1;
    }
    pybridge_free(opened);
    free(request);
    free(battle);

    char line[256];
    snprintf(line, sizeof line, "{\"op\":\"targets\",\"id\":2,\"session\":\"%s\",\"card\":\"h1\"}",
             session);
    expect_ok("targets", line, "\"candidates\":[\"goblin\",\"orc\",\"shaman\"]");
    /* Strike deals 6; the orc's 4 armor blocks 4 of it: 34 HP -> 32 HP. */
    snprintf(line, sizeof line,
             "{\"op\":\"play\",\"id\":3,\"session\":\"%s\",\"card\":\"h1\",\"target\":\"orc\"}",
             session);
    expect_ok("play", line, "\"unit\":\"orc\",\"base\":6,\"amount\":6,\"blocked\":4,\"hp_before\":34,"
                            "\"hp_after\":32");
    snprintf(line, sizeof line, "{\"op\":\"close\",\"id\":4,\"session\":\"%s\"}", session);
    expect_ok("close", line, "\"closed\"");

    /* Bad input: always an error response, never a crash. */
    expect_error("null", NULL, "null_request");
    expect_error("bad_utf8", "{\"op\":\"version\",\"id\":\"\xff\xfe\"}", "bad_utf8");
    expect_error("not_json", "not json", "bad_json");
    size_t limit = strtoul(argv[3], NULL, 10);
    char *big = malloc(limit + 2);
    memset(big, ' ', limit + 1);
    big[limit + 1] = '\0';
    expect_error("too_large", big, "too_large");
    big[limit] = '\0'; /* exactly at the limit: read, and found to be no JSON */
    expect_error("at_limit", big, "bad_json");
    free(big);
    pybridge_free(NULL);

    return failures == 0 ? 0 : 1;
}
