"""The Python half of libpybridge: the one function the C half calls into.

Imported by the library's init code inside the host process, never by ordinary Python
code. The C half has already refused NULL and oversized requests; everything else goes
to :func:`pybridge.protocol.call`, which answers every input with a response.
"""

from __future__ import annotations

from typing import Any

from .. import protocol

# Answered when even encoding the response failed (e.g. MemoryError): never raise into C.
_FAILED = (
    b'{"ok":false,"id":null,"error":{"code":"internal_error",'
    b'"message":"the response could not be built","where":""}}'
)


def encode_response(response: str) -> bytes:
    """UTF-8 bytes of a response text, valid UTF-8 whatever the request contained.

    A request may carry a lone surrogate as a JSON escape (``"\\ud800"``) that the
    protocol echoes unescaped; such a code point can only sit inside a JSON string,
    where writing it back as the same escape keeps the JSON equal.
    """
    return response.encode("utf-8", "backslashreplace")


def install(ffi: Any, lib: Any) -> None:
    """Attach the Python implementation of the C half's ``pybridge_py_call``."""

    def pybridge_py_call(request: Any, length: int) -> Any:
        try:
            data = encode_response(protocol.call(ffi.unpack(request, length)))
        except Exception:
            data = _FAILED
        return lib.pybridge_copy(data, len(data))  # NULL if out of memory

    ffi.def_extern(name="pybridge_py_call")(pybridge_py_call)
