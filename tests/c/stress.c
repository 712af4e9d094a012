/* stress.c: several host threads calling libpybridge at once, each on its own session.
 *
 * usage: stress LIBRARY BATTLE_JSON THREADS ROUNDS [cold]
 * The threads start together. Each opens the battle, then ROUNDS times asks for targets
 * and a preview and expects byte-identical answers every time, plays Strike at the orc
 * (34 -> 32 HP on its own session) and closes the session. Prints the call rate and
 * exits 1 on any mismatch. "cold": the threads' first calls race to start Python.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "load_abi.h"
#include "read_file.h"

static char *(*pybridge_call)(const char *);
static void (*pybridge_free)(char *);
static char *open_request;
static int rounds;
static pthread_barrier_t start_line;

struct worker {
    pthread_t thread;
    long calls;
    int failures;
};

static char *call(struct worker *self, const char *request)
{
    self->calls++;
    char *response = pybridge_call(request);
    if (response == NULL || strncmp(response, "{\"ok\":true,", 11) != 0) {
        fprintf(stderr, "unexpected response to %.80s: %.300s\n", request,
                response ? response : "NULL");
        self->failures++;
    }
    return response;
}

/* Calls `request` and checks the answer equals `*first`, keeping the first answer. */
static void call_same(struct worker *self, const char *request, char **first)
{
    char *response = call(self, request);
    if (*first == NULL) {
        *first = response;
        return;
    }
    if (response == NULL || strcmp(response, *first) != 0) {
        fprintf(stderr, "answer changed for %.80s\n", request);
        self->failures++;
    }
    pybridge_free(response);
}

static void *work(void *arg)
{
    struct worker *self = arg;
    pthread_barrier_wait(&start_line);
    char *opened = call(self, open_request);
    char session[32] = "";
    const char *at = opened ? strstr(opened, "\"session\":\"") : NULL;
    if (at == NULL || sscanf(at + 11, "%31[^\"]", session) != 1) {
        self->failures++;
        pybridge_free(opened);
        return NULL;
    }
    pybridge_free(opened);

    char targets[160], preview[160], play[160], close[160];
    snprintf(targets, sizeof targets,
             "{\"op\":\"targets\",\"id\":1,\"session\":\"%s\",\"card\":\"h1\"}", session);
    snprintf(preview, sizeof preview,
             "{\"op\":\"preview\",\"id\":2,\"session\":\"%s\",\"card\":\"h1\",\"target\":\"orc\"}",
             session);
    snprintf(play, sizeof play,
             "{\"op\":\"play\",\"id\":3,\"session\":\"%s\",\"card\":\"h1\",\"target\":\"orc\"}",
             session);
    snprintf(close, sizeof close, "{\"op\":\"close\",\"id\":4,\"session\":\"%s\"}", session);

    char *first_targets = NULL, *first_preview = NULL;
    for (int i = 0; i < rounds; i++) {
        call_same(self, targets, &first_targets);
        call_same(self, preview, &first_preview);
    }
    pybridge_free(first_targets);
    pybridge_free(first_preview);

    char *played = call(self, play);
    if (played == NULL || strstr(played, "\"hp_before\":34,\"hp_after\":32") == NULL) {
        fprintf(stderr, "session %s: the orc did not go from 34 to 32 HP\n", session);
        self->failures++;
    }
    pybridge_free(played);
    pybridge_free(call(self, close));
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 5 && !(argc == 6 && strcmp(argv[5], "cold") == 0)) {
        fprintf(stderr, "usage: %s LIBRARY BATTLE_JSON THREADS ROUNDS [cold]\n", argv[0]);
        return 2;
    }
    struct pybridge_abi abi = load_abi(argv[1]);
    pybridge_call = abi.call;
    pybridge_free = abi.release;
    int threads = atoi(argv[3]);
    rounds = atoi(argv[4]);
    if (threads < 1 || rounds < 0) {
        fprintf(stderr, "THREADS must be at least 1 and ROUNDS at least 0\n");
        return 2;
    }
    char *battle = read_file(argv[2]);
    open_request = malloc(strlen(battle) + 64);
    sprintf(open_request, "{\"op\":\"open\",\"id\":0,\"battle\":%s}", battle);
    struct worker *workers = calloc((size_t)threads, sizeof *workers);

    pthread_barrier_init(&start_line, NULL, (unsigned)threads);
    if (argc == 5) /* warm: the rate then measures calls, not the interpreter's start */
        pybridge_free(pybridge_call("{\"op\":\"version\",\"id\":0}"));

    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int i = 0; i < threads; i++)
        pthread_create(&workers[i].thread, NULL, work, &workers[i]);
    long calls = 0;
    int failures = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(workers[i].thread, NULL);
        calls += workers[i].calls;
        failures += workers[i].failures;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    printf("threads %d calls %ld failures %d seconds %.3f calls_per_second %.0f\n", threads,
           calls, failures, seconds, calls / seconds);
    pthread_barrier_destroy(&start_line);
    free(workers);
    free(open_request);
    free(battle);
    return failures == 0 ? 0 : 1;
}
