/* pybridge_responses.h: the responses the C half gives without asking Python.
 *
 * Shared by pybridge.c, which answers with them, and gdextension.c, which recognises the
 * one that means "Python could not start". build.py defines PYBRIDGE_MAX_REQUEST_BYTES.
 * Internal to the library: not part of the C ABI in pybridge.h.
 */
#ifndef PYBRIDGE_RESPONSES_H
#define PYBRIDGE_RESPONSES_H

#define PYBRIDGE_STR_(x) #x
#define PYBRIDGE_STR(x) PYBRIDGE_STR_(x)

/* An error response in the protocol's shape, with "id": null. */
#define PYBRIDGE_ERROR(code, message)                                                  \
    "{\"ok\":false,\"id\":null,\"error\":{\"code\":\"" code "\",\"message\":\"" message \
    "\",\"where\":\"\"}}"

#define PYBRIDGE_NULL_REQUEST_ERROR PYBRIDGE_ERROR("null_request", "request is NULL")
#define PYBRIDGE_TOO_LARGE_ERROR                                                       \
    PYBRIDGE_ERROR("too_large", "request is longer than the limit of " PYBRIDGE_STR( \
                                    PYBRIDGE_MAX_REQUEST_BYTES) " bytes")
#define PYBRIDGE_UNAVAILABLE_ERROR                                                     \
    PYBRIDGE_ERROR("runtime_unavailable",                                             \
                   "the embedded Python runtime could not start; the reason was printed to " \
                   "stderr")
#define PYBRIDGE_INTERNAL_ERROR                                                        \
    PYBRIDGE_ERROR("internal_error", "the response could not be built or allocated")

#endif /* PYBRIDGE_RESPONSES_H */
