// One run of the rear camera into a <video>, read every SCAN_INTERVAL_MS until stop(). Not React:
// the component decides when a session starts and ends (button, unmount, page hidden).
import { NoMediaDevicesError } from './camera-errors';
import type { CodeReader } from './code-reader';
import { createCodeReader } from './detector';

/** Time between two reads of the picture. ZXing takes 20–60 ms a frame on a phone; more often only drains the battery. */
export const SCAN_INTERVAL_MS = 150;

// The rear camera where there is one ("ideal": a laptop's only camera still opens); 720p is enough
// for an EAN-13 at arm's length and keeps each read short.
const CONSTRAINTS: MediaStreamConstraints = {
  audio: false,
  video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
};

export class CameraSession {
  #stopped = false;
  #stream: MediaStream | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly onCode: (text: string, format: string) => void,
  ) {}

  /** Opens the camera and the reader together (the .wasm downloads during the permission prompt); resolves with the reader's kind. */
  async start(): Promise<CodeReader['kind'] | null> {
    const devices = navigator.mediaDevices as MediaDevices | undefined;
    if (!devices?.getUserMedia) throw new NoMediaDevicesError('navigator.mediaDevices is missing');
    const [stream, reader] = await Promise.allSettled([devices.getUserMedia(CONSTRAINTS), createCodeReader()]);
    if (stream.status === 'fulfilled') this.#stream = stream.value;
    // The camera's refusal says more than the reader's failure, so it wins when both fail.
    if (stream.status === 'rejected') throw stream.reason;
    if (reader.status === 'rejected') {
      this.stop();
      throw reader.reason;
    }
    if (this.#stopped) {
      this.stop(); // stopped (page hidden, left) while the prompt was open
      return null;
    }
    this.video.srcObject = stream.value;
    try {
      await this.video.play();
    } catch (error) {
      // play() is interrupted when stop() clears srcObject meanwhile; that is not a failure.
      if (this.#stopped) return null;
      throw error;
    }
    this.#read(reader.value);
    return reader.value.kind;
  }

  #read(reader: CodeReader): void {
    const tick = async () => {
      if (this.#stopped) return;
      // HAVE_CURRENT_DATA: a frame to read.
      if (this.video.readyState >= 2 && this.video.videoWidth > 0) {
        try {
          for (const code of await reader.detect(this.video)) this.onCode(code.rawValue, code.format);
        } catch {
          // One frame the reader could not take (the camera switching resolution); the next may do.
        }
      }
      if (!this.#stopped) this.#timer = setTimeout(tick, SCAN_INTERVAL_MS);
    };
    void tick();
  }

  /** Releases the camera (its light goes off) and stops reading. Safe to call more than once. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    for (const track of this.#stream?.getTracks() ?? []) track.stop();
    if (this.#stream && this.video.srcObject === this.#stream) this.video.srcObject = null;
    this.#stream = null;
  }
}
