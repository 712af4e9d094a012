/* pybridge.c: the C half of libpybridge, compiled by cffi's set_source().
 *
 * It owns the ABI declared in pybridge.h, so that everything that needs no Python
 * (the version, freeing, NULL and oversized requests, a failed start) never touches
 * it, and so that the interpreter is started the way a non-Python host needs before
 * cffi's own start-up imports _cffi_backend. cffi places this text after Python.h and
 * its embedding support; build.py defines PYBRIDGE_VERSION, PYBRIDGE_PYTHON and
 * PYBRIDGE_MAX_REQUEST_BYTES.
 */
#include <dlfcn.h>
#include <pthread.h>
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

static pthread_once_t python_once = PTHREAD_ONCE_INIT;
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

static void start_python(void)
{
    /* Game engines dlopen() us without RTLD_GLOBAL, which hides libpython's symbols
       from the C extension modules Python loads later (_json, _cffi_backend). Promote
       the already loaded libpython to global before anything is imported. */
    Dl_info info;
    if (dladdr((void *)&Py_IsInitialized, &info) != 0 && info.dli_fname != NULL)
        (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);

    if (!Py_IsInitialized()) { /* a Python host (ctypes) brings its own interpreter */
        /* Isolated: the host's environment variables and signals stay its own. Naming
           the building interpreter as the program lets Python find its venv
           (pyvenv.cfg), hence the matching _cffi_backend, which cffi imports before the
           init code can touch sys.path. */
        PyConfig config;
        PyConfig_InitIsolatedConfig(&config);
        PyStatus status =
            PyConfig_SetBytesString(&config, &config.program_name, PYBRIDGE_PYTHON);
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
    if (pthread_once(&python_once, start_python) != 0 || !python_ready)
        return PYBRIDGE_COPY_STATIC(unavailable_error);
    char *response = pybridge_py_call(request_json, length);
    /* NULL from Python: it could not allocate the response (or cffi caught an error). */
    return response != NULL ? response : PYBRIDGE_COPY_STATIC(internal_error);
}

CFFI_DLLEXPORT void pybridge_free(char *response)
{
    free(response);
}
