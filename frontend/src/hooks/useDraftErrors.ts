// A hand-built form's draft and the messages beside its inputs (the rule set editor, the watch form:
// lists of rows react-hook-form would only complicate). The domain's verdict on the draft shows once
// an input was left or Save was pressed; a 422's messages show beside the inputs their locs name
// until the draft changes again. Inputs are named by their error path ("rules.0.conditions.1.value").
import { type FocusEvent, useCallback, useMemo, useState } from 'react';
import { fieldErrors } from '../lib/errors';
import type { ErrorMap } from '../components/rules/rule-sets';

export function useDraftErrors<D>(initial: () => D, validate: (draft: D) => ErrorMap) {
  const [draft, setDraft] = useState<D>(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<ErrorMap>({});
  const local = useMemo(() => validate(draft), [draft, validate]);

  /** Starts again from `next` (each opening of the dialog), nothing touched, no messages. */
  const reset = useCallback((next: D) => {
    setDraft(next);
    setTouched(new Set());
    setSubmitted(false);
    setServer({});
  }, []);

  return {
    draft,
    /** The draft changed: the server's messages, about the old one, go. */
    change: (next: D) => {
      setDraft(next);
      setServer({});
    },
    reset,
    /** The message beside the input at `path`: the server's, else the domain's once the input was left or Save was pressed (`always`: at once). */
    error: (path: string, always = false) => server[path] ?? (always || submitted || touched.has(path) ? local[path] : undefined),
    /** The server's messages by path (for those the form has no input for). */
    server,
    /** For the inputs' container: leaving an input shows its problem from then on. */
    onBlur: (e: FocusEvent<HTMLElement>) => {
      const name = (e.target as HTMLInputElement).name;
      if (name && !touched.has(name)) setTouched(new Set(touched).add(name));
    },
    /** Save was pressed: every problem shows; true when there is none and the draft may be sent. */
    submit: () => {
      setSubmitted(true);
      return Object.keys(local).length === 0;
    },
    /** A failed save: true when its messages were placed beside inputs (a 422), false when the caller should say it otherwise. */
    failed: (err: unknown) => {
      const named = fieldErrors(err);
      setServer(named);
      return Object.keys(named).length > 0;
    },
  };
}
