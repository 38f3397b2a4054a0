// When the camera runs: from Start camera until Stop camera or the page is left (unmount); while the
// page is hidden (another tab, the phone locked) it is released, and it comes back when the page is
// shown again, so a dealer's phone never keeps its camera on in a pocket.
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { cameraErrorMessage } from './camera-errors';
import { CameraSession } from './camera-session';
import type { CodeReader } from './code-reader';

export type CameraState =
  | { status: 'off' }
  | { status: 'starting' }
  | { status: 'on'; reader: CodeReader['kind'] }
  | { status: 'error'; message: string };

export function useCameraScanner(video: RefObject<HTMLVideoElement | null>, onCode: (text: string, format: string) => void) {
  const [state, setState] = useState<CameraState>({ status: 'off' });
  const session = useRef<CameraSession | null>(null);
  // The person asked for the camera and has not stopped it (a hidden page pauses, it does not stop).
  const wanted = useRef(false);
  const onCodeRef = useRef(onCode);
  useEffect(() => {
    onCodeRef.current = onCode;
  }, [onCode]);

  const open = useCallback(async () => {
    const el = video.current;
    if (!el) return;
    session.current?.stop();
    const s = new CameraSession(el, (text, format) => onCodeRef.current(text, format));
    session.current = s;
    setState({ status: 'starting' });
    try {
      const reader = await s.start();
      if (reader !== null && session.current === s) setState({ status: 'on', reader });
    } catch (error) {
      s.stop();
      if (session.current !== s) return;
      session.current = null;
      wanted.current = false;
      setState({ status: 'error', message: cameraErrorMessage(error) });
    }
  }, [video]);

  const start = useCallback(() => {
    wanted.current = true;
    void open();
  }, [open]);

  const stop = useCallback(() => {
    wanted.current = false;
    session.current?.stop();
    session.current = null;
    setState({ status: 'off' });
  }, []);

  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        session.current?.stop();
        session.current = null;
      } else if (wanted.current) void open();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      session.current?.stop();
      session.current = null;
    };
  }, [open]);

  return { state, start, stop };
}
