// One cell of a price-lookup table, read through the field table: N/A when empty, the ISBN as a
// link to its book's page, external links for link fields, a badge for the status, money with its currency, local time for dates,
// the value otherwise.
import { currencyOf, type FieldDef } from '@app/domain/fields';
import { Anchor } from '@mantine/core';
import { formatDateTime, formatMoney } from '../../lib/format';
import { externalHref } from '../../lib/links';
import { offerCellText } from '../../lib/offers';
import { BookLink } from '../book/BookLink';
import { OrNA, isEmptyValue } from '../common/EmptyValue';
import classes from './LookupValue.module.css';
import { StatusBadge } from './StatusBadge';

export function LookupValue({ field, row }: { field: FieldDef; row: Record<string, unknown> }) {
  const value = row[field.name];
  if (field.name === 'lookup_status') return <StatusBadge status={value} />;
  if (isEmptyValue(value)) return <OrNA value={value} />;
  const text = offerCellText(value);
  if (field.name === 'isbn') return <BookLink isbn={text} />;
  if (field.link) {
    return (
      // A row click opens the offers; following the link must not.
      // Marketplace URLs are long: one truncated line, the whole address on hover.
      <Anchor
        href={externalHref(text)}
        target="_blank"
        rel="noopener noreferrer"
        size="sm"
        onClick={(e) => e.stopPropagation()}
        title={text}
        truncate="end"
        maw={240}
        display="block"
      >
        {text}
      </Anchor>
    );
  }
  if (field.format === 'money')
    return (
      <span
        className={Number(value) < 0 ? classes.negative : undefined}
        style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
      >
        {formatMoney(value, currencyOf(field, row))}
      </span>
    );
  // One line: wrapped over three, dates made every row of a wide table three lines tall.
  if (field.type === 'date') return <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(text)}</span>;
  return <>{text}</>;
}
