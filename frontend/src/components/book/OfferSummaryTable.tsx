// A book page's offers at a glance: item price, shipping, delivered total, condition, seller and a
// link to the listing, cheapest delivered first, as the API summarised them (each marketplace's
// normaliser, backend/src/marketplaces/<id>/offers.ts). Every field of every offer stays one click
// away (the offers drawer's table).
import type { FieldDef } from '@app/domain/fields';
import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { formatMoney } from '../../lib/format';
import { externalHref } from '../../lib/links';
import type { OfferSummary } from '../../client/types.gen';
import { offerLink, offerMoney } from '../../lib/offers';
import { readableFields, readableValue } from './readable-fields';
import { KEYBOARD_SCROLLABLE } from '../common/DataTable';
import { CARDS_BELOW } from '../common/PagedTable';
import { OrNA } from '../common/EmptyValue';
import { OffersTable } from '../marketplace/OffersTable';

const money = (m: OfferSummary['price']) => (m ? formatMoney(m.value, m.currency) : null);

function SummaryTable({ rows, label }: { rows: OfferSummary[]; label: string }) {
  return (
    <Table.ScrollContainer minWidth={360} scrollAreaProps={KEYBOARD_SCROLLABLE}>
      <Table striped withTableBorder fz="xs" verticalSpacing={4} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th ta="right">Item price</Table.Th>
            <Table.Th ta="right">Shipping</Table.Th>
            <Table.Th ta="right">Delivered</Table.Th>
            <Table.Th>Condition</Table.Th>
            <Table.Th>Seller</Table.Th>
            <Table.Th>Listing</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: offers have no id; their place in the list is their identity
            <Table.Tr key={i}>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                <OrNA value={money(r.price)} />
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                <OrNA value={money(r.shipping)} />
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                <OrNA value={money(r.delivered)} />
              </Table.Td>
              <Table.Td>
                <OrNA value={r.condition} />
              </Table.Td>
              <Table.Td>
                <OrNA value={r.seller} />
              </Table.Td>
              <Table.Td>
                <OrNA value={r.link}>
                  {r.link && (
                    <Anchor href={externalHref(r.link)} target="_blank" rel="noopener noreferrer" size="xs">
                      Open listing
                    </Anchor>
                  )}
                </OrNA>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The offers on a phone, where six columns do not fit: one entry per offer, the delivered total
 * first with how it adds up ("item $42.40 + shipping $3.50"), then condition, seller and listing.
 */
function SummaryList({ rows, label }: { rows: OfferSummary[]; label: string }) {
  return (
    <Stack gap={0} component="ul" aria-label={label} m={0} p={0} w="100%" style={{ listStyle: 'none' }}>
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: offers have no id; their place in the list is their identity
        <OfferEntry key={i} offer={r} first={i === 0} />
      ))}
    </Stack>
  );
}

function OfferEntry({ offer: r, first }: { offer: OfferSummary; first: boolean }) {
  const parts = [r.price && `item ${money(r.price)}`, r.shipping && `shipping ${money(r.shipping)}`].filter(Boolean);
  return (
    <Stack component="li" gap={0} py={6} style={{ borderTop: first ? undefined : '1px solid var(--mantine-color-default-border)' }}>
      <Group gap={6} wrap="wrap">
        <Text size="sm" fw={700}>
          {r.delivered ? `${money(r.delivered)} delivered` : r.price ? `${money(r.price)} item` : 'No price'}
        </Text>
        <Text size="xs" c="dimmed">
          {r.delivered ? parts.join(' + ') : r.price ? 'shipping unknown' : ''}
        </Text>
      </Group>
      <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
        {[r.condition, r.seller].filter(Boolean).join(' · ')}
        {r.link && (
          <>
            {r.condition || r.seller ? ' · ' : ''}
            <Anchor href={externalHref(r.link)} target="_blank" rel="noopener noreferrer" size="xs">
              Open listing
            </Anchor>
          </>
        )}
      </Text>
    </Stack>
  );
}

/** An answer that is no offer list (PalletIQ's evaluation) as "label: value" lines, not its raw JSON. */
function AnswerFields({ answer, fields, label }: { answer: Record<string, unknown>; fields?: readonly FieldDef[]; label: string }) {
  return (
    <Table fz="sm" verticalSpacing={2} aria-label={label} layout="fixed">
      <Table.Tbody>
        {readableFields(answer, fields).map((f) => {
          const leaf = { [f.key]: f.value };
          const money = offerMoney(f.key, leaf);
          const link = offerLink(f.key, leaf);
          return (
            <Table.Tr key={f.path}>
              <Table.Th w="40%" fw="var(--mantine-font-weight-medium)" title={f.path}>
                {f.label}
              </Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {money ? (
                  formatMoney(money.value, money.currency)
                ) : link ? (
                  <Anchor href={externalHref(link)} target="_blank" rel="noopener noreferrer" size="sm">
                    {link}
                  </Anchor>
                ) : (
                  readableValue(f.value)
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

export function OfferSummaryTable({
  offers,
  summaries: rows,
  label,
  fields,
}: {
  offers: Record<string, unknown>[];
  /** The offers summarised by the API; null when the answer is no offer list. */
  summaries: OfferSummary[] | null;
  label: string;
  /** The marketplace's field table: its labels name an answer's fields. */
  fields?: readonly FieldDef[];
}) {
  const [all, setAll] = useState(false);
  const phone = useMediaQuery(`(max-width: ${CARDS_BELOW})`, false, { getInitialValueInEffect: false });
  // Nothing to summarise (PalletIQ's evaluation): each answer's fields, labelled.
  if (!rows)
    return (
      <Stack gap="xs">
        {offers.map((o, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: answers have no id; their place is their identity
          <AnswerFields key={i} answer={o} fields={fields} label={offers.length === 1 ? label : `${label} ${i + 1}`} />
        ))}
      </Stack>
    );
  return (
    <Stack gap={4} align="flex-start">
      {phone ? <SummaryList rows={rows} label={label} /> : <SummaryTable rows={rows} label={label} />}
      <Button variant="subtle" size="compact-xs" onClick={() => setAll((v) => !v)} aria-expanded={all}>
        {all ? 'Hide details' : 'All details'}
      </Button>
      {all && <OffersTable offers={offers} label={`${label}, all details`} />}
    </Stack>
  );
}
