#!/usr/bin/env python3
"""Draws the per-stream timeline CSV written by oocfft_ooc_bench as a PNG.

    python3 bench/plot_timeline.py bench/logs/timeline_16g.csv [PNG] [title]

PNG defaults to bench/logs/<the CSV's name>.png (created if missing): plots
are generated, not tracked.

One band per stream; in each band three lanes: host copies (gather, scatter),
PCIe (H2D, D2H) and kernels. Vertical grey lines mark pass boundaries.
Needs only the Python standard library (zlib, struct): matplotlib is not
available on every machine that runs the benchmark.
"""
import csv
import os
import struct
import sys
import zlib

# 3x5 bitmap font: each glyph is 5 rows of 3 bits (most significant = left).
FONT = {
    '0': [7, 5, 5, 5, 7], '1': [2, 6, 2, 2, 7], '2': [7, 1, 7, 4, 7], '3': [7, 1, 7, 1, 7],
    '4': [5, 5, 7, 1, 1], '5': [7, 4, 7, 1, 7], '6': [7, 4, 7, 5, 7], '7': [7, 1, 1, 1, 1],
    '8': [7, 5, 7, 5, 7], '9': [7, 5, 7, 1, 7], '.': [0, 0, 0, 0, 2], ' ': [0, 0, 0, 0, 0],
    '-': [0, 0, 7, 0, 0], '/': [1, 1, 2, 4, 4], ':': [0, 2, 0, 2, 0], '(': [2, 4, 4, 4, 2],
    ')': [2, 1, 1, 1, 2], 'x': [0, 5, 2, 5, 0], '_': [0, 0, 0, 0, 7], ',': [0, 0, 0, 2, 4],
    'A': [2, 5, 7, 5, 5], 'B': [6, 5, 6, 5, 6], 'C': [7, 4, 4, 4, 7], 'D': [6, 5, 5, 5, 6],
    'E': [7, 4, 6, 4, 7], 'F': [7, 4, 6, 4, 4], 'G': [7, 4, 5, 5, 7], 'H': [5, 5, 7, 5, 5],
    'I': [7, 2, 2, 2, 7], 'J': [1, 1, 1, 5, 7], 'K': [5, 5, 6, 5, 5], 'L': [4, 4, 4, 4, 7],
    'M': [5, 7, 7, 5, 5], 'N': [6, 5, 5, 5, 5], 'O': [7, 5, 5, 5, 7], 'P': [7, 5, 7, 4, 4],
    'Q': [7, 5, 5, 7, 1], 'R': [7, 5, 6, 5, 5], 'S': [7, 4, 7, 1, 7], 'T': [7, 2, 2, 2, 2],
    'U': [5, 5, 5, 5, 7], 'V': [5, 5, 5, 5, 2], 'W': [5, 5, 7, 7, 5], 'X': [5, 5, 2, 5, 5],
    'Y': [5, 5, 2, 2, 2], 'Z': [7, 1, 2, 4, 7],
}

COLORS = {
    'gather': (66, 114, 196), 'scatter': (132, 84, 180), 'h2d': (230, 140, 40),
    'd2h': (205, 60, 50), 'kernel': (60, 160, 80),
}


