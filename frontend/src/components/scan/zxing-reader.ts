// ZXing (WebAssembly) behind the Barcode Detection API's shape, for browsers without a native reader.
// Loaded by detector.ts with import(), so this module, the polyfill and the .wasm stay out of the page.
// The .wasm is our own copy (Vite emits it into dist/assets with a content hash; the API serves it as
// application/wasm): the polyfill's default would fetch it from a CDN, and the product must work offline.
import { BarcodeDetector, type BarcodeFormat, prepareZXingModule } from 'barcode-detector/ponyfill';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import { type CodeReader, SCAN_FORMATS } from './code-reader';

export async function createZxingReader(): Promise<CodeReader> {
  // fireImmediately: fetch and compile the .wasm now, so a failure shows when the camera starts
  // rather than as a reader that silently never reads.
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
    fireImmediately: true,
  });
  const formats: BarcodeFormat[] = [...SCAN_FORMATS];
  const detector = new BarcodeDetector({ formats });
  return { kind: 'zxing', detect: (video) => detector.detect(video) };
}
