/* godot_host.c: plays Godot's part for libpybridge's GDExtension, as the interface documents it.
 *
 * usage: godot_host LIBRARY GODOT_VERSION DLOPEN_MODE BATTLE_JSON PYBRIDGE_VERSION [unavailable]
 *   GODOT_VERSION  4.6, 4.5 or 4.4 (which the library must serve), or 4.3 (which it must refuse)
 *   DLOPEN_MODE    local: RTLD_NOW | RTLD_LOCAL; deepbind: RTLD_NOW | RTLD_DEEPBIND, as Godot's
 *                  Linux build opens extension libraries. Built for Windows (mingw-w64), only
 *                  local, which opens the DLL as Godot's Windows build does: AddDllDirectory
 *                  for the library's folder, then LoadLibraryExW with
 *                  LOAD_LIBRARY_SEARCH_DEFAULT_DIRS, from the UTF-16 path
 *   unavailable    the library was built so that Python cannot start: expect the
 *                  runtime_unavailable response and exactly one print_error
 *
 * Like the engine, the host loads the library, calls its entry symbol with a
 * get_proc_address that serves the interface functions by name (recording each name, and
 * refusing names this Godot version does not have), initializes every level, then uses
 * the registered class the way the engine does: create_instance, the Variant call and the
 * typed ptrcall of each method, free_instance, deinitialization. Engine values are real
 * enough to catch misuse: a String is 8 bytes pointing at a reference-counted UTF-32 block,
 * a StringName 8 bytes pointing at a reference-counted name, a Variant 24 bytes with its
 * value at offset 8; every block is counted, so leaks and double frees show.
 *
 * The engine's values live in host_values.h, its class database and interface functions in
 * host_engine.h.
 *
 * Output, one tab-separated record per line on stdout (tests/godot_host_support.py reads it):
 *   requested NAME / unknown NAME / print_error TEXT / registered ... / method ... /
 *   method_bind ... / notification WHAT REVERSED / unregistered NAME / reply LABEL JSON /
 *   call_error ... / summary ...
 * Every failed check is a "FAIL: ..." line on stderr; the exit status is 1 if any failed.
 * THREADS (default 4) engine threads call at once at the end of the battle.
 * GODOT_HOST_REQUESTS, when set, names a file of requests, one a line, each sent through the
 * typed call before the scripted battle (reply requestN), as a game's own script would.
 */
#define _GNU_SOURCE /* RTLD_DEEPBIND */
#ifdef _WIN32
#include <windows.h> /* first: shellapi.h needs its declarations */
#include <fcntl.h>
#include <io.h>
#include <shellapi.h>
#else
#include <dlfcn.h>
#include <pthread.h>
#endif
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READ_FILE_FAILURE 2
#include "read_file.h"

/* The same declarations the library is compiled against: they cannot drift apart. */
#include "../../pybridge/ffi/gdextension_api.h"

#define ENTRY_SYMBOL "pybridge_gdextension_init"
#ifndef THREADS
#define THREADS 4
#endif
#define THREAD_ROUNDS 50

#include "host_engine.h"

/* -- driving the class like the engine does ------------------------------------------------ */

static struct host_class *bridge_class;

static struct host_method *method_named(const char *name)
{
    for (int i = 0; bridge_class != NULL && i < bridge_class->method_count; i++)
        if (strcmp(bridge_class->methods[i].name, name) == 0)
            return &bridge_class->methods[i];
    return NULL;
}

static struct host_object *create_object(GDExtensionBool notify_postinitialize)
{
    struct host_object *object =
        bridge_class->info.create_instance_func(bridge_class->info.class_userdata, notify_postinitialize);
    if (object == NULL || object->magic != OBJECT_MAGIC) {
        fail("create_instance_func did not return an object");
        return NULL;
    }
    check(object->extension == bridge_class && object->instance_set == 1,
          "create_instance_func did not attach exactly one PyBridgeNative instance");
    check(strcmp(object->native_class, "RefCounted") == 0, "the object is not a RefCounted");
    /* godot-cpp sends it once the instance is attached, exactly when the engine asks. */
    check(object->postinitialized == (notify_postinitialize ? 1 : 0),
          notify_postinitialize ? "create_instance did not send NOTIFICATION_POSTINITIALIZE once"
                                : "create_instance sent NOTIFICATION_POSTINITIALIZE unasked");
    return object;
}

