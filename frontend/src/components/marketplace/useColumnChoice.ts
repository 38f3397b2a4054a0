// A marketplace table's chosen columns, remembered per marketplace in localStorage (and kept in
// step across tabs). Going back to the default removes the stored value, so a user who never
// chose, or chose the default again, follows the default if it changes.
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import { useLocalStorage } from '@mantine/hooks';
import { useMemo } from 'react';
import { columnChoiceKey, defaultColumns, readColumnChoice, sameChoice, type ColumnChoice } from '../../lib/column-choice';

// A value that is not JSON reads as "nothing usable" rather than throwing during render.
const lenientJson = (raw: string | undefined): unknown => {
  try {
    return raw === undefined ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
};

export function useColumnChoice(m: MarketplaceInfo) {
  const [stored, setStored, removeStored] = useLocalStorage<unknown>({
    key: columnChoiceKey(m.id),
    defaultValue: undefined,
    getInitialValueInEffect: false,
    deserialize: lenientJson,
  });
  const defaults = useMemo(() => defaultColumns(m.fields), [m.fields]);
  const choice = useMemo(() => readColumnChoice(stored, m.fields), [stored, m.fields]);
  const setChoice = (next: ColumnChoice) => (sameChoice(next, defaults) ? removeStored() : setStored([...next]));
  return { choice, setChoice, isDefault: sameChoice(choice, defaults), reset: removeStored };
}
