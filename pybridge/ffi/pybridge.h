/* pybridge.h: the whole C ABI of libpybridge.
 *
 * One JSON request text in, one JSON response text out, exactly as
 * pybridge.service.call() in Python: {"op": ..., "id": ...} in;
 * {"ok": true, "id": ..., "result": ...} or
 * {"ok": false, "id": ..., "error": {"code", "message", "where"}} out.
 *
 * All three functions may be called from any thread, concurrently. The embedded
 * Python interpreter starts on the first pybridge_call() and stays for the life of
 * the process, so the library must not be unloaded (GDExtension: reloadable = false).
 */
#ifndef PYBRIDGE_H
#define PYBRIDGE_H

#ifdef __cplusplus
extern "C" {
#endif

/* The pybridge package version the library was built from, e.g. "0.1.0".
 * A static string: never NULL, never freed, valid for the life of the process.
 * Does not start Python. */
const char *pybridge_version(void);

/* Handles one request: a NUL-terminated UTF-8 JSON text. Returns a NUL-terminated
 * UTF-8 JSON response that the caller owns and must release with pybridge_free().
 * Every failure is an error response ("ok": false), never a crash; input that cannot
 * be read gets one of these codes:
 *   NULL request                      -> "null_request"
 *   over the protocol's size limit    -> "too_large" (MAX_REQUEST_BYTES, 4 MiB; unread)
 *   invalid UTF-8                     -> "bad_utf8"
 *   not JSON                          -> "bad_json"
 *   Python could not start            -> "runtime_unavailable" (the reason is on stderr)
 * Error sentinel: returns NULL only when memory for the response cannot be allocated. */
char *pybridge_call(const char *request_json);

/* Releases a response returned by pybridge_call(). NULL is ignored.
 * Never pass any other pointer, and never free a response twice. */
void pybridge_free(char *response);

#ifdef __cplusplus
}
#endif

#endif /* PYBRIDGE_H */
