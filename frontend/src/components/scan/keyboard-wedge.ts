// A hardware barcode scanner that acts as a keyboard (a "keyboard wedge") types the code's characters
// a few milliseconds apart and then Enter. A person types slower and unevenly. This tells the two
// apart from the keys and their times alone, so it is tested without a browser.

/** Keystrokes of a scan are this far apart on average (ms): scanners send one every 5–30 ms, people 100 ms and more. */
export const WEDGE_MEAN_GAP_MS = 50;
/**
 * Longest single gap inside a scan (ms). Twice the mean: a Bluetooth scanner's keys arrive in
 * packets, and a busy phone delivers some late, so one slow gap must not split a scan in two.
 */
export const WEDGE_MAX_GAP_MS = 100;
/** Fewest characters a scan may have: an EAN-8 or UPC-E; nobody's two quick keys make a scan. */
export const WEDGE_MIN_LENGTH = 8;

export interface WedgeState {
  text: string;
  /** Time of the burst's first keystroke and of its last (ms); null before any. */
  from: number | null;
  at: number | null;
}

export const WEDGE_IDLE: WedgeState = { text: '', from: null, at: null };

/**
 * One keydown (`key` as KeyboardEvent.key, `at` its time in ms) → the next state, and the scanned
 * text when this Enter ends a fast enough burst. `swallow` says the Enter belonged to the scanner, so
 * the page must not act on it (a focused button would be pressed).
 */
export function wedgeKey(state: WedgeState, key: string, at: number): { state: WedgeState; code?: string; swallow?: true } {
  const quick = state.at !== null && at - state.at <= WEDGE_MAX_GAP_MS;
  if (key === 'Enter') {
    // The gaps of "1234…8⏎" are as many as its characters.
    const meanGap = state.from === null ? Number.POSITIVE_INFINITY : (at - state.from) / state.text.length;
    if (quick && state.text.length >= WEDGE_MIN_LENGTH && meanGap <= WEDGE_MEAN_GAP_MS)
      return { state: WEDGE_IDLE, code: state.text, swallow: true };
    return { state: WEDGE_IDLE };
  }
  // Shift comes before an upper-case letter; it is neither part of the code nor a break in it.
  if (key === 'Shift') return { state };
  // One printable character: it continues a burst, or starts a new one after a pause.
  if (key.length === 1) return { state: quick ? { text: state.text + key, from: state.from, at } : { text: key, from: at, at } };
  // Any other key (Tab, Backspace, arrows…) is a person at the keyboard.
  return { state: WEDGE_IDLE };
}
