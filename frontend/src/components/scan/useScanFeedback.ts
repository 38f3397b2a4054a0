// Sound and vibration for each scan, each switchable off; the choice is kept in this browser.
import { useLocalStorage } from '@mantine/hooks';
import { useCallback, useRef } from 'react';
import {
  DEFAULT_FEEDBACK_PREFS,
  FEEDBACK_PREFS_KEY,
  type FeedbackKind,
  type FeedbackPrefs,
  feedbackFor,
  playTune,
  readFeedbackPrefs,
} from './scan-feedback';

const STALE_MS = 300;

export function useScanFeedback() {
  const [prefs, setPrefs] = useLocalStorage<FeedbackPrefs>({
    key: FEEDBACK_PREFS_KEY,
    defaultValue: DEFAULT_FEEDBACK_PREFS,
    deserialize: (raw) => readFeedbackPrefs(raw),
    serialize: (p) => JSON.stringify(p),
  });
  // One context for the page: browsers limit how many may exist. Safari lets a context start only
  // inside a tap, so prime() is called from one (Start camera, Look up); later scans then play.
  const audio = useRef<AudioContext | null>(null);

  const prime = useCallback(() => {
    if (!prefs.sound || typeof AudioContext === 'undefined') return;
    audio.current ??= new AudioContext();
    void audio.current.resume();
  }, [prefs.sound]);

  const signal = useCallback(
    (kind: FeedbackKind) => {
      const f = feedbackFor(kind);
      if (prefs.sound && typeof AudioContext !== 'undefined') {
        audio.current ??= new AudioContext();
        const ctx = audio.current;
        const asked = performance.now();
        // A context still waiting for a tap would play every tune at once when it gets one: late ones are dropped.
        void ctx.resume().then(() => {
          if (performance.now() - asked < STALE_MS) playTune(ctx, f);
        });
      }
      // Safari has no vibrate.
      if (prefs.vibration && typeof navigator.vibrate === 'function') navigator.vibrate([...f.vibration]);
    },
    [prefs],
  );

  return { prefs, setPrefs, prime, signal };
}
