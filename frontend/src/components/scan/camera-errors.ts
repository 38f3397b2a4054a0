// Why the camera did not start, in words a dealer can act on. Every message ends by pointing at what
// still works on the scan page (typing, a hardware scanner), because the page stays usable without it.

export const CAMERA_MESSAGES = {
  denied:
    'The camera is blocked for this site. Allow it in the browser’s site settings and press Start camera again, or type the ISBN below.',
  none: 'No camera was found. Type the ISBN below, or use a hardware scanner.',
  busy: 'The camera is in use by another app. Close that app and press Start camera again, or type the ISBN below.',
  unavailable: 'This browser gives no camera to this page (it needs HTTPS). Type the ISBN below, or use a hardware scanner.',
  reader: 'The barcode reader could not be loaded. Reload the page to try again, or type the ISBN below.',
  other: 'The camera could not be started. Press Start camera again, or type the ISBN below.',
} as const;

/** Thrown when the page has no navigator.mediaDevices (plain HTTP other than localhost). */
export class NoMediaDevicesError extends Error {
  override name = 'NoMediaDevicesError';
}

/** Thrown when the barcode reader (the polyfill or its .wasm) fails to load. */
export class ReaderLoadError extends Error {
  override name = 'ReaderLoadError';
}

/** getUserMedia's DOMException names (and our two) → the message shown. */
export function cameraErrorMessage(error: unknown): string {
  const name =
    error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error)
      ? String((error as { name: unknown }).name)
      : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
    case 'PermissionDeniedError': // older Chromium
      return CAMERA_MESSAGES.denied;
    case 'NotFoundError':
    case 'OverconstrainedError':
    case 'DevicesNotFoundError':
      return CAMERA_MESSAGES.none;
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return CAMERA_MESSAGES.busy;
    case 'NoMediaDevicesError':
      return CAMERA_MESSAGES.unavailable;
    case 'ReaderLoadError':
      return CAMERA_MESSAGES.reader;
    default:
      return CAMERA_MESSAGES.other;
  }
}
