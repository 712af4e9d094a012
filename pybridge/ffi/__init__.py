"""The C ABI: ``libpybridge.so`` moves JSON text between a native host and the protocol.

``pybridge.h`` declares it, ``pybridge.c`` implements it around the embedded interpreter,
:mod:`pybridge.ffi.embedded` answers inside that interpreter (the one part of this package a
game ships) and :mod:`pybridge.devtools.build.build` compiles it (``pybridge build``).
Importing this package needs neither cffi nor a compiler.
"""
