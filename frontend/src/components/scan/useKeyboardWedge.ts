// Codes from a hardware scanner that types like a keyboard (Bluetooth or USB "keyboard wedge").
//
// Keystrokes aimed at a text field are left to that field: the scan page's own ISBN box reads what
// a scanner types into it on Enter (the same reading as typing), and any other field is a person
// typing (the header's search, later a note or a price), where a burst must land as text, not be
// taken away. So bursts are collected only while no text field has focus: the usual state of the
// scan page, where a phone shows no on-screen keyboard and a scanner can fire at any time.
import { useEffect, useRef } from 'react';
import { WEDGE_IDLE, wedgeKey } from './keyboard-wedge';

const NOT_TEXT = new Set(['button', 'checkbox', 'radio', 'range', 'color', 'file', 'submit', 'reset', 'image']);

function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NOT_TEXT.has(target.type);
}

export function useKeyboardWedge(onCode: (text: string) => void): void {
  const onCodeRef = useRef(onCode);
  useEffect(() => {
    onCodeRef.current = onCode;
  }, [onCode]);

  useEffect(() => {
    let state = WEDGE_IDLE;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTextEntry(e.target)) {
        state = WEDGE_IDLE;
        return;
      }
      const r = wedgeKey(state, e.key, e.timeStamp);
      state = r.state;
      // The scanner's Enter must not press the button that has focus (Start camera, say).
      if (r.swallow) e.preventDefault();
      if (r.code !== undefined) onCodeRef.current(r.code);
    };
    // Capture: seen before a focused element acts on the key.
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);
}
