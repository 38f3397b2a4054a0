import type { Book, Listing } from '../catalog.ts';

export interface SandboxReply {
  status: number;
  contentType: string;
  body: string;
}

/** One marketplace's wire format as the sandbox speaks it (marketplaces.md). */
export interface SimulatedFormat {
  /** Request path below the marketplace's slug. */
  path: string;
  /** Query parameter carrying the ISBN. */
  isbnParam: string;
  offers(book: Book, listings: Listing[]): SandboxReply;
  /** The marketplace's own error body for an ISBN it cannot read. */
  invalidIsbn(value: string): SandboxReply;
}

export const json = (body: unknown, status = 200): SandboxReply => ({
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});

export const money = (n: number) => n.toFixed(2);
