/* pybridge.c: the C half of libpybridge, compiled by cffi's set_source().
 *
 * It owns the ABI declared in pybridge.h, so that everything that needs no Python
 * (the version, freeing, NULL and oversized requests, a failed start) never touches
 * it, and so that the interpreter is started the way a non-Python host needs before
 * cffi's own start-up imports _cffi_backend. cffi places this text after Python.h and
 * its embedding support; build.py defines PYBRIDGE_VERSION, PYBRIDGE_MAX_REQUEST_BYTES and
 * either PYBRIDGE_PYTHON (a library for this machine, embedding the Python that built it)
 * or PYBRIDGE_BUNDLE_HOME and PYBRIDGE_BUNDLE_PATHS (a self-contained bundle, whose
 * interpreter sees only the files beside the library).
 *
 * The same file builds the Windows DLL (_WIN32, cross-compiled with mingw-w64): there the
 * library finds itself with GetModuleHandleExW, keeps paths as UTF-16 and runs the start
 * once with InitOnceExecuteOnce; Windows resolves each module's imports by DLL name, so
 * nothing needs promoting to global.
 */
#ifdef _WIN32
#include <windows.h>
#else
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pybridge.h"
#include "pybridge_responses.h"

static const char null_request_error[] = PYBRIDGE_NULL_REQUEST_ERROR;
static const char too_large_error[] = PYBRIDGE_TOO_LARGE_ERROR;
static const char unavailable_error[] = PYBRIDGE_UNAVAILABLE_ERROR;
static const char internal_error[] = PYBRIDGE_INTERNAL_ERROR;

/* Implemented in Python (pybridge/ffi/embedded.py) through cffi's extern "Python";
   cffi defines it further down this file. */
static char *pybridge_py_call(const char *request, size_t length);

static int python_ready = 0; /* written once under python_once, read after it */

/* A malloc'ed NUL-terminated copy: every response comes from here, for pybridge_free(). */
static char *pybridge_copy(const char *data, size_t length)
{
    char *copy = malloc(length + 1);
    if (copy != NULL) {
        memcpy(copy, data, length);
        copy[length] = '\0';
    }
    return copy;
}

#define PYBRIDGE_COPY_STATIC(text) pybridge_copy((text), sizeof(text) - 1)

#ifdef PYBRIDGE_BUNDLE_HOME
/* The interpreter's module search path, relative to its home folder beside the library. */
static const char *const bundle_paths[] = {PYBRIDGE_BUNDLE_PATHS};
#define PYBRIDGE_BUNDLE_PATH_COUNT (sizeof bundle_paths / sizeof *bundle_paths)
#endif

#if defined(PYBRIDGE_BUNDLE_HOME) && defined(_WIN32)
/* UTF-16 <-> UTF-8, malloc'ed; NULL if out of memory or not convertible. */
static wchar_t *widen(const char *text)
{
    int size = MultiByteToWideChar(CP_UTF8, 0, text, -1, NULL, 0);
    wchar_t *wide = size > 0 ? malloc((size_t)size * sizeof(wchar_t)) : NULL;
    if (wide != NULL && MultiByteToWideChar(CP_UTF8, 0, text, -1, wide, size) != size) {
        free(wide);
        wide = NULL;
    }
    return wide;
}

static char *narrow(const wchar_t *wide)
{
    int size = WideCharToMultiByte(CP_UTF8, 0, wide, -1, NULL, 0, NULL, NULL);
    char *text = size > 0 ? malloc((size_t)size) : NULL;
    if (text != NULL && WideCharToMultiByte(CP_UTF8, 0, wide, -1, text, size, NULL, NULL) != size) {
        free(text);
        text = NULL;
    }
    return text;
}

/* "<the first `length` characters of folder>\\<name>" (name in UTF-8), malloc'ed. */
static wchar_t *wide_join(const wchar_t *folder, size_t length, const char *name)
{
    wchar_t *tail = widen(name);
    size_t size = length + 1 + (tail != NULL ? wcslen(tail) : 0) + 1;
    wchar_t *path = tail != NULL ? malloc(size * sizeof(wchar_t)) : NULL;
    if (path != NULL) {
        memcpy(path, folder, length * sizeof(wchar_t));
        path[length] = L'\\';
        wcscpy(path + length + 1, tail);
    }
    free(tail);
    return path;
}

/* The full path of this DLL, malloc'ed (long paths included); NULL on failure. */
static wchar_t *library_path(void)
{
    HMODULE self = NULL;
    if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                                GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            (LPCWSTR)(void *)&pybridge_version, &self))
        return NULL;
    for (DWORD size = MAX_PATH; size <= 65536; size *= 2) {
        wchar_t *path = malloc(size * sizeof(wchar_t));
        if (path == NULL)
            return NULL;
        DWORD length = GetModuleFileNameW(self, path, size);
        if (length > 0 && length < size)
            return path;
        free(path);
        if (length == 0)
            return NULL;
    }
    return NULL;
}

