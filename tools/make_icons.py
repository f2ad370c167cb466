#!/usr/bin/env python3
"""Draws the ribbon icons of Paracore's buttons: icon.png (light theme) and icon.dark.png.

pyRevit takes ``icon.png`` from each button bundle and, on Revit's dark theme, ``icon.dark.png``
(pyrevit/extensions/__init__.py: DEFAULT_ICON_FILE, ICON_DARK_SUFFIX = '.dark'). Icons are
96×96 RGBA PNGs (pyRevit scales them to 32 px for large and 16 px for small buttons).

No image library is needed: each glyph is a few shapes given as signed distance functions,
rendered with 4×4 supersampling and written as a PNG with zlib. Run it again after changing a
glyph:  python3 tools/make_icons.py
"""
from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PANEL = ROOT / "Paracore.extension" / "Paracore.tab" / "Paracore.panel"
SIZE = 96
SAMPLES = 4

# theme -> role -> RGB
PALETTES = {
    "light": {"ink": (0x2B, 0x3A, 0x4A), "accent": (0x1E, 0x78, 0xD2), "good": (0x2E, 0x8B, 0x57),
              "bad": (0xC6, 0x28, 0x28), "soft": (0x9A, 0xA6, 0xB2)},
    "dark": {"ink": (0xE8, 0xEC, 0xF1), "accent": (0x64, 0xB5, 0xF6), "good": (0x81, 0xC7, 0x84),
             "bad": (0xEF, 0x73, 0x73), "soft": (0x80, 0x8B, 0x96)},
}

# -- shapes: functions (x, y) -> signed distance in icon units (0..1), negative inside ------------


def circle(cx, cy, r):
    return lambda x, y: math.hypot(x - cx, y - cy) - r


def ring(cx, cy, r, width):
    return lambda x, y: abs(math.hypot(x - cx, y - cy) - r) - width / 2


def segment(ax, ay, bx, by, width):
    def distance(x, y):
        px, py, vx, vy = x - ax, y - ay, bx - ax, by - ay
        t = max(0.0, min(1.0, (px * vx + py * vy) / (vx * vx + vy * vy)))
        return math.hypot(px - vx * t, py - vy * t) - width / 2
    return distance


def box(cx, cy, hw, hh, radius=0.0, angle=0.0):
    cos, sin = math.cos(angle), math.sin(angle)

    def distance(x, y):
        dx, dy = x - cx, y - cy
        rx, ry = abs(dx * cos + dy * sin), abs(-dx * sin + dy * cos)
        qx, qy = rx - (hw - radius), ry - (hh - radius)
        outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
        return outside + min(max(qx, qy), 0.0) - radius
    return distance


def outline(shape, width):
    return lambda x, y: abs(shape(x, y)) - width / 2


def polygon(*points):
    def distance(x, y):
        best, inside = float("inf"), False
        for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1]):
            vx, vy, px, py = bx - ax, by - ay, x - ax, y - ay
            t = max(0.0, min(1.0, (px * vx + py * vy) / (vx * vx + vy * vy)))
            best = min(best, math.hypot(px - vx * t, py - vy * t))
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                inside = not inside
        return -best if inside else best
    return distance


def union(*shapes):
    return lambda x, y: min(s(x, y) for s in shapes)


def subtract(shape, hole):
    return lambda x, y: max(shape(x, y), -hole(x, y))


def arc(cx, cy, r, width, start, end):
    """A ring between two angles (radians, counter-clockwise from +x, y pointing down)."""
    band = ring(cx, cy, r, width)

    def distance(x, y):
        angle = math.atan2(-(y - cy), x - cx) % (2 * math.pi)
        inside = (start <= angle <= end) if start <= end else (angle >= start or angle <= end)
        if inside:
            return band(x, y)
        ends = [(cx + r * math.cos(a), cy - r * math.sin(a)) for a in (start, end)]
        return min(math.hypot(x - ex, y - ey) for ex, ey in ends) - width / 2
    return distance


# -- the glyphs: lists of (shape, role, opacity); later layers paint over earlier ones -----------
# A role of None erases (punches a transparent hole through what is below).

def working_set(ox=0.0, oy=0.0, scale=1.0, role="ink"):
    """Three overlapping squares: the working set motif."""
    def at(x, y):
        return ox + x * scale, oy + y * scale
    squares = []
    for (x, y) in ((0.30, 0.30), (0.42, 0.42), (0.54, 0.54)):
        cx, cy = at(x, y)
        squares.append((box(cx, cy, 0.14 * scale, 0.14 * scale, 0.03 * scale), None, 1.0))
        squares.append((outline(box(cx, cy, 0.14 * scale, 0.14 * scale, 0.03 * scale), 0.045 * scale), role, 1.0))
    return squares


def dashed_square(cx, cy, half, width, role="ink"):
    layers = []
    for side in range(4):
        for k in range(3):
            a = -half + k * (2 * half / 3) + 0.02
            b = a + 2 * half / 3 - 0.08
            if side == 0:
                layers.append((segment(cx + a, cy - half, cx + b, cy - half, width), role, 1.0))
            elif side == 1:
                layers.append((segment(cx + half, cy + a, cx + half, cy + b, width), role, 1.0))
            elif side == 2:
                layers.append((segment(cx + a, cy + half, cx + b, cy + half, width), role, 1.0))
            else:
                layers.append((segment(cx - half, cy + a, cx - half, cy + b, width), role, 1.0))
    return layers


