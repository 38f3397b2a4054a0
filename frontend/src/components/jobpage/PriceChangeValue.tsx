// A change column's cell on the comparison: ▼ / ▲ and the amount, the words ("down $5.00") for
// screen readers and on hover; N/A when the ISBN was not looked at twice in one currency.
import { currencyOf, type FieldDef } from '@app/domain/fields';
import { VisuallyHidden } from '@mantine/core';
import { describePriceChange } from '../../lib/price-change';
import { OrNA, isEmptyValue } from '../common/EmptyValue';

export function PriceChangeValue({ field, row }: { field: FieldDef; row: Record<string, unknown> }) {
  const value = row[field.name];
  if (isEmptyValue(value) || typeof value !== 'number') return <OrNA value={value} />;
  const { arrow, amount, label } = describePriceChange(value, currencyOf(field, row));
  return (
    <span style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }} title={label}>
      <span aria-hidden="true">{arrow ? `${arrow} ${amount}` : amount}</span>
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}
