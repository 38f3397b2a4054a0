// How every form validates ("Forms validate on blur": docs/requirements.md, Validation messages).
//
// 'onTouched' validates a field on its first blur, then on every change. Plain 'onBlur' kept a
// corrected field's error line until the next blur — which is the mousedown on Save: the line
// vanished, the form got shorter, the button moved out from under the pointer before mouseup, and
// that first click never became a click. Clearing the error while typing shifts the layout before
// the user reaches for the button, so one click submits.
export const FORM_MODE = 'onTouched' as const;
