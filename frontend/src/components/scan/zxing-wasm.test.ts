// The polyfill's JavaScript and the .wasm we serve come from two packages (barcode-detector bundles
// zxing-wasm's glue; zxing-wasm ships the binary). A glue and a binary of different builds fail only
// in the browser, when the camera starts; this catches an upgrade of one without the other.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ZXING_WASM_SHA256, ZXING_WASM_VERSION } from 'barcode-detector/ponyfill';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe('the served zxing_reader.wasm', () => {
  it('is the build the polyfill was made for', () => {
    const wasmFile = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
    const wasm = readFileSync(wasmFile);
    // Its package.json is not exported: found beside dist/reader/.
    const pkg = JSON.parse(readFileSync(path.resolve(path.dirname(wasmFile), '../../package.json'), 'utf8')) as { version: string };
    expect(pkg.version).toBe(ZXING_WASM_VERSION);
    expect(createHash('sha256').update(wasm).digest('hex')).toBe(ZXING_WASM_SHA256);
  });
});