/* What Object's destructor does for an extension object. */
static void destroy_object(struct host_object *object)
{
    if (object == NULL)
        return;
    object->extension->info.free_instance_func(object->extension->info.class_userdata, object->instance);
    object->magic = DEAD_MAGIC;
    free(object);
    atomic_fetch_sub(&objects_live, 1);
}

/* A Variant call; returns the result's UTF-8, or NULL after a call error. */
static char *call_with_values(struct host_object *object, const char *method_name, int argument_count,
                              HostVariant *values, GDExtensionCallError *r_error)
{
    struct host_method *method = method_named(method_name);
    if (method == NULL) {
        fail("no method %s", method_name);
        return NULL;
    }
    GDExtensionConstVariantPtr pointers[MAX_ARGUMENTS] = {NULL};
    for (int i = 0; i < argument_count; i++)
        pointers[i] = &values[i];
    HostVariant result;
    variant_nil(&result); /* like MethodBind::call: a fresh nil Variant */
    GDExtensionCallError error = {GDEXTENSION_CALL_OK, 0, 0};
    method->call(method->userdata, object->instance, pointers, argument_count, &result, &error);
    *r_error = error;
    char *text = NULL;
    if (error.error == GDEXTENSION_CALL_OK) {
        if (result.type != GDEXTENSION_VARIANT_TYPE_STRING)
            fail("%s returned a Variant of type %u, not a String", method_name, result.type);
        else
            text = string_to_utf8(&result.value.string, "host");
    } else if (result.type != GDEXTENSION_VARIANT_TYPE_NIL) {
        fail("%s failed but changed its return value", method_name);
    }
    variant_release(&result, "host");
    return text;
}

/* A Variant call with String arguments; returns the result's UTF-8 or NULL after an error. */
static char *variant_call(struct host_object *object, const char *method_name, int argument_count,
                          const char *const *arguments, GDExtensionCallError *r_error)
{
    if (argument_count < 0 || argument_count > MAX_ARGUMENTS) {
        fail("the host passes at most %d arguments", MAX_ARGUMENTS);
        return NULL;
    }
    HostVariant values[MAX_ARGUMENTS];
    for (int i = 0; i < argument_count; i++) {
        variant_nil(&values[i]);
        values[i].type = GDEXTENSION_VARIANT_TYPE_STRING;
        string_from_utf8(&values[i].value.string, arguments[i], strlen(arguments[i]));
    }
    char *text = call_with_values(object, method_name, argument_count, values, r_error);
    for (int i = 0; i < argument_count; i++)
        variant_release(&values[i], "host");
    return text;
}

/* A typed call: the String result is pre-filled, as an initialized return value may be. */
static char *typed_call(struct host_object *object, const char *method_name, const char *argument)
{
    struct host_method *method = method_named(method_name);
    if (method == NULL) {
        fail("no method %s", method_name);
        return NULL;
    }
    HostString request, result;
    GDExtensionConstTypePtr pointers[1] = {&request};
    if (argument != NULL)
        string_from_utf8(&request, argument, strlen(argument));
    string_from_utf8(&result, "stale", 5); /* the callee must release it, not leak it */
    method->ptrcall(method->userdata, object->instance, argument != NULL ? pointers : NULL, &result);
    char *text = string_to_utf8(&result, "host");
    string_release(&result, "host");
    if (argument != NULL)
        string_release(&request, "host");
    return text;
}

static void print_reply(const char *label, const char *text)
{
    printf("reply\t%s\t%s\n", label, text != NULL ? text : "(none)");
    fflush(stdout);
}

static void expect_reply(const char *label, char *text, const char *needle)
{
    print_reply(label, text);
    if (text == NULL || strstr(text, needle) == NULL)
        fail("%s: expected %s in %.300s", label, needle, text != NULL ? text : "(none)");
    free(text);
}

