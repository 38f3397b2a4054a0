// A hardware barcode scanner that acts as a keyboard (a "keyboard wedge") types the code's characters
// a few milliseconds apart and then Enter. A person types slower and unevenly. This tells the two
// apart from the keys and their times alone, so it is tested without a browser.

/** Keystrokes of a scan are this far apart on average (ms): scanners send one every 5–30 ms, people 100 ms and more. */
export const WEDGE_MEAN_GAP_MS = 50;
/** Longest gap between a scan's keys (ms): twice the mean. */
export const WEDGE_MAX_GAP_MS = 100;
/**
 * One late key inside a scan is forgiven, up to this gap (ms): a Bluetooth scanner's keys arrive in
 * packets, and a busy phone or browser delivers some late. Without it the keys before the gap were
 * dropped and the rest read as a code of its own (CI saw "036" + a late "000291452" become a
 * 9-digit refusal; the tail of an ISBN-13 can even be a valid ISBN-10, i.e. a wrong book).
 */
export const WEDGE_LATE_KEY_MS = 500;
/** Quick keys a burst needs before a late one is forgiven: a person's one stray key and a scan stay two things. */
const QUICK_KEYS_BEFORE_LATE = 2;
/** Fewest characters a scan may have: an EAN-8 or UPC-E; nobody's two quick keys make a scan. */
export const WEDGE_MIN_LENGTH = 8;

export interface WedgeState {
  text: string;
  /** Time of the burst's first keystroke and of its last (ms); null before any. */
  from: number | null;
  at: number | null;
  /** The one late gap forgiven inside this burst (ms); 0 when none was. */
  late: number;
}

export const WEDGE_IDLE: WedgeState = { text: '', from: null, at: null, late: 0 };

/**
 * One keydown (`key` as KeyboardEvent.key, `at` its time in ms) → the next state, and the scanned
 * text when this Enter ends a fast enough burst. `swallow` says the Enter belonged to the scanner, so
 * the page must not act on it (a focused button would be pressed).
 */
export function wedgeKey(state: WedgeState, key: string, at: number): { state: WedgeState; code?: string; swallow?: true } {
  const gap = state.at === null ? Number.POSITIVE_INFINITY : at - state.at;
  const quick = gap <= WEDGE_MAX_GAP_MS;
  if (key === 'Enter') {
    // The gaps of "1234…8⏎" are as many as its characters; a forgiven late gap is not counted in the mean.
    const meanGap = state.from === null ? Number.POSITIVE_INFINITY : (at - state.from - state.late) / state.text.length;
    if (quick && state.text.length >= WEDGE_MIN_LENGTH && meanGap <= WEDGE_MEAN_GAP_MS)
      return { state: WEDGE_IDLE, code: state.text, swallow: true };
    return { state: WEDGE_IDLE };
  }
  // Shift comes before an upper-case letter; it is neither part of the code nor a break in it.
  if (key === 'Shift') return { state };
  // One printable character: it continues a burst (once after a late key), or starts a new one after a pause.
  if (key.length === 1) {
    if (quick) return { state: { ...state, text: state.text + key, at } };
    const forgiven = state.late === 0 && gap <= WEDGE_LATE_KEY_MS && state.text.length >= QUICK_KEYS_BEFORE_LATE;
    if (forgiven) return { state: { ...state, text: state.text + key, at, late: gap } };
    return { state: { text: key, from: at, at, late: 0 } };
  }
  // Any other key (Tab, Backspace, arrows…) is a person at the keyboard.
  return { state: WEDGE_IDLE };
}
