"""Reading the pixels of a PNG that Document.ExportImage wrote, in plain Python (zlib, no imaging
package: pyRevit's CPython has none), so that a check can count what a picture shows. No CHECKS:
this module only serves the others.

8-bit greyscale, RGB, palette, grey with alpha and RGBA images, not interlaced: what Revit's and
the stand-in's exports write.
"""
import struct
import zlib

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def pixels(data):
    """The pixels of the PNG ``data`` (bytes), row by row, as (r, g, b) tuples."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    position, chunks, palette = 8, [], []
    width = height = depth = kind = interlace = None
    while position < len(data):
        length, tag = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if tag == b"IHDR":
            width, height, depth, kind, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif tag == b"PLTE":
            palette = [tuple(body[i:i + 3]) for i in range(0, len(body), 3)]
        elif tag == b"IDAT":
            chunks.append(body)
        elif tag == b"IEND":
            break
    if depth != 8 or interlace or kind not in CHANNELS:
        raise ValueError(f"a PNG of bit depth {depth}, colour type {kind}, interlace {interlace} is not read")
    step = CHANNELS[kind]
    raw = zlib.decompress(b"".join(chunks))
    stride = width * step
    rows, previous = [], bytearray(stride)
    for row in range(height):
        start = row * (stride + 1)
        line = bytearray(raw[start + 1:start + 1 + stride])
        _unfilter(raw[start], line, previous, step)
        rows.append(_colours(line, kind, step, palette))
        previous = line
    return rows


def _unfilter(kind, line, previous, step):
    for i in range(len(line)):
        left = line[i - step] if i >= step else 0
        up = previous[i]
        corner = previous[i - step] if i >= step else 0
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + up) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 0xFF
        elif kind == 4:
            guess = left + up - corner
            a, b, c = abs(guess - left), abs(guess - up), abs(guess - corner)
            line[i] = (line[i] + (left if a <= b and a <= c else up if b <= c else corner)) & 0xFF


def _colours(line, kind, step, palette):
    if kind == 3:
        return [palette[index] for index in line]
    if kind in (0, 4):
        return [(line[i],) * 3 for i in range(0, len(line), step)]
    return [tuple(line[i:i + 3]) for i in range(0, len(line), step)]


def red_pixels(data):
    """How many pixels of the PNG ``data`` are plainly red."""
    return sum(1 for row in pixels(data) for r, g, b in row if r > 200 and g < 70 and b < 70)
