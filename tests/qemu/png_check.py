#!/usr/bin/env python3
"""A screenshot's content, for the browser tests: decodes a PNG (8-bit RGB or RGBA, no
interlace: what headless Chromium writes) with zlib alone and prints, for the band of rows
given, how many distinct colours it has and the share of pixels that are neither white-ish
nor grey (the coloured frames of a flame chart).
usage: png_check.py FILE Y0 Y1"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: offset 0: not a PNG" % path)
    at, idat, width = 8, b"", None
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit("%s: offset %d: a PNG this check does not read" % (path, at))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return rows


def main():
    rows = decode(sys.argv[1])[int(sys.argv[2]):int(sys.argv[3])]
    px = [p for r in rows for p in r]
    coloured = sum(1 for r, g, b in px if max(r, g, b) - min(r, g, b) > 24)
    print("colours %d coloured %.2f" % (len(set(px)), coloured / max(len(px), 1)))


if __name__ == "__main__":
    main()