static void expect_call_error(const char *label, struct host_object *object, const char *method,
                              int count, const char *const *arguments, GDExtensionCallErrorType error,
                              int32_t expected)
{
    GDExtensionCallError result;
    char *text = variant_call(object, method, count, arguments, &result);
    printf("call_error\t%s\t%d\t%d\t%d\n", label, (int)result.error, result.argument, result.expected);
    if (text != NULL || result.error != error || result.expected != expected)
        fail("%s: expected call error %d (expected %d), got %d (expected %d)", label, (int)error,
             expected, (int)result.error, result.expected);
    free(text);
}

/* call_json with one value of another type, as GDScript passes it (a Variant call passes
   arguments as they are). Prints a call_error or a reply line labelled `label`. */
static void call_json_with(struct host_object *object, const char *label, HostVariant *value)
{
    GDExtensionCallError error;
    char *text = call_with_values(object, "call_json", 1, value, &error);
    if (error.error != GDEXTENSION_CALL_OK)
        printf("call_error\t%s\t%d\t%d\t%d\n", label, (int)error.error, error.argument, error.expected);
    else
        print_reply(label, text);
    free(text);
    variant_release(value, "host");
}

/* What the engine converts to a String (int, float, bool, Dictionary...) is converted the
   engine's way; nil and objects, which it does not convert, are call errors. */
static void expect_conversions(struct host_object *object)
{
    HostVariant value;
    variant_nil(&value);
    value.type = GDEXTENSION_VARIANT_TYPE_INT;
    value.value.integer = 7;
    call_json_with(object, "from_int", &value);
    variant_nil(&value);
    value.type = GDEXTENSION_VARIANT_TYPE_FLOAT;
    value.value.real = 2.5;
    call_json_with(object, "from_float", &value);
    variant_nil(&value);
    value.type = GDEXTENSION_VARIANT_TYPE_BOOL;
    value.value.boolean = 1;
    call_json_with(object, "from_bool", &value);
    variant_nil(&value);
    value.type = GDEXTENSION_VARIANT_TYPE_DICTIONARY;
    value.value.dictionary = dictionary_new();
    dictionary_set(value.value.dictionary, "op", "version", 0);
    dictionary_set(value.value.dictionary, "id", NULL, 9);
    call_json_with(object, "from_dictionary", &value);
    variant_nil(&value);
    call_json_with(object, "from_nil", &value);
    variant_nil(&value);
    value.type = GDEXTENSION_VARIANT_TYPE_OBJECT;
    value.value.object = object;
    call_json_with(object, "from_object", &value);
}

struct worker {
#ifdef _WIN32
    HANDLE thread;
#else
    pthread_t thread;
#endif
    struct host_object *object;
    int index;
    int bad;
};

static void *work(void *arg)
{
    struct worker *self = arg;
    char request[64];
    for (int i = 0; i < THREAD_ROUNDS; i++) {
        snprintf(request, sizeof request, "{\"op\":\"version\",\"id\":%d}", self->index * 1000 + i);
        char expected_id[32];
        snprintf(expected_id, sizeof expected_id, "\"id\":%d,", self->index * 1000 + i);
        char *text;
        if (i % 2 == 0) {
            text = typed_call(self->object, "call_json", request);
        } else {
            GDExtensionCallError error;
            const char *arguments[1] = {request};
            text = variant_call(self->object, "call_json", 1, arguments, &error);
        }
        if (text == NULL || strstr(text, "\"ok\":true") == NULL || strstr(text, expected_id) == NULL)
            self->bad++;
        free(text);
    }
    return NULL;
}

#ifdef _WIN32
static DWORD WINAPI work_thread(LPVOID arg)
{
    work(arg);
    return 0;
}
#endif

/* Each line of the file at `path` through call_json, before the scripted battle. */
static void play_the_requests(struct host_object *object, const char *path)
{
    char *text = read_file(path);
    int count = 0;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char label[32];
        snprintf(label, sizeof label, "request%d", ++count);
        char *reply = typed_call(object, "call_json", line);
        print_reply(label, reply);
        free(reply);
    }
    free(text);
}

