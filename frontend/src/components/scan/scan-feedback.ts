// What a scan sounds and feels like, per outcome: a phone at a book sale is in a pocket-side hand
// and the dealer's eyes are on the pile, so each outcome colour has its own short tune (WebAudio,
// no sound files) and each kind of outcome its own buzz. Both can be turned off.
import { RULE_COLORS, type RuleColor } from '@app/domain/rules';

/** An outcome's colour, or what the scan page knows before any verdict: a code was read, or refused. */
export type FeedbackKind = RuleColor | 'read' | 'refused';

export interface Tone {
  hz: number;
  ms: number;
}

export interface Feedback {
  wave: OscillatorType;
  tones: readonly Tone[];
  /** navigator.vibrate pattern: buzz, pause, buzz… (ms). */
  vibration: readonly number[];
}

const GAP_MS = 40; // silence between two tones of a tune, so a repeated pitch is heard twice

// Vibration by meaning, so a glance is not needed: one short buzz is good, a long one is no,
// a double is "look", a triple is "unsure", a flutter is "not a book".
const BUZZ = {
  good: [70],
  look: [50, 60, 50],
  unsure: [90, 70, 90, 70, 90],
  no: [350],
  neutral: [30],
  read: [15],
  refused: [40, 40, 40, 40, 40],
};

// Rising tunes for the good colours, falling and low for red, repeated notes for the cautious ones.
const FEEDBACK: Record<FeedbackKind, Feedback> = {
  green: {
    wave: 'sine',
    tones: [
      { hz: 1047, ms: 90 },
      { hz: 1568, ms: 140 },
    ],
    vibration: BUZZ.good,
  },
  teal: {
    wave: 'sine',
    tones: [
      { hz: 988, ms: 90 },
      { hz: 1319, ms: 140 },
    ],
    vibration: BUZZ.good,
  },
  blue: { wave: 'sine', tones: [{ hz: 784, ms: 150 }], vibration: BUZZ.look },
  indigo: { wave: 'sine', tones: [{ hz: 698, ms: 150 }], vibration: BUZZ.look },
  violet: {
    wave: 'sine',
    tones: [
      { hz: 659, ms: 90 },
      { hz: 784, ms: 90 },
    ],
    vibration: BUZZ.look,
  },
  grape: {
    wave: 'sine',
    tones: [
      { hz: 622, ms: 90 },
      { hz: 740, ms: 90 },
    ],
    vibration: BUZZ.look,
  },
  pink: {
    wave: 'sine',
    tones: [
      { hz: 880, ms: 90 },
      { hz: 740, ms: 90 },
    ],
    vibration: BUZZ.look,
  },
  yellow: {
    wave: 'triangle',
    tones: [
      { hz: 587, ms: 90 },
      { hz: 587, ms: 90 },
    ],
    vibration: BUZZ.unsure,
  },
  orange: {
    wave: 'triangle',
    tones: [
      { hz: 523, ms: 80 },
      { hz: 523, ms: 80 },
      { hz: 523, ms: 80 },
    ],
    vibration: BUZZ.unsure,
  },
  red: {
    wave: 'square',
    tones: [
      { hz: 392, ms: 150 },
      { hz: 262, ms: 300 },
    ],
    vibration: BUZZ.no,
  },
  gray: { wave: 'sine', tones: [{ hz: 440, ms: 80 }], vibration: BUZZ.neutral },
  read: { wave: 'sine', tones: [{ hz: 1760, ms: 40 }], vibration: BUZZ.read },
  refused: {
    wave: 'square',
    tones: [
      { hz: 196, ms: 110 },
      { hz: 196, ms: 110 },
    ],
    vibration: BUZZ.refused,
  },
};

export const FEEDBACK_KINDS: readonly FeedbackKind[] = [...RULE_COLORS, 'read', 'refused'];

export function feedbackFor(kind: FeedbackKind): Feedback {
  return FEEDBACK[kind];
}

/** How long a tune lasts (ms), gaps included. */
export function tuneMs(f: Feedback): number {
  return f.tones.reduce((sum, t) => sum + t.ms, 0) + GAP_MS * (f.tones.length - 1);
}

/** Schedules a tune on `ctx`. Each tone fades in and out over 5 ms: a hard edge clicks. */
export function playTune(ctx: AudioContext, f: Feedback, volume = 0.25): void {
  let at = ctx.currentTime + 0.01;
  for (const tone of f.tones) {
    const end = at + tone.ms / 1000;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = f.wave;
    osc.frequency.value = tone.hz;
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(volume, at + 0.005);
    gain.gain.setValueAtTime(volume, end - 0.005);
    gain.gain.linearRampToValueAtTime(0, end);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(end);
    at = end + GAP_MS / 1000;
  }
}

export interface FeedbackPrefs {
  sound: boolean;
  vibration: boolean;
}

export const FEEDBACK_PREFS_KEY = 'scan-feedback';
export const DEFAULT_FEEDBACK_PREFS: FeedbackPrefs = { sound: true, vibration: true };

/** What localStorage holds → preferences; anything unreadable is the default (both on). */
export function readFeedbackPrefs(raw: string | null | undefined): FeedbackPrefs {
  if (!raw) return DEFAULT_FEEDBACK_PREFS;
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v !== 'object' || v === null) return DEFAULT_FEEDBACK_PREFS;
    const { sound, vibration } = v as Record<string, unknown>;
    return {
      sound: typeof sound === 'boolean' ? sound : DEFAULT_FEEDBACK_PREFS.sound,
      vibration: typeof vibration === 'boolean' ? vibration : DEFAULT_FEEDBACK_PREFS.vibration,
    };
  } catch {
    return DEFAULT_FEEDBACK_PREFS;
  }
}
