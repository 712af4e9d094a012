"""Reading the screenshots the browser tests take: 8-bit RGB or RGBA PNGs."""

from __future__ import annotations

import functools
import struct
import zlib
from pathlib import Path


def read_png(path: Path) -> tuple[int, int, bytes]:
    """Width, height and RGB rows of an 8-bit RGB or RGBA PNG (what Chromium writes)."""
    blob = path.read_bytes()
    assert blob[:8] == b"\x89PNG\r\n\x1a\n"
    at, data, width, height, channels = 8, b"", 0, 0, 3
    while at < len(blob):
        (length,) = struct.unpack(">I", blob[at : at + 4])
        kind, body = blob[at + 4 : at + 8], blob[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            data += body
        at += 12 + length
    raw, stride = zlib.decompress(data), width * channels
    rows, previous = bytearray(), bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        method, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if method == 1:
                line[i] = (line[i] + left) & 0xFF
            elif method == 2:
                line[i] = (line[i] + up) & 0xFF
            elif method == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif method == 4:
                guess = left + up - corner
                pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                best = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + best) & 0xFF
        previous = line
        rows += line if channels == 3 else bytes(b for i, b in enumerate(line) if i % 4 != 3)
    return width, height, bytes(rows)


def brightness(path: Path) -> float:
    """The mean of every channel of every pixel, 0..255."""
    _, _, pixels = read_png(path)
    return sum(pixels) / len(pixels)


@functools.lru_cache(maxsize=4)
def _decoded(path: str, mtime_ns: int) -> tuple[int, int, bytes]:
    """:func:`read_png` of a file, decoded once while it does not change (it is slow)."""
    return read_png(Path(path))


def colour_pixels(path: Path, box: tuple[int, int, int, int], rgb: tuple[int, int, int],
                  tolerance: int) -> int:  # fmt: skip
    """Pixels within ``box`` (left, top, right, bottom) whose colour is ``rgb`` give or take
    ``tolerance`` per channel."""
    width, _, pixels = _decoded(str(path), path.stat().st_mtime_ns)
    left, top, right, bottom = box
    count = 0
    for y in range(top, bottom):
        for x in range(left, right):
            i = (y * width + x) * 3
            if all(abs(pixels[i + k] - rgb[k]) <= tolerance for k in range(3)):
                count += 1
    return count
