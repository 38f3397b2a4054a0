// What a barcode reader is, whichever one the camera gets (detector.ts chooses; zxing-reader.ts is
// one of them): its own file, so the two share it without importing each other.

/** UPCs are asked for too, so a UPC is refused with a reason instead of being silently ignored. */
export const SCAN_FORMATS = ['ean_13', 'upc_a', 'upc_e'] as const;

export interface DetectedCode {
  rawValue: string;
  format: string;
}

export interface CodeReader {
  /** 'native' or 'zxing': which reader a session got (shown nowhere; for tests and reports). */
  kind: 'native' | 'zxing';
  detect(source: HTMLVideoElement): Promise<DetectedCode[]>;
}
