// A table's chosen columns, remembered in localStorage under a key of the caller's (a marketplace
// page's per marketplace, the comparison's per user) and kept in step across tabs. Going back to the default removes the stored value, so a user who never
// chose, or chose the default again, follows the default if it changes.
import type { FieldDef } from '@app/domain/fields';
import { useLocalStorage } from '@mantine/hooks';
import { useMemo } from 'react';
import { defaultColumns, readColumnChoice, sameChoice, type ColumnChoice } from '../../lib/column-choice';

// A value that is not JSON reads as "nothing usable" rather than throwing during render.
const lenientJson = (raw: string | undefined): unknown => {
  try {
    return raw === undefined ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
};

/** `preferred`: the default columns when not the fields' `column` ones. */
export function useColumnChoice(key: string, fields: readonly FieldDef[], preferred?: ColumnChoice) {
  const [stored, setStored, removeStored] = useLocalStorage<unknown>({
    key,
    defaultValue: undefined,
    getInitialValueInEffect: false,
    deserialize: lenientJson,
  });
  const defaults = useMemo(() => preferred ?? defaultColumns(fields), [preferred, fields]);
  const choice = useMemo(() => readColumnChoice(stored, fields, defaults), [stored, fields, defaults]);
  const setChoice = (next: ColumnChoice) => (sameChoice(next, defaults) ? removeStored() : setStored([...next]));
  return { choice, setChoice, isDefault: sameChoice(choice, defaults), reset: removeStored };
}
