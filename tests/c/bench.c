/* bench.c: times libpybridge calls from a real C host and prints the numbers as JSON.
 *
 * usage: bench LIBRARY BATTLE_JSON rounds WARMUP [CARD TARGET]
 *        bench LIBRARY BATTLE_JSON rss CALLS [CARD TARGET]
 *
 * Both modes start Python and open the battle in a session first.
 * rounds: makes WARMUP untimed calls of each kind, then reads a number of calls N per line
 *   on stdin, until end of input, and answers each with one report line: N "targets"
 *   requests, then N "preview" requests (CARD at TARGET, default h1 at orc), then N
 *   "version" requests (next to no work in Python: what the transport alone costs), each
 *   one pybridge_call() plus pybridge_free() between two clock_gettime(CLOCK_MONOTONIC)
 *   readings, every time in nanoseconds:
 *   {"mode": "latency", "calls": N, "failures": F, "targets_ns": [...], "preview_ns": [...],
 *    "version_ns": [...]}
 *   The process stays warm from round to round, like the bench's other paths.
 * rss: warms up, makes CALLS calls (targets and preview in turn) and prints the resident set size
 *   before and after, and at ten checkpoints between (each checkpoint also writes the line
 *   "progress DONE CALLS" to stderr, for a progress bar):
 *   {"mode": "rss", "calls": N, "rss_before_kb": ..., "rss_after_kb": ...,
 *    "checkpoints": [[calls, rss_kb], ...], "seconds": ...}
 * Exits 1 if any response is not a success.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "load_abi.h"
#include "read_file.h"

#define WARMUP 200

static char *(*pybridge_call)(const char *);
static void (*pybridge_free)(char *);
static int failures;

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long rss_kb(void)
{
    long pages = 0, resident = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (statm == NULL)
        return -1;
    if (fscanf(statm, "%ld %ld", &pages, &resident) != 2)
        resident = -1;
    fclose(statm);
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* One round trip; a failure is counted and reported once. */
static void round_trip(const char *request)
{
    char *response = pybridge_call(request);
    if (response == NULL || strncmp(response, "{\"ok\":true,", 11) != 0) {
        if (failures++ == 0)
            fprintf(stderr, "unexpected response to %.80s: %.300s\n", request,
                    response ? response : "NULL");
    }
    pybridge_free(response);
}

/* Opens the battle and returns its session id (static storage). */
static const char *open_session(const char *battle)
{
    static char session[32];
    char *request = malloc(strlen(battle) + 64);
    sprintf(request, "{\"op\":\"open\",\"id\":0,\"battle\":%s}", battle);
    char *opened = pybridge_call(request);
    free(request);
    const char *at = opened ? strstr(opened, "\"session\":\"") : NULL;
    if (at == NULL || sscanf(at + 11, "%31[^\"]", session) != 1) {
        fprintf(stderr, "open failed: %.300s\n", opened ? opened : "NULL");
        exit(1);
    }
    pybridge_free(opened);
    return session;
}

static void print_times(const char *name, const long long *times, long calls, int last)
{
    printf("\"%s\":[", name);
    for (long i = 0; i < calls; i++)
        printf(i ? ",%lld" : "%lld", times[i]);
    printf(last ? "]" : "],");
}

static int latency(const char *targets, const char *preview, long calls, int warmup)
{
    long long *times[3];
    const char *requests[3] = {targets, preview, "{\"op\":\"version\",\"id\":3}"};
    for (int op = 0; op < 3; op++) {
        times[op] = malloc(sizeof(long long) * (size_t)(calls > 0 ? calls : 1));
        if (times[op] == NULL)
            return 1;
        for (int i = 0; i < warmup; i++)
            round_trip(requests[op]);
        for (long i = 0; i < calls; i++) {
            long long start = now_ns();
            round_trip(requests[op]);
            times[op][i] = now_ns() - start;
        }
    }
    printf("{\"mode\":\"latency\",\"calls\":%ld,\"failures\":%d,", calls, failures);
    print_times("targets_ns", times[0], calls, 0);
    print_times("preview_ns", times[1], calls, 0);
    print_times("version_ns", times[2], calls, 1);
    printf("}\n");
    fflush(stdout);
    for (int op = 0; op < 3; op++)
        free(times[op]);
    return failures == 0 ? 0 : 1;
}

static int rounds(const char *targets, const char *preview, int warmup)
{
    long calls;
    int status = 0;
    while (scanf("%ld", &calls) == 1 && calls >= 1) {
        status |= latency(targets, preview, calls, warmup);
        warmup = 0; /* the process stays warm between rounds */
    }
    return status;
}

static int rss(const char *targets, const char *preview, long calls)
{
    for (int i = 0; i < WARMUP; i++)
        round_trip(i % 2 ? preview : targets);
    long before = rss_kb();
    long step = calls >= 10 ? calls / 10 : 1;
    long long start = now_ns();
    printf("{\"mode\":\"rss\",\"calls\":%ld,\"rss_before_kb\":%ld,\"checkpoints\":[", calls,
           before);
    for (long i = 1; i <= calls; i++) {
        round_trip(i % 2 ? preview : targets);
        if (i % step == 0) {
            printf("%s[%ld,%ld]", i == step ? "" : ",", i, rss_kb());
            fprintf(stderr, "progress %ld %ld\n", i, calls);
        }
    }
    double seconds = (double)(now_ns() - start) / 1e9;
    printf("],\"rss_after_kb\":%ld,\"seconds\":%.3f,\"failures\":%d}\n", rss_kb(), seconds,
           failures);
    return failures == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if ((argc != 5 && argc != 7) || (strcmp(argv[3], "rounds") != 0 && strcmp(argv[3], "rss") != 0)) {
        fprintf(stderr, "usage: %s LIBRARY BATTLE_JSON (rounds WARMUP | rss CALLS) [CARD TARGET]\n",
                argv[0]);
        return 2;
    }
    long calls = atol(argv[4]);
    const char *card = argc == 7 ? argv[5] : "h1";
    const char *target = argc == 7 ? argv[6] : "orc";
    if (calls < 1 || calls > 1000000000 || strlen(card) > 64 || strlen(target) > 64) {
        fprintf(stderr, "WARMUP and CALLS: 1 to 1e9; CARD and TARGET at most 64 bytes\n");
        return 2;
    }
    struct pybridge_abi abi = load_abi(argv[1]);
    pybridge_call = abi.call;
    pybridge_free = abi.release;
    char *battle = read_file(argv[2]);
    const char *session = open_session(battle);
    free(battle);

    char targets[256], preview[256];
    snprintf(targets, sizeof targets,
             "{\"op\":\"targets\",\"id\":1,\"session\":\"%s\",\"card\":\"%s\"}", session, card);
    snprintf(preview, sizeof preview,
             "{\"op\":\"preview\",\"id\":2,\"session\":\"%s\",\"card\":\"%s\",\"target\":\"%s\"}",
             session, card, target);
    int status = strcmp(argv[3], "rounds") == 0 ? rounds(targets, preview, (int)calls)
                                                : rss(targets, preview, calls);
    fflush(stdout);
    return status;
}
