import QRCode from 'qrcode';
import { INK, type DrawOp } from './layout.js';

/**
 * The QR code for `url` as vector rectangles with its top-left corner at (`x`, `top`), `size`
 * points square including the 4-module quiet zone scanners need. Vectors stay sharp at any
 * print size and cost a few hundred bytes, where a PNG would be blurry or heavy.
 */
export function qrCodeOps(url: string, x: number, top: number, size: number): DrawOp[] {
  // Level M survives a crease or a stamp across the code yet keeps short URLs at version 3-4.
  const { modules } = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const count = modules.size;
  const unit = size / (count + 8);
  const rects: [number, number, number, number][] = [];
  for (let row = 0; row < count; row++) {
    // Merge horizontal runs of dark modules: fewer operators, and no hairline seams between them.
    let col = 0;
    while (col < count) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < count && modules.get(row, col)) col++;
      rects.push([x + (start + 4) * unit, top - (row + 5) * unit, (col - start) * unit, unit]);
    }
  }
  return [
    { kind: 'rect', x, y: top - size, width: size, height: size, fill: [1, 1, 1] },
    { kind: 'rects', fill: INK, rects },
  ];
}
