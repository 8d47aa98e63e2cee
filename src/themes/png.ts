import { PNG } from 'pngjs';
import { THEME_LIMITS } from '../domain/themes/limits.js';
import { invalidPackage } from '../domain/themes/package-error.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * preview.png must decode as a PNG of 1..4096 pixels a side. The header is checked first so a
 * huge image is refused without allocating its pixels; then the whole image is decoded.
 */
export function checkPreviewPng(bytes: Buffer): void {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(SIGNATURE)) {
    throw invalidPackage('preview.png is not a PNG image');
  }
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const max = THEME_LIMITS.previewMaxSide;
  if (width < 1 || height < 1 || width > max || height > max) {
    throw invalidPackage(`preview.png must be 1..${max} pixels wide and high`);
  }
  try {
    PNG.sync.read(bytes);
  } catch {
    throw invalidPackage('preview.png does not decode as a PNG image');
  }
}