/* Formats "<what> <path>" into `error` with the path in UTF-8. */
static PyStatus path_error(const char *before, const wchar_t *path, const char *after, char *error,
                           size_t error_size)
{
    char *text = narrow(path);
    snprintf(error, error_size, "%s%s%s", before, text != NULL ? text : "?", after);
    free(text);
    return PyStatus_Error(error);
}

/* As below for POSIX: an isolated interpreter on the bundle's files beside this DLL. */
static PyStatus bundle_config(PyConfig *config, char *error, size_t error_size)
{
    wchar_t *library = library_path();
    if (library == NULL)
        return PyStatus_Error("the library cannot tell where it lies (GetModuleFileNameW failed)");
    const wchar_t *slash = wcsrchr(library, L'\\');
    wchar_t *home = slash != NULL ? wide_join(library, (size_t)(slash - library), PYBRIDGE_BUNDLE_HOME)
                                  : wide_join(L".", 1, PYBRIDGE_BUNDLE_HOME);
    PyStatus status = PyStatus_Ok();
    if (home == NULL) {
        status = PyStatus_NoMemory();
    } else if (GetFileAttributesW(home) == INVALID_FILE_ATTRIBUTES) {
        status = path_error("the bundled Python is missing: ", home, " does not exist", error,
                            error_size);
    } else {
        status = PyConfig_SetString(config, &config->home, home);
        if (!PyStatus_Exception(status))
            status = PyConfig_SetString(config, &config->program_name, library);
        config->module_search_paths_set = 1;
        for (size_t i = 0; i < PYBRIDGE_BUNDLE_PATH_COUNT && !PyStatus_Exception(status); i++) {
            wchar_t *path = wide_join(home, wcslen(home), bundle_paths[i]);
            if (path == NULL)
                status = PyStatus_NoMemory();
            else if (GetFileAttributesW(path) == INVALID_FILE_ATTRIBUTES)
                status = path_error("the bundled Python is incomplete: ", path, " is missing",
                                    error, error_size);
            else
                status = PyWideStringList_Append(&config->module_search_paths, path);
            free(path);
        }
    }
    free(home);
    free(library);
    return status;
}
#elif defined(PYBRIDGE_BUNDLE_HOME)

/* "<the first `length` bytes of folder>/<name>", malloc'ed; NULL if out of memory. */
static char *path_join(const char *folder, size_t length, const char *name)
{
    size_t size = length + 1 + strlen(name) + 1;
    char *path = malloc(size);
    if (path != NULL)
        snprintf(path, size, "%.*s/%s", (int)length, folder, name);
    return path;
}

/* Appends `path` (which must exist) to the module search path. */
static PyStatus add_search_path(PyConfig *config, const char *path, char *error,
                                size_t error_size)
{
    if (access(path, R_OK) != 0) {
        snprintf(error, error_size, "the bundled Python is incomplete: %s is missing", path);
        return PyStatus_Error(error);
    }
    wchar_t *wide = Py_DecodeLocale(path, NULL); /* UTF-8 mode: the bytes come back as-is */
    if (wide == NULL)
        return PyStatus_NoMemory();
    PyStatus status = PyWideStringList_Append(&config->module_search_paths, wide);
    PyMem_RawFree(wide);
    return status;
}

/* An isolated interpreter whose home and module search path are only the bundle's files,
   found from where this library itself lies (the game's folder once exported, the
   addon's bin folder in the editor), whatever Python the machine has or lacks. */
static PyStatus bundle_config(PyConfig *config, char *error, size_t error_size)
{
    Dl_info self;
    if (dladdr((void *)&pybridge_version, &self) == 0 || self.dli_fname == NULL)
        return PyStatus_Error("the library cannot tell where it lies (dladdr failed)");
    char *resolved = realpath(self.dli_fname, NULL); /* a symlink: use the real file's folder */
    const char *library = resolved != NULL ? resolved : self.dli_fname;
    const char *slash = strrchr(library, '/');
    char *home = slash != NULL ? path_join(library, (size_t)(slash - library), PYBRIDGE_BUNDLE_HOME)
                               : path_join(".", 1, PYBRIDGE_BUNDLE_HOME);
    PyStatus status = PyStatus_Ok();
    if (home == NULL) {
        status = PyStatus_NoMemory();
    } else if (access(home, R_OK) != 0) {
        snprintf(error, error_size, "the bundled Python is missing: %s does not exist", home);
        status = PyStatus_Error(error);
    } else {
        status = PyConfig_SetBytesString(config, &config->home, home);
        if (!PyStatus_Exception(status))
            status = PyConfig_SetBytesString(config, &config->program_name, library);
        config->module_search_paths_set = 1;
        for (size_t i = 0; i < PYBRIDGE_BUNDLE_PATH_COUNT && !PyStatus_Exception(status); i++) {
            char *path = path_join(home, strlen(home), bundle_paths[i]);
            status = path != NULL ? add_search_path(config, path, error, error_size)
                                  : PyStatus_NoMemory();
            free(path);
        }
    }
    free(home);
    free(resolved);
    return status;
}
#endif