def badge(role, mark):
    """A filled circle at the bottom right with a mark punched out of it."""
    layers = [(circle(0.72, 0.72, 0.25), None, 1.0), (circle(0.72, 0.72, 0.21), role, 1.0)]
    if mark == "plus":
        layers.append((union(segment(0.72, 0.61, 0.72, 0.83, 0.07), segment(0.61, 0.72, 0.83, 0.72, 0.07)), None, 1.0))
    elif mark == "minus":
        layers.append((segment(0.61, 0.72, 0.83, 0.72, 0.07), None, 1.0))
    elif mark == "cross":
        layers.append((union(segment(0.64, 0.64, 0.80, 0.80, 0.07), segment(0.80, 0.64, 0.64, 0.80, 0.07)), None, 1.0))
    elif mark == "swap":
        layers.append((arc(0.72, 0.72, 0.10, 0.05, math.radians(30), math.radians(300)), None, 1.0))
        layers.append((polygon((0.80, 0.60), (0.86, 0.70), (0.74, 0.70)), None, 1.0))
    return layers


def chat():
    bubble = union(box(0.5, 0.42, 0.38, 0.27, 0.10), polygon((0.24, 0.60), (0.20, 0.86), (0.44, 0.64)))
    return [
        (bubble, "accent", 1.0),
        (circle(0.32, 0.42, 0.055), None, 1.0),
        (circle(0.50, 0.42, 0.055), None, 1.0),
        (circle(0.68, 0.42, 0.055), None, 1.0),
    ]


def undo_turn():
    """An undo arrow: an arc turning back to the left, its head at the left end."""
    return [(arc(0.56, 0.54, 0.28, 0.11, math.radians(270), math.radians(160)), "accent", 1.0),
            (polygon((0.12, 0.56), (0.22, 0.26), (0.44, 0.50)), "accent", 1.0)]


def add_selection():
    return dashed_square(0.40, 0.40, 0.28, 0.06) + badge("good", "plus")


def remove_selection():
    return dashed_square(0.40, 0.40, 0.28, 0.06) + badge("bad", "minus")


def replace_selection():
    return dashed_square(0.40, 0.40, 0.28, 0.06) + badge("accent", "swap")


def select_working_set():
    cursor = polygon((0.55, 0.50), (0.55, 0.92), (0.65, 0.82), (0.73, 0.97), (0.80, 0.93), (0.72, 0.79), (0.86, 0.78))
    return working_set(-0.04, -0.04, 1.0) + [(outline(cursor, 0.09), None, 1.0), (cursor, "accent", 1.0)]


def isolate_working_set():
    ghost = []
    for x, y in ((0.18, 0.18), (0.82, 0.18), (0.18, 0.82), (0.82, 0.82)):
        ghost.append((outline(box(x, y, 0.11, 0.11, 0.02), 0.035), "soft", 0.8))
    return ghost + [(box(0.5, 0.5, 0.22, 0.22, 0.04), "accent", 1.0),
                    (outline(box(0.5, 0.5, 0.22, 0.22, 0.04), 0.05), "ink", 1.0)]


def clear_working_set():
    return working_set(-0.04, -0.04, 1.0) + badge("bad", "cross")


def settings():
    teeth = [box(0.5, 0.5, 0.07, 0.40, 0.02, angle=math.radians(a)) for a in range(0, 180, 45)]
    gear = union(circle(0.5, 0.5, 0.30), *teeth)
    return [(subtract(gear, circle(0.5, 0.5, 0.12)), "ink", 1.0)]


def doctor():
    return [
        (circle(0.5, 0.5, 0.40), "good", 1.0),
        (union(box(0.5, 0.5, 0.08, 0.25, 0.02), box(0.5, 0.5, 0.25, 0.08, 0.02)), None, 1.0),
    ]


BUTTONS = {
    "Chat.pushbutton": chat,
    "Undo Turn.pushbutton": undo_turn,
    "Selection.stack/Add Selection.pushbutton": add_selection,
    "Selection.stack/Remove Selection.pushbutton": remove_selection,
    "Selection.stack/Replace With Selection.pushbutton": replace_selection,
    "Working Set.stack/Select Working Set.pushbutton": select_working_set,
    "Working Set.stack/Isolate Working Set.pushbutton": isolate_working_set,
    "Working Set.stack/Clear Working Set.pushbutton": clear_working_set,
    "Settings.pushbutton": settings,
    "Doctor.pushbutton": doctor,
}


# -- rendering ----------------------------------------------------------------------------------

def render(layers, palette) -> bytes:
    """RGBA pixels, straight alpha, row by row."""
    pixels = bytearray()
    step = 1.0 / (SIZE * SAMPLES)
    for row in range(SIZE):
        for col in range(SIZE):
            r = g = b = a = 0.0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (col * SAMPLES + sx + 0.5) * step
                    y = (row * SAMPLES + sy + 0.5) * step
                    color, alpha = (0, 0, 0), 0.0
                    for shape, role, opacity in layers:
                        if shape(x, y) <= 0:
                            if role is None:
                                alpha = 0.0
                            else:
                                color, alpha = palette[role], alpha * (1 - opacity) + opacity
                    r += color[0] * alpha
                    g += color[1] * alpha
                    b += color[2] * alpha
                    a += alpha
            n = SAMPLES * SAMPLES
            if a > 0:
                pixels += bytes((round(r / a), round(g / a), round(b / a), round(255 * a / n)))
            else:
                pixels += b"\0\0\0\0"
    return bytes(pixels)


def png(pixels: bytes, width: int = SIZE, height: int = SIZE) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    stride = width * 4
    raw = b"".join(b"\0" + pixels[y * stride:(y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main() -> int:
    for folder, glyph in BUTTONS.items():
        target = PANEL / folder
        target.mkdir(parents=True, exist_ok=True)
        for theme, name in (("light", "icon.png"), ("dark", "icon.dark.png")):
            (target / name).write_bytes(png(render(glyph(), PALETTES[theme])))
        print(f"{folder}: icon.png, icon.dark.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
