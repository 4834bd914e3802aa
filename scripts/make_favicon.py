#!/usr/bin/env python3
"""Draws the app's icon: web/public/favicon.svg and web/public/favicon.ico (16, 32 and 48 px PNGs).

One drawing, three rising bars on a blue rounded square, written as SVG for the web app's
<link rel="icon"> and rasterised here (no image library needed) into the .ico that
GET /favicon.ico answers. Run it again after changing the shapes below.
"""

import pathlib
import struct
import zlib

SIZE = 32  # the drawing's units
RADIUS = 6
BACKGROUND = (0x21, 0x5D, 0xB0)  # Blueprint's blue3, the app's primary colour
BARS = [(7, 17, 4, 8), (14, 12, 4, 13), (21, 7, 4, 18)]  # x, y, width, height
BAR = (0xFF, 0xFF, 0xFF)

PUBLIC = pathlib.Path(__file__).resolve().parent.parent / "web" / "public"


def svg() -> str:
    bars = "".join(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="#fff"/>' for x, y, w, h in BARS)
    colour = "#%02x%02x%02x" % BACKGROUND
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}">'
        f'<rect width="{SIZE}" height="{SIZE}" rx="{RADIUS}" fill="{colour}"/>{bars}</svg>\n'
    )


def inside_rounded_square(x: float, y: float) -> bool:
    cx = min(max(x, RADIUS), SIZE - RADIUS)
    cy = min(max(y, RADIUS), SIZE - RADIUS)
    return (x - cx) ** 2 + (y - cy) ** 2 <= RADIUS**2


def pixel(x: float, y: float):
    """RGBA at a point of the drawing."""
    if not inside_rounded_square(x, y):
        return (0, 0, 0, 0)
    for bx, by, bw, bh in BARS:
        if bx <= x < bx + bw and by <= y < by + bh:
            return (*BAR, 255)
    return (*BACKGROUND, 255)


def raster(px: int) -> bytes:
    """The drawing at px × px, 4 × 4 samples a pixel, as RGBA rows."""
    samples = 4
    rows = bytearray()
    for row in range(px):
        rows.append(0)  # PNG filter: none
        for col in range(px):
            total = [0, 0, 0, 0]
            for sy in range(samples):
                for sx in range(samples):
                    x = (col + (sx + 0.5) / samples) * SIZE / px
                    y = (row + (sy + 0.5) / samples) * SIZE / px
                    r, g, b, a = pixel(x, y)
                    total[0] += r * a
                    total[1] += g * a
                    total[2] += b * a
                    total[3] += a
            alpha = total[3] / samples**2
            colour = [round(c / total[3]) if total[3] else 0 for c in total[:3]]
            rows.extend((*colour, round(alpha)))
    return bytes(rows)


def png(px: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", px, px, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raster(px), 9)) + chunk(b"IEND", b"")


def ico(sizes) -> bytes:
    images = [png(px) for px in sizes]
    offset = 6 + 16 * len(images)
    directory = b""
    for px, image in zip(sizes, images):
        directory += struct.pack("<BBBBHHII", px % 256, px % 256, 0, 0, 1, 32, len(image), offset)
        offset += len(image)
    return struct.pack("<HHH", 0, 1, len(images)) + directory + b"".join(images)


if __name__ == "__main__":
    PUBLIC.mkdir(parents=True, exist_ok=True)
    (PUBLIC / "favicon.svg").write_text(svg())
    (PUBLIC / "favicon.ico").write_bytes(ico([16, 32, 48]))
    print(f"wrote {PUBLIC / 'favicon.svg'} and {PUBLIC / 'favicon.ico'}")
