// What one book of the job cost the dealer: typed, or a pallet's cost spread over the job's books.
// The comparison's Estimated Profit subtracts it. The server divides a pallet's cost itself (over
// the same count of books shown here); a 422 shows beside the input.
import { costFromPallet } from '@app/domain/fees';
import { Button, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { readJobQueryKey } from '../../client/@tanstack/react-query.gen';
import { setJobCost } from '../../client/sdk.gen';
import type { JobPublic } from '../../client/types.gen';
import { fieldErrors } from '../../lib/errors';
import { jobBooks } from '../../lib/fees';
import { formatMoney } from '../../lib/format';
import { showApiError, showSuccess } from '../../lib/notify';
import { invalidateAll, jobPageKeys } from '../../lib/query-keys';

type Mode = 'cost_per_book' | 'pallet_cost';
const usd = (v: number) => formatMoney(v, 'USD');

/**
 * The typed amount as a number, or the reason it is not one. Dealers type money as they write it:
 * "$33", "33.50", "1,250" all read; a negative cost is refused here, before anything is sent.
 */
export function parseAmount(text: string): number | string {
  const plain = text
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  if (plain === '') return 'Enter an amount';
  const n = Number(plain);
  if (!Number.isFinite(n) || !/^-?\d*\.?\d*$/.test(plain)) return 'Enter a number, like 33 or $3.50';
  return n < 0 ? 'A cost cannot be negative' : n;
}

const booksText = (n: number) => `${n} ${n === 1 ? 'book' : 'books'}`;

/** A pallet's division as read: "Pallet $33.00 ÷ 11 books = $3.00". */
export const palletDivision = (pallet: number, books: number, perBook: number) =>
  `Pallet ${usd(pallet)} ÷ ${booksText(books)} = ${usd(perBook)}`;

/** Under the pallet's cost: the division as it will be saved ("Pallet $33.00 ÷ 11 books = $3.00 per book"). */
function palletNote(amount: number | string, perBook: number | null, books: number): string {
  if (typeof amount !== 'number' || perBook === null) return `Divided over the job’s ${booksText(books)}.`;
  return `${palletDivision(amount, books, perBook)} per book.`;
}

/** What the job's cost is now; a cost from a pallet shows its division, as saved (the job keeps the pallet's total). */
export function savedCostText(job: Pick<JobPublic, 'cost_per_book' | 'pallet_cost'>, books: number): string {
  if (job.cost_per_book === null) return 'Not set: Estimated Profit counts the books as free.';
  const perBook = job.pallet_cost === null ? usd(job.cost_per_book) : palletDivision(job.pallet_cost, books, job.cost_per_book);
  return `${perBook} per book, subtracted from every Estimated Profit.`;
}

export function JobCost({ job }: { job: JobPublic }) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>('cost_per_book');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const books = jobBooks(job);
  const amount = parseAmount(text);
  const perBook = typeof amount !== 'number' ? null : mode === 'pallet_cost' ? costFromPallet(amount, books) : amount;

  const mutation = useMutation({
    mutationFn: async (body: { cost_per_book: number | null } | { pallet_cost: number }) =>
      (await setJobCost({ path: { id: job.id }, body })).data,
    meta: { toastOnError: false },
    onSuccess: (saved) => {
      queryClient.setQueryData(readJobQueryKey({ path: { id: job.id } }), saved);
      showSuccess(saved.cost_per_book === null ? 'Cost per book cleared.' : `Cost per book saved: ${usd(saved.cost_per_book)}.`);
      setText('');
      setError(undefined);
    },
    onError: (err) => {
      const byField = fieldErrors(err);
      const msg = byField[mode] ?? byField.cost_per_book ?? byField.pallet_cost;
      if (msg) setError(msg);
      else showApiError(err);
    },
    // The comparison's profits changed.
    onSettled: () => invalidateAll(queryClient, jobPageKeys(job.id)),
  });

  const save = () => {
    if (typeof amount !== 'number') return setError(amount);
    mutation.mutate(mode === 'pallet_cost' ? { pallet_cost: amount } : { cost_per_book: amount });
  };
  const label = mode === 'pallet_cost' ? 'Pallet cost (USD)' : 'Cost per book (USD)';

  return (
    <Stack gap="sm" component="section" aria-labelledby="cost-title" maw={480}>
      <Title order={3} id="cost-title">
        Cost per book
      </Title>
      <Text size="sm" data-testid="job-cost">
        {savedCostText(job, books)}
      </Text>
      <SegmentedControl
        aria-label="Cost from"
        value={mode}
        onChange={(v) => {
          setMode(v as Mode);
          setError(undefined);
        }}
        data={[
          { value: 'cost_per_book', label: 'Per book' },
          { value: 'pallet_cost', label: 'Pallet cost' },
        ]}
      />
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <Stack gap="xs">
          <TextInput
            label={label}
            inputMode="decimal"
            value={text}
            error={error}
            onChange={(e) => {
              setText(e.currentTarget.value);
              setError(undefined);
            }}
            description={mode === 'pallet_cost' ? palletNote(amount, perBook, books) : undefined}
          />
          <Group>
            <Button type="submit" loading={mutation.isPending}>
              Save cost
            </Button>
            {job.cost_per_book !== null && (
              <Button variant="default" onClick={() => mutation.mutate({ cost_per_book: null })} disabled={mutation.isPending}>
                Clear cost
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
