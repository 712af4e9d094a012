"""The Python half of libpybridge: the one function the C half calls into.

Imported by the library's init code inside the host process, never by ordinary Python
code. The C half has already refused NULL and oversized requests; everything else goes
to the ``call`` of :data:`entry`, which answers every input with a response.
"""

from __future__ import annotations

import os
from typing import Any

# The module whose ``call(request) -> response`` (and ``keep_answers``) this transport
# serves: the one line to change when the door into the runtime moves.
from .. import service as entry
from ..answers import capacity_from
from ..extensions import files_at_start, load

# Answered when even encoding the response failed (e.g. MemoryError): never raise into C.
_FAILED = (
    b'{"ok":false,"id":null,"error":{"code":"internal_error",'
    b'"message":"the response could not be built","where":""}}'
)


def install(ffi: Any, lib: Any, bundle_home: str | None = None) -> None:
    """Attach the Python implementation of the C half's ``pybridge_py_call``, serving the
    game's extensions: those packed into the bundle whose home is ``bundle_home``, else those
    ``PYBRIDGE_EXTENSIONS`` names. An extension that fails to load fails the start (every
    call then answers ``runtime_unavailable``; the reason, naming the file, goes to stderr)."""
    entry.keep_answers(capacity_from(os.environ))
    files = files_at_start(bundle_home, os.environ)
    if files:
        entry.use_words(load(files).words)

    # Bound once: this runs for every call a host makes, often every frame.
    unpack, answer, copy = ffi.unpack, entry.call, lib.pybridge_copy

    def pybridge_py_call(request: Any, length: int) -> Any:
        try:
            # Responses are ASCII (every JSON string escaped); should one ever carry a lone
            # surrogate, it goes out as the same escape, still valid UTF-8.
            data = answer(unpack(request, length)).encode("utf-8", "backslashreplace")
        except Exception:
            data = _FAILED
        return copy(data, len(data))  # NULL if out of memory

    ffi.def_extern(name="pybridge_py_call")(pybridge_py_call)
