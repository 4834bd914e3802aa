#!/usr/bin/env python3
"""Draws the demo images (charts, channel covers and profile badges) as PNG files beside this
script. Plain standard library (zlib), so anyone can redraw them; `insights-cli seed demo` embeds
the files and copies them into the upload directory."""

import math
import os
import random
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def png(path, width, height, pixel):
    rows = bytearray()
    previous = bytes(width * 3)
    for y in range(height):
        row = bytearray()
        for x in range(width):
            row += bytes(pixel(x, y))
        # Filter "Up": rows that repeat the one above compress to almost nothing.
        rows.append(2)
        rows += bytes((row[i] - previous[i]) & 0xFF for i in range(len(row)))
        previous = bytes(row)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")
    with open(os.path.join(HERE, path), "wb") as f:
        f.write(data)


def mix(a, b, t):
    t = max(0.0, min(1.0, t))
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))


WHITE, GRID, AXIS = (255, 255, 255), (229, 232, 235), (143, 153, 168)
BLUE, BLUE_FILL, AMBER, TEAL = (45, 114, 210), (215, 230, 248), (209, 152, 11), (0, 132, 138)


def line_chart():
    w, h, left, bottom, top = 720, 360, 48, 320, 24
    rng = random.Random(7)
    values, v = [], 0.55
    for _ in range(w - left - 16):
        v = min(0.92, max(0.12, v + rng.uniform(-0.018, 0.018) + 0.0004))
        values.append(v)
    ys = [bottom - (bottom - top) * v for v in values]

    def pixel(x, y):
        if y == bottom or x == left:
            return AXIS
        i = x - left
        if 0 <= i < len(ys):
            if abs(y - ys[i]) <= 1.5:
                return BLUE
            if ys[i] < y < bottom:
                return BLUE_FILL
        if (y - top) % 59 == 0 and x > left:
            return GRID
        return WHITE

    png("chart-line.png", w, h, pixel)


def bar_chart():
    w, h, left, bottom, top = 720, 360, 48, 320, 24
    rng = random.Random(11)
    bars = [rng.uniform(0.25, 0.95) for _ in range(12)]
    slot = (w - left - 24) / len(bars)

    def pixel(x, y):
        if y == bottom or x == left:
            return AXIS
        i = int((x - left - 12) // slot)
        if 0 <= i < len(bars) and (x - left - 12) % slot > slot * 0.22:
            height = (bottom - top) * bars[i]
            if bottom - height < y < bottom:
                return AMBER if i >= len(bars) - 3 else TEAL
        if (y - top) % 59 == 0 and x > left:
            return GRID
        return WHITE

    png("chart-bars.png", w, h, pixel)


def cover(path, start, end, accent, wave):
    w, h = 1200, 300

    def pixel(x, y):
        base = mix(start, end, x / w)
        if wave:
            crest = h * 0.62 + 28 * math.sin(x / 95.0) + 12 * math.sin(x / 31.0)
            if abs(y - crest) < 2.2 or abs(y - crest - 46) < 1.4:
                return mix(base, accent, 0.55)
            if y > crest:
                return mix(base, (0, 0, 0), 0.12)
        elif (x + 2 * y) % 64 < 2:
            return mix(base, accent, 0.35)
        return base

    png(path, w, h, pixel)


def badge(path, background, ring, glyph):
    size = 256
    c = size / 2

    def pixel(x, y):
        d = math.hypot(x - c, y - c)
        if d > 118:
            return background
        if d > 104:
            return ring
        # Three rising bars: the research-desk emblem.
        for i, height in enumerate((50, 80, 110)):
            x0 = 76 + i * 40
            if x0 <= x < x0 + 26 and 178 - height <= y < 178:
                return glyph
        return mix(background, WHITE, 0.12)

    png(path, size, size, pixel)


if __name__ == "__main__":
    line_chart()
    bar_chart()
    cover("cover-waves.png", (16, 42, 67), (0, 110, 122), (138, 226, 230), True)
    cover("cover-lines.png", (46, 31, 72), (181, 91, 17), (255, 214, 153), False)
    badge("badge-blue.png", (24, 70, 140), (138, 187, 255), WHITE)
    badge("badge-amber.png", (150, 92, 8), (255, 214, 153), WHITE)