/* Fills an isolated-initialized `config`: the host's environment variables and signals
   stay its own. `error` holds the text of a refusal. */
static PyStatus configure_python(PyConfig *config, char *error, size_t error_size)
{
#ifdef PYBRIDGE_BUNDLE_HOME
    config->site_import = 0;    /* no site-packages: the bundle holds everything */
    config->write_bytecode = 0; /* a game's folder may be read-only */
    config->pathconfig_warnings = 0;
    return bundle_config(config, error, error_size);
#else
    (void)error;
    (void)error_size;
    /* Naming the building interpreter as the program lets Python find its venv
       (pyvenv.cfg), hence the matching _cffi_backend, which cffi imports before the init
       code can touch sys.path. */
    return PyConfig_SetBytesString(config, &config->program_name, PYBRIDGE_PYTHON);
#endif
}

static PyStatus preinitialize_python(void)
{
#ifdef PYBRIDGE_BUNDLE_HOME
    /* UTF-8 mode, whatever locale the host set: paths round-trip as the bytes they are,
       and the only codec start-up needs is UTF-8's. */
    PyPreConfig preconfig;
    PyPreConfig_InitIsolatedConfig(&preconfig);
    preconfig.utf8_mode = 1;
    return Py_PreInitialize(&preconfig);
#else
    return PyStatus_Ok(); /* done by the configuration, from the host's locale */
#endif
}

static void start_python(void)
{
#ifndef _WIN32
    /* Game engines dlopen() us without RTLD_GLOBAL, which hides libpython's symbols
       from the C extension modules Python loads later (_json, _cffi_backend). Promote
       the already loaded libpython to global before anything is imported. */
    Dl_info info;
    if (dladdr((void *)&Py_IsInitialized, &info) != 0 && info.dli_fname != NULL)
        (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
#endif

    if (!Py_IsInitialized()) { /* a Python host (ctypes) brings its own interpreter */
        char error[512] = "";
        PyConfig config;
        PyConfig_InitIsolatedConfig(&config);
        PyStatus status = preinitialize_python();
        if (!PyStatus_Exception(status))
            status = configure_python(&config, error, sizeof error);
        if (!PyStatus_Exception(status))
            status = Py_InitializeFromConfig(&config);
        PyConfig_Clear(&config);
        if (PyStatus_Exception(status)) {
            fprintf(stderr, "libpybridge: Python did not start: %s\n",
                    status.err_msg != NULL ? status.err_msg : "unknown reason");
            return;
        }
        (void)PyEval_SaveThread(); /* release the GIL: every call takes it again */
    }
    /* Runs the init code once; on failure cffi prints the traceback to stderr. */
    python_ready = cffi_start_python() == 0;
}

/* start_python() exactly once, whichever thread calls first; 0 if that could not run. */
#ifdef _WIN32
static INIT_ONCE python_once = INIT_ONCE_STATIC_INIT;

static BOOL CALLBACK start_python_once(PINIT_ONCE once, PVOID parameter, PVOID *context)
{
    (void)once;
    (void)parameter;
    (void)context;
    start_python();
    return TRUE;
}

static int python_started(void)
{
    return InitOnceExecuteOnce(&python_once, start_python_once, NULL, NULL) != 0;
}
#else
static pthread_once_t python_once = PTHREAD_ONCE_INIT;

static int python_started(void)
{
    return pthread_once(&python_once, start_python) == 0;
}
#endif

CFFI_DLLEXPORT const char *pybridge_version(void)
{
    return PYBRIDGE_VERSION;
}

CFFI_DLLEXPORT char *pybridge_call(const char *request_json)
{
    if (request_json == NULL)
        return PYBRIDGE_COPY_STATIC(null_request_error);
    /* Stop counting at the limit: an oversized request is refused unread. */
    size_t length = strnlen(request_json, (size_t)PYBRIDGE_MAX_REQUEST_BYTES + 1);
    if (length > (size_t)PYBRIDGE_MAX_REQUEST_BYTES)
        return PYBRIDGE_COPY_STATIC(too_large_error);
    if (!python_started() || !python_ready)
        return PYBRIDGE_COPY_STATIC(unavailable_error);
    char *response = pybridge_py_call(request_json, length);
    /* NULL from Python: it could not allocate the response (or cffi caught an error). */
    return response != NULL ? response : PYBRIDGE_COPY_STATIC(internal_error);
}

CFFI_DLLEXPORT void pybridge_free(char *response)
{
    free(response);
}
