// Every offer of one answer as a table (the offers drawer, a book's page): one column per key any
// offer has, price, shipping, condition and seller first; money with its currency; links open the
// listing. With the lookup row, the offer the row was taken from is marked.
import { Anchor, Badge, Table, VisuallyHidden } from '@mantine/core';
import { formatMoney } from '../../lib/format';
import { externalHref } from '../../lib/links';
import { chosenOfferIndex, offerCellText, offerHeader, offerKeys, offerLink, offerMoney } from '../../lib/offers';
import { KEYBOARD_SCROLLABLE } from '../common/DataTable';
import { OrNA } from '../common/EmptyValue';

function OfferValue({ name, offer }: { name: string; offer: Record<string, unknown> }) {
  const money = offerMoney(name, offer);
  if (money) return <>{formatMoney(money.value, money.currency)}</>;
  const link = offerLink(name, offer);
  if (link)
    return (
      <Anchor
        href={externalHref(link)}
        target="_blank"
        rel="noopener noreferrer"
        size="xs"
        title={link}
        truncate="end"
        maw={200}
        display="block"
      >
        {link}
      </Anchor>
    );
  return <>{offerCellText(offer[name])}</>;
}

export function OffersTable({
  offers,
  row,
  label = 'Offers',
}: {
  offers: Record<string, unknown>[];
  /** The lookup row the offers came with: its offer is marked "Chosen". */
  row?: Record<string, unknown>;
  label?: string;
}) {
  const keys = offerKeys(offers);
  const chosen = chosenOfferIndex(offers, row);
  const marked = row !== undefined;
  return (
    <Table.ScrollContainer minWidth={400} scrollAreaProps={KEYBOARD_SCROLLABLE}>
      <Table striped withTableBorder fz="xs" verticalSpacing={4} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {marked && (
              <Table.Th>
                <VisuallyHidden>Chosen</VisuallyHidden>
              </Table.Th>
            )}
            {keys.map((k) => (
              <Table.Th key={k} title={k} style={{ whiteSpace: 'nowrap' }}>
                {offerHeader(k)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {offers.map((o, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: offers have no id; their place in the marketplace's answer is their identity
            <Table.Tr key={i} data-chosen={i === chosen || undefined} bg={i === chosen ? 'var(--mantine-color-green-light)' : undefined}>
              {marked && (
                <Table.Td>
                  {i === chosen && (
                    // Never clipped: the column has no visible header to give it width.
                    <Badge
                      size="xs"
                      color="green"
                      variant="dot"
                      tt="none"
                      styles={{ root: { overflow: 'visible', maxWidth: 'none' }, label: { overflow: 'visible', textOverflow: 'clip' } }}
                    >
                      Chosen
                    </Badge>
                  )}
                </Table.Td>
              )}
              {keys.map((k) => {
                const money = offerMoney(k, o) !== null;
                return (
                  <Table.Td key={k} ta={money ? 'right' : undefined} style={money ? { whiteSpace: 'nowrap' } : undefined}>
                    <OrNA value={o[k]}>
                      <OfferValue name={k} offer={o} />
                    </OrNA>
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
