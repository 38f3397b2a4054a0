// A change column's cell on the comparison: ▼ / ▲ and the amount, the words ("down $5.00") for
// screen readers and on hover; N/A when the ISBN was not looked at twice in one currency. The arrow
// is coloured as well as shaped, read as a seller reads it: a rise (the book is worth more) in teal,
// a drop in red; Mantine's "-text" shades keep AA contrast in both colour schemes.
import { currencyOf, type FieldDef } from '@app/domain/fields';
import { VisuallyHidden } from '@mantine/core';
import { describePriceChange } from './price-change';
import { OrNA, isEmptyValue } from '../common/EmptyValue';

const CHANGE_COLOR = { '▼': 'var(--mantine-color-red-text)', '▲': 'var(--mantine-color-teal-text)', '': undefined } as const;

export function PriceChangeValue({ field, row }: { field: FieldDef; row: Record<string, unknown> }) {
  const value = row[field.name];
  if (isEmptyValue(value) || typeof value !== 'number') return <OrNA value={value} />;
  const { arrow, amount, label } = describePriceChange(value, currencyOf(field, row));
  return (
    <span style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums', color: CHANGE_COLOR[arrow] }} title={label}>
      <span aria-hidden="true">{arrow ? `${arrow} ${amount}` : amount}</span>
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}
