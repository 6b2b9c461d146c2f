#!/usr/bin/env python3
"""Converts an XWD screen dump (xwd -root) of a 24/32-bit TrueColor X server, as Xvfb writes, to PNG.
Standard library only (the machine has no ImageMagick). usage: xwd2png.py IN.xwd OUT.png"""
import struct
import sys
import zlib


def convert(src, dst):
    data = open(src, "rb").read()
    h = struct.unpack(">25I", data[:100])
    header_size, pixmap_format, width, height = h[0], h[2], h[4], h[5]
    byte_order, bpp, bpl, ncolors = h[7], h[11], h[12], h[19]
    red_mask, green_mask, blue_mask = h[14], h[15], h[16]
    if pixmap_format != 2 or bpp not in (24, 32):
        sys.exit(f"{src}: unsupported XWD (format {pixmap_format}, {bpp} bits per pixel)")
    pixels = data[header_size + 12 * ncolors:]
    step = bpp // 8
    order = "<" if byte_order == 0 else ">"

    def shift(mask):
        return (mask & -mask).bit_length() - 1

    rs, gs, bs = shift(red_mask), shift(green_mask), shift(blue_mask)
    raw = bytearray()
    for y in range(height):
        raw.append(0)  # PNG filter: none
        row = pixels[y * bpl:y * bpl + width * step]
        for x in range(0, width * step, step):
            v = struct.unpack(order + "I", row[x:x + 4])[0] if step == 4 else int.from_bytes(
                row[x:x + 3], "little" if byte_order == 0 else "big")
            raw += bytes(((v & red_mask) >> rs, (v & green_mask) >> gs, (v & blue_mask) >> bs))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">2I5B", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 6)) + chunk(b"IEND", b"")
    open(dst, "wb").write(png)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    convert(sys.argv[1], sys.argv[2])
