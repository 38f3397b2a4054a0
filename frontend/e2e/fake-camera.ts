// A camera for the browser tests: Chromium's fake capture device plays a Y4M file in a loop
// (--use-fake-device-for-media-stream --use-file-for-fake-video-capture=<file>). This draws a book's
// barcode with bwip-js (an EAN-13 and, like a real book, its 5-digit price add-on), puts it on a
// light page in the middle of the picture and writes it as a few identical frames of raw I420 video.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import bwipjs from 'bwip-js/node';
import { CHROMIUM_FULL } from './app-env';

const WIDTH = 640;
const HEIGHT = 480;
const FPS = 10;
const FRAMES = 10; // Chromium loops the file; one second of the same picture is plenty
const PAGE = 235; // the paper around the label: not pure white, as a camera sees it

interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

/** bwip-js's PNG (8-bit RGBA, every row unfiltered, as it writes them) → its pixels. */
function decodePng(png: Buffer): Rgba {
  const chunks: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[9] !== 6 || body[12] !== 0) throw new Error('expected an 8-bit RGBA, non-interlaced PNG from bwip-js');
    } else if (type === 'IDAT') chunks.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * 4;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1);
    if (raw[row] !== 0) throw new Error(`PNG row ${y} uses filter ${raw[row]}; bwip-js writes unfiltered rows`);
    data.set(raw.subarray(row + 1, row + 1 + stride), y * stride);
  }
  return { width, height, data };
}

/** The label centred on a WIDTH×HEIGHT page, as luma-ready RGB (alpha over the page colour). */
function compose(label: Rgba): Uint8Array {
  if (label.width > WIDTH || label.height > HEIGHT)
    throw new Error(`the barcode (${label.width}×${label.height}) does not fit the picture`);
  const rgb = new Uint8Array(WIDTH * HEIGHT * 3).fill(PAGE);
  const left = (WIDTH - label.width) >> 1;
  const top = (HEIGHT - label.height) >> 1;
  for (let y = 0; y < label.height; y++) {
    for (let x = 0; x < label.width; x++) {
      const s = (y * label.width + x) * 4;
      const d = ((top + y) * WIDTH + left + x) * 3;
      const a = (label.data[s + 3] ?? 0) / 255;
      for (let c = 0; c < 3; c++) rgb[d + c] = Math.round((label.data[s + c] ?? 0) * a + PAGE * (1 - a));
    }
  }
  return rgb;
}

/** RGB → I420 (Y plane, then U and V at half size), full-range BT.601 as the C420jpeg tag says. */
function toI420(rgb: Uint8Array): Buffer {
  const ySize = WIDTH * HEIGHT;
  const cw = WIDTH / 2;
  const out = Buffer.alloc(ySize + 2 * (ySize / 4));
  const px = (x: number, y: number, c: number) => rgb[(y * WIDTH + x) * 3 + c] ?? 0;
  for (let y = 0; y < HEIGHT; y++)
    for (let x = 0; x < WIDTH; x++) out[y * WIDTH + x] = Math.round(0.299 * px(x, y, 0) + 0.587 * px(x, y, 1) + 0.114 * px(x, y, 2));
  for (let y = 0; y < HEIGHT / 2; y++) {
    for (let x = 0; x < cw; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        r += px(2 * x + dx, 2 * y + dy, 0) / 4;
        g += px(2 * x + dx, 2 * y + dy, 1) / 4;
        b += px(2 * x + dx, 2 * y + dy, 2) / 4;
      }
      const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
      out[ySize + y * cw + x] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      out[ySize + ySize / 4 + y * cw + x] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  }
  return out;
}

/**
 * Writes (once per path) a Y4M video of `text` as an EAN-13 barcode (bwip-js `ean13`: 13 digits, a
 * space and an add-on allowed) and returns its path.
 */
export async function barcodeVideo(text: string): Promise<string> {
  const png = await bwipjs.toBuffer({
    bcid: 'ean13',
    text,
    scale: 3,
    height: 18,
    includetext: true,
    paddingwidth: 10,
    paddingheight: 6,
    backgroundcolor: 'FFFFFF',
  });
  const frame = toI420(compose(decodePng(png)));
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F${FPS}:1 Ip A1:1 C420jpeg\n`, 'latin1');
  const marker = Buffer.from('FRAME\n', 'latin1');
  const video = Buffer.concat([header, ...Array.from({ length: FRAMES }, () => [marker, frame]).flat()]);
  const dir = path.join(os.tmpdir(), 'e2e-fake-camera');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${text.replace(/\W+/g, '-')}.y4m`);
  // Written whole, then renamed: the test runner and its worker both load the spec that calls this.
  const partial = `${file}.${process.pid}.part`;
  writeFileSync(partial, video);
  renameSync(partial, file);
  return file;
}

/** The full Chromium (the headless shell plays no fake video) launched with a fake camera that plays `video`. */
export function withFakeCamera(video: string) {
  return {
    ...CHROMIUM_FULL,
    args: [...(CHROMIUM_FULL.args ?? []), '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
  };
}
