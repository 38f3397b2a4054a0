import { describe, expect, it } from 'vitest';
import { CAMERA_MESSAGES, cameraErrorMessage, NoMediaDevicesError, ReaderLoadError } from './camera-errors';

// getUserMedia rejects with DOMExceptions; Node has DOMException too, so these are the real shapes.
const dom = (name: string) => new DOMException('browser text', name);

describe('cameraErrorMessage', () => {
  it.each([
    [dom('NotAllowedError'), CAMERA_MESSAGES.denied],
    [dom('SecurityError'), CAMERA_MESSAGES.denied],
    [dom('NotFoundError'), CAMERA_MESSAGES.none],
    [dom('OverconstrainedError'), CAMERA_MESSAGES.none],
    [dom('NotReadableError'), CAMERA_MESSAGES.busy],
    [new NoMediaDevicesError(), CAMERA_MESSAGES.unavailable],
    [new ReaderLoadError(), CAMERA_MESSAGES.reader],
    [new TypeError('x'), CAMERA_MESSAGES.other],
    ['a string', CAMERA_MESSAGES.other],
    [undefined, CAMERA_MESSAGES.other],
  ])('%s → its message', (error, message) => {
    expect(cameraErrorMessage(error)).toBe(message);
  });

  it('always says how to go on without the camera', () => {
    for (const m of Object.values(CAMERA_MESSAGES)) expect(m).toMatch(/type the ISBN below/i);
  });
});