static void play_the_battle(struct host_object *first, struct host_object *second,
                            const char *battle_path)
{
    /* Open the demo battle through the Variant call, on the first object. */
    char *battle = read_file(battle_path);
    char *open = malloc(strlen(battle) + 64);
    sprintf(open, "{\"op\":\"open\",\"id\":1,\"battle\":%s}", battle);
    free(battle);
    GDExtensionCallError error;
    const char *arguments[1] = {open};
    char *opened = variant_call(first, "call_json", 1, arguments, &error);
    free(open);
    print_reply("open", opened);
    char session[32] = "";
    const char *at = opened != NULL ? strstr(opened, "\"session\":\"") : NULL;
    if (at == NULL || sscanf(at + strlen("\"session\":\""), "%31[^\"]", session) != 1) {
        fail("open: no session in the reply");
        free(opened);
        return;
    }
    free(opened);

    char request[256];
    /* Targets through ptrcall, on the first object. */
    snprintf(request, sizeof request,
             "{\"op\":\"targets\",\"id\":2,\"session\":\"%s\",\"card\":\"h1\"}", session);
    expect_reply("targets", typed_call(first, "call_json", request),
                 "\"candidates\":[\"goblin\",\"orc\",\"shaman\"]");
    /* Strike at the orc through the Variant call on the second object: the session belongs
       to the runtime, not to the object. 6 damage, 4 blocked: 34 HP -> 32 HP. */
    snprintf(request, sizeof request,
             "{\"op\":\"play\",\"id\":3,\"session\":\"%s\",\"card\":\"h1\",\"target\":\"orc\"}",
             session);
    arguments[0] = request;
    expect_reply("play", variant_call(second, "call_json", 1, arguments, &error),
                 "\"hp_before\":34,\"hp_after\":32");
    /* The authoring operations a game's own editor asks for, and the turn loop. */
    snprintf(request, sizeof request,
             "{\"op\":\"describe\",\"id\":5,\"session\":\"%s\",\"card\":\"h2\"}", session);
    expect_reply("describe", typed_call(first, "call_json", request), "\"text\":");
    expect_reply("lint",
                 typed_call(first, "call_json",
                            "{\"op\":\"lint\",\"id\":6,\"document\":{\"format\":\"pybridge/battle@1\"}}"),
                 "\"diagnostics\":");
    snprintf(request, sizeof request, "{\"op\":\"end_turn\",\"id\":7,\"session\":\"%s\"}", session);
    expect_reply("end_turn", typed_call(first, "call_json", request), "\"ok\":true");
    snprintf(request, sizeof request, "{\"op\":\"close\",\"id\":4,\"session\":\"%s\"}", session);
    expect_reply("close", typed_call(second, "call_json", request), "\"ok\":true");
    /* Which interpreter answers, with its home and module search path. */
    expect_reply("protocol_version", typed_call(first, "call_json", "{\"op\":\"version\",\"id\":8}"),
                 "\"python\":");

    /* Non-ASCII text both ways: the request id comes back (JSON-escaped) as sent. */
    expect_reply("unicode",
                 typed_call(first, "call_json",
                            "{\"op\":\"version\",\"id\":\"\xc3\xa9\xe2\x86\x92\xf0\x9f\x98\x80\"}"),
                 "\"id\":\"\\u00e9\\u2192\\ud83d\\ude00\"");
    expect_reply("not_json", typed_call(first, "call_json", "not json"), "\"code\":\"bad_json\"");
    expect_reply("empty", typed_call(first, "call_json", ""), "\"code\":\"bad_json\"");
    /* Godot never passes NULL arguments to a ptrcall; if it did, the answer is an error. */
    expect_reply("null_args", typed_call(first, "call_json", NULL), "\"code\":\"null_request\"");

    /* Several engine threads calling at once, through both call paths. */
    struct worker workers[THREADS];
    for (int i = 0; i < THREADS; i++) {
        workers[i] = (struct worker){.object = i % 2 ? second : first, .index = i + 1, .bad = 0};
#ifdef _WIN32
        workers[i].thread = CreateThread(NULL, 0, work_thread, &workers[i], 0, NULL);
        check(workers[i].thread != NULL, "CreateThread failed");
#else
        pthread_create(&workers[i].thread, NULL, work, &workers[i]);
#endif
    }
    int bad = 0;
    for (int i = 0; i < THREADS; i++) {
#ifdef _WIN32
        if (workers[i].thread != NULL) {
            WaitForSingleObject(workers[i].thread, INFINITE);
            CloseHandle(workers[i].thread);
        }
#else
        pthread_join(workers[i].thread, NULL);
#endif
        bad += workers[i].bad;
    }
    printf("threads\t%d\t%d\tbad=%d\n", THREADS, THREAD_ROUNDS, bad);
    check(bad == 0, "threaded calls got wrong replies");
}

