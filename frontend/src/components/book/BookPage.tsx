// A book's own page (/books/$isbn): its title, author, publisher, year and cover from Open Library
// (else the title and author a marketplace gave), its ISBNs,
// each marketplace's latest answer with every offer, how fast it sells (velocity), its price and rank
// over time, your watches of it, the
// jobs that included it, and "Price it now". The address takes any form the normaliser reads and is replaced by the ISBN-13.
import { readOneIsbn } from '@app/domain/book';
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { Alert, Group, Image, List, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { Suspense, lazy, useEffect } from 'react';
import type { BookHistory, BookPublic } from '../../client/types.gen';
import { formatDateTime, formatMoney } from '../../lib/format';
import { BOOK_TEXT } from '../../lib/messages';
import { KEYBOARD_SCROLLABLE } from '../common/DataTable';
import { PageTitle } from '../common/PageTitle';
import { JobLink } from '../jobs/JobLink';
import { WatchesSection } from '../watches/WatchesSection';
import { MarketplaceAnswerCard } from './MarketplaceAnswerCard';
import { PriceNow } from './PriceNow';
import { useBook, useBookHistory } from './useBook';
import { VelocityCard } from './VelocityCard';

const PriceHistoryChart = lazy(async () => ({ default: (await import('./PriceHistoryChart')).PriceHistoryChart }));

export function BookPage({ isbn: typed }: { isbn: string }) {
  const read = readOneIsbn(typed);
  const navigate = useNavigate();
  const canonical = 'isbn' in read ? read.isbn : null;
  useEffect(() => {
    if (canonical && canonical !== typed) void navigate({ to: '/books/$isbn', params: { isbn: canonical }, replace: true });
  }, [canonical, typed, navigate]);
  if ('reason' in read) {
    return (
      <Stack gap="sm">
        <PageTitle>Not an ISBN</PageTitle>
        <Text>
          “{typed}”: {read.reason}
        </Text>
      </Stack>
    );
  }
  return <BookBody isbn={read.isbn} />;
}

function BookBody({ isbn }: { isbn: string }) {
  const book = useBook(isbn);
  const history = useBookHistory(isbn);
  const b = book.data;
  if (!b) return <Skeleton h={400} />;
  const answered = b.marketplaces.filter((m) => m.latest !== null);
  const unanswered = b.marketplaces.filter((m) => m.latest === null);
  return (
    <Stack gap="xl">
      <Group align="flex-start" gap="lg" wrap="nowrap">
        {b.details?.cover_url && (
          <Image src={b.details.cover_url} alt={`Cover of ${b.title ?? b.isbn}`} w={120} h="auto" radius="sm" fit="contain" />
        )}
        <Stack gap={4}>
          <PageTitle>{b.title ?? `ISBN ${b.isbn}`}</PageTitle>
          {b.author && <Text>by {b.author}</Text>}
          {b.details && (b.details.publisher || b.details.publish_year) && (
            <Text size="sm" data-testid="book-publication">
              {[b.details.publisher, b.details.publish_year].filter(Boolean).join(', ')}
            </Text>
          )}
          <Text size="sm" c="dimmed" data-testid="book-isbns">
            ISBN-13 {b.isbn}
            {b.isbn10 && ` · ISBN-10 ${b.isbn10}`}
          </Text>
          {b.details && (
            <Text size="xs" c="dimmed" data-testid="book-details-source">
              Book details from {b.details.source}, {formatDateTime(b.details.fetched_at)}
            </Text>
          )}
        </Stack>
      </Group>

      {answered.length === 0 && (
        <Alert color="blue" title={BOOK_TEXT.neverLookedUp}>
          Ask the marketplaces about it now: a job of this one book.
        </Alert>
      )}

      <Stack gap="sm" component="section" aria-labelledby="price-now-title">
        <Title order={3} id="price-now-title">
          {answered.length === 0 ? 'Price it now' : 'Price it again'}
        </Title>
        <PriceNow isbn={b.isbn} />
      </Stack>

      {/* Before the answers: on a phone, whether it sells comes before six cards of offers. */}
      <Stack gap="sm" component="section" aria-labelledby="velocity-title">
        <Title order={3} id="velocity-title">
          How fast it sells
        </Title>
        {history.data ? <VelocityCard velocity={history.data.velocity} keepa={history.data.keepa.stats} /> : <Skeleton h={160} />}
      </Stack>

      {answered.length > 0 && (
        <Stack gap="sm" component="section" aria-labelledby="answers-title">
          <Title order={3} id="answers-title">
            Latest answers
          </Title>
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            {answered.map((m) => m.latest && <MarketplaceAnswerCard key={m.marketplace} marketplace={m.marketplace} answer={m.latest} />)}
          </SimpleGrid>
          {unanswered.length > 0 && (
            <Text size="sm" c="dimmed">
              No answer yet from {unanswered.map((m) => MARKETPLACES[m.marketplace].label).join(', ')}.
            </Text>
          )}
        </Stack>
      )}

      <Stack gap="sm" component="section" aria-labelledby="history-title">
        <Title order={3} id="history-title">
          Price history
        </Title>
        {history.data ? <HistorySection history={history.data} /> : <Skeleton h={200} />}
      </Stack>

      <WatchesSection target={{ isbn: b.isbn }} />

      <JobsSection book={b} />
    </Stack>
  );
}

function HistorySection({ history }: { history: BookHistory }) {
  // Our looks per marketplace, then Keepa's points of Amazon's history (reaching back before our first look).
  const series = [
    ...history.series.map((s) => ({ key: s.marketplace as string, label: MARKETPLACES[s.marketplace].label, ...s })),
    { key: 'keepa', label: 'Amazon (Keepa)', ...history.keepa },
  ].filter((s) => s.points.length > 0);
  if (series.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No prices seen yet.
      </Text>
    );
  // The chart draws the selling marketplaces' prices (an advising one's value is no price to buy at)
  // and Amazon's rank; Keepa's points are Amazon's.
  const sells = (key: string) => key === 'keepa' || (key in MARKETPLACES && Boolean(MARKETPLACES[key as MarketplaceId].selling));
  const priced = series.some((s) => sells(s.key) && s.points.some((p) => p.price !== null || p.sales_rank !== null));
  const ranked = series.some((s) => s.points.some((p) => p.sales_rank !== null));
  return (
    <>
      {priced && (
        <figure
          style={{ margin: 0 }}
          aria-label={ranked ? 'Best price and sales rank over time' : 'Best price over time per marketplace'}
          data-testid="history-chart"
          data-ranked={ranked}
        >
          <Suspense fallback={<Skeleton h={260} />}>
            <PriceHistoryChart history={history} />
          </Suspense>
        </figure>
      )}
      <Table.ScrollContainer minWidth={360} scrollAreaProps={KEYBOARD_SCROLLABLE}>
        <Table withTableBorder fz="sm" aria-label="Price history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Marketplace</Table.Th>
              <Table.Th ta="right">Observations</Table.Th>
              <Table.Th ta="right">First price</Table.Th>
              <Table.Th ta="right">Latest price</Table.Th>
              {ranked && <Table.Th ta="right">Latest rank</Table.Th>}
              <Table.Th>Latest</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {series.map((s) => {
              const first = s.points[0];
              const last = s.points[s.points.length - 1];
              const money = (p: typeof first) => (p && p.price !== null ? formatMoney(p.price, p.currency ?? 'USD') : '—');
              const rank = [...s.points].reverse().find((p) => p.sales_rank !== null)?.sales_rank;
              return (
                <Table.Tr key={s.key} data-marketplace={s.key}>
                  <Table.Td>{s.label}</Table.Td>
                  <Table.Td ta="right">
                    {s.points.length}
                    {s.truncated && '+'}
                  </Table.Td>
                  <Table.Td ta="right">{money(first)}</Table.Td>
                  <Table.Td ta="right">{money(last)}</Table.Td>
                  {ranked && <Table.Td ta="right">{rank != null ? `#${rank.toLocaleString('en-US')}` : '—'}</Table.Td>}
                  <Table.Td>{last && formatDateTime(last.observed_at)}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}

function JobsSection({ book }: { book: BookPublic }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="book-jobs-title">
      <Title order={3} id="book-jobs-title">
        Jobs with this book
      </Title>
      {book.jobs.length === 0 ? (
        <Text size="sm" c="dimmed">
          None of your jobs included this book.
        </Text>
      ) : (
        <List spacing={4} size="sm" aria-label="Jobs with this book">
          {book.jobs.map((j) => (
            <List.Item key={j.id}>
              <JobLink id={j.id}>{j.name}</JobLink>{' '}
              <Text span size="sm" c="dimmed">
                · {formatDateTime(j.created_at)} · {j.marketplaces.map((m) => MARKETPLACES[m].label).join(', ')}
              </Text>
            </List.Item>
          ))}
        </List>
      )}
      {book.jobs_truncated && (
        <Text size="sm" c="dimmed">
          Only the {book.jobs.length} newest are listed.
        </Text>
      )}
    </Stack>
  );
}