class Canvas:
    def __init__(self, width, height):
        self.w, self.h = width, height
        self.px = bytearray(b'\xff' * (width * height * 3))

    def rect(self, x0, y0, x1, y1, color):
        x0, x1 = max(0, int(x0)), min(self.w, int(x1))
        y0, y1 = max(0, int(y0)), min(self.h, int(y1))
        if x1 <= x0:
            x1 = min(self.w, x0 + 1)  # keep very short stages visible
        row = bytes(color) * (x1 - x0)
        for y in range(y0, y1):
            i = (y * self.w + x0) * 3
            self.px[i:i + len(row)] = row

    def text(self, x, y, s, scale=2, color=(0, 0, 0)):
        for ch in s.upper():
            glyph = FONT.get(ch, FONT[' '])
            for r, bits in enumerate(glyph):
                for c in range(3):
                    if bits & (4 >> c):
                        self.rect(x + c * scale, y + r * scale, x + (c + 1) * scale, y + (r + 1) * scale, color)
            x += 4 * scale

    def png(self, path):
        raw = b''.join(b'\x00' + bytes(self.px[y * self.w * 3:(y + 1) * self.w * 3]) for y in range(self.h))

        def chunk(kind, data):
            body = kind + data
            return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body) & 0xffffffff)

        with open(path, 'wb') as f:
            f.write(b'\x89PNG\r\n\x1a\n')
            f.write(chunk(b'IHDR', struct.pack('>IIBBBBB', self.w, self.h, 8, 2, 0, 0, 0)))
            f.write(chunk(b'IDAT', zlib.compress(raw, 9)))
            f.write(chunk(b'IEND', b''))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    stem = os.path.splitext(os.path.basename(sys.argv[1]))[0]
    png = sys.argv[2] if len(sys.argv) > 2 else os.path.join('bench', 'logs', stem + '.png')
    if os.path.dirname(png):
        os.makedirs(os.path.dirname(png), exist_ok=True)
    rows = list(csv.DictReader(open(sys.argv[1])))
    title = sys.argv[3] if len(sys.argv) > 3 else sys.argv[1].split('/')[-1]
    if not rows:
        print('empty timeline')
        return 1
    data = [{k: (float(v) if k not in ('pass', 'brick', 'stream', 'bytes') else int(v)) for k, v in r.items()} for r in rows]
    streams = max(r['stream'] for r in data) + 1
    end = max(max(r['scatter_end'], r['d2h_end'], r['kernel_end']) for r in data)
    start = min(min(v for k, v in r.items() if k.endswith('_start') and v > 0) for r in data)
    start = min(start, 0.0)
    width, left, right, top = 1600, 150, 30, 70
    lane_h, band_gap = 18, 14
    band_h = 3 * lane_h + band_gap
    height = top + streams * band_h + 80
    cv = Canvas(width, height)
    scale = (width - left - right) / max(end - start, 1e-9)
    X = lambda t: left + (t - start) * scale
    cv.text(left, 15, title, 3)
    # Pass boundaries: the first start of each pass.
    for p in sorted({r['pass'] for r in data}):
        t0 = min(min(v for k, v in r.items() if k.endswith('_start') and v > 0) for r in data if r['pass'] == p)
        cv.rect(X(t0), top - 8, X(t0) + 1, top + streams * band_h, (170, 170, 170))
        cv.text(X(t0) + 3, top - 8, 'PASS %d' % (p + 1), 1)
    for s in range(streams):
        y = top + s * band_h
        cv.text(10, y + lane_h, 'STREAM %d' % s, 2)
        for i, label in enumerate(('HOST', 'PCIE', 'KERNEL')):
            cv.text(left - 45, y + i * lane_h + 5, label, 1)
            cv.rect(left, y + (i + 1) * lane_h - 1, width - right, y + (i + 1) * lane_h, (235, 235, 235))
        for r in data:
            if r['stream'] != s:
                continue
            for stage, lane in (('gather', 0), ('scatter', 0), ('h2d', 1), ('d2h', 1), ('kernel', 2)):
                a, b = r[stage + '_start'], r[stage + '_end']
                if b <= 0 and a <= 0:
                    continue
                cv.rect(X(a), y + lane * lane_h + 2, X(b), y + (lane + 1) * lane_h - 3, COLORS[stage])
    # Time axis.
    axis_y = top + streams * band_h + 5
    cv.rect(left, axis_y, width - right, axis_y + 1, (0, 0, 0))
    tick = (end - start) / 10
    for i in range(11):
        t = start + i * tick
        cv.rect(X(t), axis_y, X(t) + 1, axis_y + 6, (0, 0, 0))
        cv.text(X(t) - 10, axis_y + 10, '%.2f' % t, 2)
    cv.text(width // 2 - 60, axis_y + 30, 'SECONDS', 2)
    # Legend.
    lx = left
    for stage in ('gather', 'h2d', 'kernel', 'd2h', 'scatter'):
        cv.rect(lx, height - 22, lx + 14, height - 10, COLORS[stage])
        cv.text(lx + 18, height - 21, stage, 2)
        lx += 150
    cv.png(png)
    print('wrote', png)
    return 0


if __name__ == '__main__':
    sys.exit(main())
