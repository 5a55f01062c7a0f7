#!/usr/bin/env python3
"""Writes small PNGs of every colour type, bit depth, tRNS variant and Adam7 interlacing, with
the straight RGBA each pixel must decode to, into png/ and png/expected.json.

Run from this directory: python3 make_png_fixtures.py. The output is committed; the script is
kept so the fixtures can be regenerated and reviewed."""
import json, struct, zlib

W, H = 8, 8

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

def pack_row(samples, depth):
    if depth >= 8:
        fmt = ">" + ("B" if depth == 8 else "H") * len(samples)
        return struct.pack(fmt, *samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        bits += depth
        if bits == 8:
            out.append(acc); acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)

def raw_image(rows, depth, interlace):
    """rows: list of sample lists (channels flattened). Filter type 0 everywhere."""
    channels = len(rows[0]) // W
    if not interlace:
        return b"".join(b"\x00" + pack_row(r, depth) for r in rows)
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    out = b""
    for x0, y0, dx, dy in passes:
        for y in range(y0, H, dy):
            samples = []
            for x in range(x0, W, dx):
                samples += rows[y][x * channels:(x + 1) * channels]
            if samples:
                out += b"\x00" + pack_row(samples, depth)
    return out

def png(color_type, depth, rows, extra=b"", interlace=0):
    ihdr = struct.pack(">IIBBBBB", W, H, depth, color_type, 0, 0, interlace)
    data = zlib.compress(raw_image(rows, depth, interlace), 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", data) + chunk(b"IEND", b"")

def scale(v, depth):
    """An integer sample of `depth` bits as 8 bits, as libpng expands it."""
    if depth == 16: return v >> 8          # fixtures use v = b * 257, so this is exact
    return v * 255 // ((1 << depth) - 1)

fixtures, expected = {}, {}

def add(name, color_type, depth, pixel, extra=b"", interlace=0, expect=None):
    rows = [sum((list(pixel(x, y)) for x in range(W)), []) for y in range(H)]
    fixtures[name] = png(color_type, depth, rows, extra, interlace)
    expected[name] = [list(expect(x, y)) for y in range(H) for x in range(W)]

for depth in (1, 2, 4, 8, 16):
    top = (1 << depth) - 1
    if depth == 16:
        g = lambda x, y: ((x * 32 + y * 3) % 256) * 257
    else:
        g = lambda x, y, top=top: (x + y * 3) % (top + 1)
    e = lambda x, y, g=g, d=depth: (scale(g(x, y), d),) * 3 + (255,)
    add(f"gray{depth}", 0, depth, lambda x, y, g=g: (g(x, y),), expect=e)

for depth in (8, 16):
    m = 257 if depth == 16 else 1
    px = lambda x, y, m=m: ((x * 30) % 256 * m, (y * 30) % 256 * m, ((x + y) * 15) % 256 * m)
    e = lambda x, y: ((x * 30) % 256, (y * 30) % 256, ((x + y) * 15) % 256, 255)
    add(f"rgb{depth}", 2, depth, px, expect=e)
    pa = lambda x, y, m=m: ((x * 30) % 256 * m, 200 * m, 10 * m, (y * 36) % 256 * m)
    ea = lambda x, y: ((x * 30) % 256, 200, 10, (y * 36) % 256)
    add(f"rgba{depth}", 6, depth, pa, expect=ea)
    ga = lambda x, y, m=m: ((x * 30) % 256 * m, (y * 36) % 256 * m)
    ega = lambda x, y: ((x * 30) % 256,) * 3 + ((y * 36) % 256,)
    add(f"grayalpha{depth}", 4, depth, ga, expect=ega)

palette = [(i * 16 % 256, 255 - i * 16 % 256, i * 40 % 256) for i in range(16)]
plte = chunk(b"PLTE", bytes(sum((list(c) for c in palette), [])))
alphas = bytes(255 - i * 15 for i in range(16))
for depth in (1, 2, 4, 8):
    count = min(16, 1 << depth)
    idx = lambda x, y, count=count: (x + y * 5) % count
    add(f"palette{depth}", 3, depth, lambda x, y, idx=idx: (idx(x, y),), extra=plte,
        expect=lambda x, y, idx=idx: palette[idx(x, y)] + (255,))
    add(f"palette{depth}-trns", 3, depth, lambda x, y, idx=idx: (idx(x, y),),
        extra=plte + chunk(b"tRNS", alphas[:count]),
        expect=lambda x, y, idx=idx: palette[idx(x, y)] + (alphas[idx(x, y)],))

gray_key = chunk(b"tRNS", struct.pack(">H", 7))
add("gray8-trns", 0, 8, lambda x, y: ((x + y) % 16,), extra=gray_key,
    expect=lambda x, y: ((x + y) % 16,) * 3 + (0 if (x + y) % 16 == 7 else 255,))
rgb_key = chunk(b"tRNS", struct.pack(">HHH", 30, 60, 90))
rgbk = lambda x, y: (30, 60, 90) if (x + y) % 3 == 0 else (x * 20, y * 20, 5)
add("rgb8-trns", 2, 8, rgbk, extra=rgb_key,
    expect=lambda x, y: rgbk(x, y) + (0 if (x + y) % 3 == 0 else 255,))

ipx = lambda x, y: (x * 32, y * 32, (x ^ y) * 16, 128 + x * 10)
add("rgba8-interlaced", 6, 8, ipx, interlace=1, expect=ipx)
add("gray4-interlaced", 0, 4, lambda x, y: ((x * 2 + y) % 16,), interlace=1,
    expect=lambda x, y: (((x * 2 + y) % 16) * 17,) * 3 + (255,))

for name, data in fixtures.items():
    with open(f"png/{name}.png", "wb") as f:
        f.write(data)
with open("png/expected.json", "w") as f:
    json.dump({"width": W, "height": H, "pixels": expected}, f, indent=0, sort_keys=True)
print(f"wrote {len(fixtures)} fixtures")
