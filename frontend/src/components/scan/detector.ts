// The barcode reader behind the camera: the browser's own BarcodeDetector where it reads EAN-13
// (Android's Chrome, macOS Safari/Chrome), else ZXing's WebAssembly build through the
// barcode-detector polyfill. The polyfill and its .wasm (about 1 MB) are fetched only here, when the
// camera starts, never with the page.
import { ReaderLoadError } from './camera-errors';
import { type CodeReader, type DetectedCode, SCAN_FORMATS } from './code-reader';

// The Barcode Detection API is not in TypeScript's DOM types yet.
interface NativeDetectorClass {
  new (options: { formats: string[] }): { detect(source: HTMLVideoElement): Promise<DetectedCode[]> };
  getSupportedFormats(): Promise<string[]>;
}

async function nativeReader(): Promise<CodeReader | null> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Native) return null;
  try {
    const supported = await Native.getSupportedFormats();
    if (!supported.includes('ean_13')) return null;
    const detector = new Native({ formats: SCAN_FORMATS.filter((f) => supported.includes(f)) });
    return { kind: 'native', detect: (video) => detector.detect(video) };
  } catch {
    return null; // a detector that cannot list its formats is not one to trust
  }
}

export async function createCodeReader(): Promise<CodeReader> {
  const native = await nativeReader();
  if (native) return native;
  try {
    const { createZxingReader } = await import('./zxing-reader');
    return await createZxingReader();
  } catch (error) {
    throw new ReaderLoadError('the barcode reader did not load', { cause: error });
  }
}
