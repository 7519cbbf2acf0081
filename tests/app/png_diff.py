#!/usr/bin/python3
"""Counts the pixels two PNGs (8-bit RGB or RGBA, as the app writes them) differ in, from row Y0
down. Usage: png_diff.py A.png B.png [Y0]; prints the count, exits 2 when a file cannot be read."""
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(path + ": not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6) or body[12] != 0:
                raise ValueError(path + ": not 8-bit RGB(A), non-interlaced")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        filt, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b, c = prev[x], prev[x - channels] if x >= channels else 0
            if filt == 1:
                line[x] = (line[x] + a) & 255
            elif filt == 2:
                line[x] = (line[x] + b) & 255
            elif filt == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def main():
    try:
        wa, ha, ca, a = read_png(sys.argv[1])
        wb, hb, cb, b = read_png(sys.argv[2])
    except (OSError, ValueError, zlib.error) as e:
        print(e, file=sys.stderr)
        return 2
    if (wa, ha) != (wb, hb):
        print(wa * ha)
        return 0
    y0 = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    differ = 0
    for y in range(y0, ha):
        for x in range(wa):
            if a[y][x * ca:x * ca + 3] != b[y][x * cb:x * cb + 3]:
                differ += 1
    print(differ)
    return 0


if __name__ == "__main__":
    sys.exit(main())