static int parse_version(const char *text)
{
    if (strcmp(text, "4.3") == 0 || strcmp(text, "4.4") == 0 || strcmp(text, "4.5") == 0 ||
        strcmp(text, "4.6") == 0) {
        godot_minor = (uint32_t)(text[2] - '0');
        snprintf(godot_version_string, sizeof godot_version_string,
                 "Godot Engine v4.%u%s.stable.simulated", godot_minor, godot_minor == 4 ? ".1" : "");
        return 1;
    }
    return 0;
}

#ifdef _WIN32
/* As Godot's Windows build opens an extension library (OS_Windows::open_dynamic_library):
   the library's folder is added to the DLL search path while it loads. */
static void *open_library(const char *utf8_path, const char *mode)
{
    (void)mode;
    wchar_t path[4096];
    if (MultiByteToWideChar(CP_UTF8, 0, utf8_path, -1, path, 4096) <= 0) {
        fprintf(stderr, "FAIL: the library path is not UTF-8\n");
        return NULL;
    }
    for (wchar_t *c = path; *c; c++)
        if (*c == L'/')
            *c = L'\\';
    wchar_t folder[4096];
    wcscpy(folder, path);
    wchar_t *slash = wcsrchr(folder, L'\\');
    if (slash != NULL)
        *slash = L'\0';
    DLL_DIRECTORY_COOKIE cookie = AddDllDirectory(folder);
    if (cookie == NULL)
        fprintf(stderr, "FAIL: AddDllDirectory failed: %lu\n", GetLastError());
    HMODULE library = LoadLibraryExW(path, NULL, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS);
    if (library == NULL)
        fprintf(stderr, "FAIL: LoadLibraryExW failed: %lu\n", GetLastError());
    if (cookie != NULL)
        RemoveDllDirectory(cookie);
    return (void *)library;
}

static void *library_symbol(void *library, const char *name)
{
    return (void *)GetProcAddress((HMODULE)library, name);
}

static int valid_mode(const char *mode)
{
    return strcmp(mode, "local") == 0;
}

/* The arguments as UTF-8, from the UTF-16 command line (argv is in the ANSI code page). */
static char **utf8_arguments(int *argc)
{
    wchar_t **wide = CommandLineToArgvW(GetCommandLineW(), argc);
    char **argv = calloc((size_t)*argc + 1, sizeof *argv);
    for (int i = 0; wide != NULL && argv != NULL && i < *argc; i++) {
        int size = WideCharToMultiByte(CP_UTF8, 0, wide[i], -1, NULL, 0, NULL, NULL);
        argv[i] = malloc((size_t)size);
        WideCharToMultiByte(CP_UTF8, 0, wide[i], -1, argv[i], size, NULL, NULL);
    }
    return argv;
}
#else
static void *open_library(const char *path, const char *mode)
{
    void *library = dlopen(path, RTLD_NOW | (strcmp(mode, "deepbind") == 0 ? RTLD_DEEPBIND : RTLD_LOCAL));
    if (library == NULL)
        fprintf(stderr, "FAIL: %s\n", dlerror());
    return library;
}

static void *library_symbol(void *library, const char *name)
{
    return dlsym(library, name);
}

static int valid_mode(const char *mode)
{
    return strcmp(mode, "local") == 0 || strcmp(mode, "deepbind") == 0;
}
#endif

int main(int argc, char **argv)
{
#ifdef _WIN32
    argv = utf8_arguments(&argc);
    _setmode(_fileno(stdout), _O_BINARY); /* the records end in \n, as on Linux */
#endif
    int unavailable = argc == 7 && strcmp(argv[6], "unavailable") == 0;
    if ((argc != 6 && !unavailable) || !parse_version(argv[2]) || !valid_mode(argv[3])) {
        fprintf(stderr,
                "usage: %s LIBRARY 4.3|4.4|4.5|4.6 local|deepbind BATTLE_JSON PYBRIDGE_VERSION "
                "[unavailable]\n",
                argv[0]);
        return 2;
    }
    void *library = open_library(argv[1], argv[3]);
    if (library == NULL)
        return 1;
    GDExtensionInitializationFunction entry;
    *(void **)&entry = library_symbol(library, ENTRY_SYMBOL);
    if (entry == NULL) {
        fprintf(stderr, "FAIL: no entry symbol %s\n", ENTRY_SYMBOL);
        return 1;
    }

    GDExtensionInitialization initialization;
    poison(&initialization, sizeof initialization);
    GDExtensionBool accepted =
        entry(host_get_proc_address, (GDExtensionClassLibraryPtr)&godot_library_token, &initialization);
    printf("entry\t%d\n", accepted);
    if (godot_minor < 4) {
        /* Too old: the library must say no, say why, and register nothing. */
        check(!accepted, "the library accepted Godot 4.3");
        check(atomic_load(&print_errors) >= 1, "the library refused Godot 4.3 without an error");
        check(registered_count() == 0, "the library registered a class on Godot 4.3");
        printf("summary\tstrings_live=%ld\tnames_live=%ld\tobjects_live=%ld\tprint_errors=%d\n",
               atomic_load(&strings_live), atomic_load(&names_live), atomic_load(&objects_live),
               atomic_load(&print_errors));
        return atomic_load(&failures) == 0 ? 0 : 1;
    }
    if (!accepted) {
        fprintf(stderr, "FAIL: the entry symbol refused Godot 4.%u\n", godot_minor);
        return 1;
    }
    check(initialization.minimum_initialization_level == GDEXTENSION_INITIALIZATION_SCENE,
          "minimum_initialization_level is not SCENE");
    uintptr_t initialize_bits, deinitialize_bits;
    memcpy(&initialize_bits, &initialization.initialize, sizeof initialize_bits);
    memcpy(&deinitialize_bits, &initialization.deinitialize, sizeof deinitialize_bits);
    if (initialize_bits == 0 || deinitialize_bits == 0 || is_poison((void *)initialize_bits) ||
        is_poison((void *)deinitialize_bits)) {
        fprintf(stderr, "FAIL: initialize or deinitialize not set\n");
        return 1;
    }

    /* Up through the levels, as the engine does at start-up. */
    for (int level = GDEXTENSION_INITIALIZATION_CORE; level < GDEXTENSION_MAX_INITIALIZATION_LEVEL;
         level++) {
        initialization.initialize(initialization.userdata, (GDExtensionInitializationLevel)level);
        int expected = level >= GDEXTENSION_INITIALIZATION_SCENE ? 1 : 0;
        printf("initialized\t%d\tclasses=%d\n", level, registered_count());
        if (registered_count() != expected)
            fail("after initializing level %d, %d classes are registered (expected %d)", level,
                 registered_count(), expected);
    }
    bridge_class = find_class("PyBridgeNative");
    if (bridge_class == NULL) {
        fprintf(stderr, "FAIL: no class PyBridgeNative\n");
        return 1;
    }
    check(strcmp(bridge_class->parent, "RefCounted") == 0, "PyBridgeNative does not extend RefCounted");
    check(strcmp(bridge_class->via, godot_minor >= 5 ? "classdb_register_extension_class5"
                                                     : "classdb_register_extension_class4") == 0,
          "PyBridgeNative was registered through the wrong function for this version");
    struct host_method *call_json = method_named("call_json"), *version = method_named("version");
    check(call_json != NULL && call_json->argument_count == 1 &&
              call_json->argument_types[0] == GDEXTENSION_VARIANT_TYPE_STRING &&
              call_json->has_return && call_json->return_type == GDEXTENSION_VARIANT_TYPE_STRING,
          "call_json is not (String) -> String");
    check(version != NULL && version->argument_count == 0 && version->has_return &&
              version->return_type == GDEXTENSION_VARIANT_TYPE_STRING,
          "version is not () -> String");
    if (call_json == NULL || version == NULL)
        return 1;

    struct host_object *first = create_object(1), *second = create_object(0);
    if (first == NULL || second == NULL)
        return 1;
    check(first->instance != second->instance, "two objects share one instance");

    GDExtensionCallError error;
    const char *expected_version = argv[5];
    char *text = variant_call(first, "version", 0, NULL, &error);
    print_reply("version_call", text);
    check(text != NULL && strcmp(text, expected_version) == 0, "version() through call is wrong");
    free(text);
    text = typed_call(second, "version", NULL);
    print_reply("version_ptrcall", text);
    check(text != NULL && strcmp(text, expected_version) == 0, "version() through ptrcall is wrong");
    free(text);

    const char *no_arguments[2] = {"{}", "{}"};
    expect_call_error("too_few", first, "call_json", 0, no_arguments,
                      GDEXTENSION_CALL_ERROR_TOO_FEW_ARGUMENTS, 1);
    expect_call_error("too_many", first, "call_json", 2, no_arguments,
                      GDEXTENSION_CALL_ERROR_TOO_MANY_ARGUMENTS, 1);
    expect_call_error("version_too_many", first, "version", 1, no_arguments,
                      GDEXTENSION_CALL_ERROR_TOO_MANY_ARGUMENTS, 0);
    expect_conversions(first);

    if (unavailable) {
        const char *request = "{\"op\":\"version\",\"id\":1}";
        const char *arguments[1] = {request};
        expect_reply("unavailable_call", variant_call(first, "call_json", 1, arguments, &error),
                     "\"code\":\"runtime_unavailable\"");
        expect_reply("unavailable_ptrcall", typed_call(second, "call_json", request),
                     "\"code\":\"runtime_unavailable\"");
        expect_reply("unavailable_again", typed_call(first, "call_json", request),
                     "\"code\":\"runtime_unavailable\"");
        check(atomic_load(&print_errors) == 1, "the failed start was not reported exactly once");
    } else {
        const char *requests = getenv("GODOT_HOST_REQUESTS");
        if (requests != NULL && requests[0] != '\0')
            play_the_requests(first, requests);
        play_the_battle(first, second, argv[4]);
        check(atomic_load(&print_errors) == 0, "print_error was called although Python started");
    }

    destroy_object(first);
    destroy_object(second);

    /* Down again, editor first. */
    for (int level = GDEXTENSION_MAX_INITIALIZATION_LEVEL - 1; level >= GDEXTENSION_INITIALIZATION_CORE;
         level--) {
        initialization.deinitialize(initialization.userdata, (GDExtensionInitializationLevel)level);
        int expected = level > GDEXTENSION_INITIALIZATION_SCENE ? 1 : 0;
        printf("deinitialized\t%d\tclasses=%d\n", level, registered_count());
        if (registered_count() != expected)
            fail("after deinitializing level %d, %d classes are registered (expected %d)", level,
                 registered_count(), expected);
    }

    long strings = atomic_load(&strings_live), names = atomic_load(&names_live),
         objects = atomic_load(&objects_live);
    printf("summary\tstrings_live=%ld\tnames_live=%ld\tobjects_live=%ld\tprint_errors=%d\n", strings,
           names, objects, atomic_load(&print_errors));
    check(strings == 0, "Strings leaked");
    check(names == 0, "StringNames leaked");
    check(objects == 0, "objects leaked");
    check(atomic_load(&dictionaries_live) == 0, "Dictionaries leaked");
    return atomic_load(&failures) == 0 ? 0 : 1;
}
