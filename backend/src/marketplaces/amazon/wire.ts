// Reading Amazon's two answers as the models declare them: searchCatalogItems' ItemSearchResults
// (ISBN → catalog item) and getItemOffersBatch's responses (one per ASIN, each with its own status
// inside the HTTP 200). A required key missing or of the wrong type is a malformed answer: for the
// catalog the whole batch, for one offers response only that book.
import { isbn10To13, isValidIsbn10 } from '@app/domain/isbn';
import { messageText, toNumber } from '../field-mapping.ts';
import { MalformedResponseError, parseJsonObject } from '../http.ts';
import type { LookupOutcome } from '../types.ts';
import {
  BOOK_DISPLAY_GROUP,
  amazonMapping,
  bookRank,
  landed,
  offerRow,
  sameWord,
  type CatalogItem,
  type Money,
  type OfferDetail,
  type OffersPayload,
} from './mapping.ts';

/** `{"errors":[{code, message, details?}]}`, the ErrorList every Amazon model uses; '' when absent. */
export function errorsText(doc: Record<string, unknown> | undefined): string {
  const errors = doc?.errors;
  if (!Array.isArray(errors)) return '';
  return errors
    .map((e: { code?: unknown; message?: unknown }) => [messageText(e?.code), messageText(e?.message)].filter(Boolean).join(': '))
    .filter(Boolean)
    .join('; ');
}

/** True when the error list names QuotaExceeded (Amazon's 429 body). */
export const isQuotaExceeded = (doc: Record<string, unknown> | undefined) =>
  Array.isArray(doc?.errors) && doc.errors.some((e: { code?: unknown }) => e?.code === 'QuotaExceeded');

/** The ISBN-13 an identifier value stands for (ISBN-10, EAN-13, GTIN-14 with a leading 0), else null. */
export function asIsbn13(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.replace(/[\s-]/g, '').toUpperCase();
  if (/^\d{9}[\dX]$/.test(v) && isValidIsbn10(v)) return isbn10To13(v);
  if (/^97[89]\d{10}$/.test(v)) return v;
  if (/^097[89]\d{10}$/.test(v)) return v.slice(1);
  return null;
}

/** ItemSearchResults' required keys, read. */
function catalogPage(body: string): { items: CatalogItem[]; pagination?: unknown } {
  const doc = parseJsonObject(body);
  if (!Array.isArray(doc.items) || typeof doc.numberOfResults !== 'number') throw new MalformedResponseError('no items or numberOfResults');
  return { items: doc.items as CatalogItem[], pagination: doc.pagination };
}

/** The page after this one (pagination.nextToken, absent on the last page), or undefined. */
export function nextPageToken(body: string): string | undefined {
  const { pagination } = catalogPage(body);
  const token = (pagination as { nextToken?: unknown } | undefined)?.nextToken;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/**
 * ItemSearchResults, every page of one search → per asked ISBN its catalog item (undefined: Amazon's
 * catalog has none). An ISBN may match several items (other bindings, Kindle), on any page; the one
 * ranked in the books display group wins.
 */
export function readCatalog(pages: string | readonly string[], isbns: readonly string[]): Map<string, CatalogItem | undefined> {
  const found = new Map<string, CatalogItem[]>();
  for (const item of (typeof pages === 'string' ? [pages] : pages).flatMap((body) => catalogPage(body).items)) {
    if (typeof item !== 'object' || item === null || typeof item.asin !== 'string')
      throw new MalformedResponseError('an item without asin');
    const values = (item.identifiers ?? []).flatMap((g) => g.identifiers ?? []).map((i) => asIsbn13(i.identifier));
    // Without identifiers (not asked for, or none kept), a book's ASIN is commonly its ISBN-10 (INFERRED).
    for (const isbn of new Set([...values, asIsbn13(item.asin)])) {
      if (isbn && isbns.includes(isbn)) found.set(isbn, [...(found.get(isbn) ?? []), item]);
    }
  }
  const isBook = (i: CatalogItem) => bookRank(i.salesRanks)?.websiteDisplayGroup === BOOK_DISPLAY_GROUP;
  return new Map(isbns.map((isbn) => [isbn, found.get(isbn)?.find(isBook) ?? found.get(isbn)?.[0]]));
}

const isMoney = (m: unknown): m is Money =>
  typeof m === 'object' && m !== null && toNumber((m as Money).Amount) !== null && typeof (m as Money).CurrencyCode === 'string';

/** GetOffersResult as the schema requires it; throws MalformedResponseError naming what is wrong. */
export function checkOffersPayload(payload: unknown): OffersPayload {
  if (typeof payload !== 'object' || payload === null) throw new MalformedResponseError('no payload');
  const p = payload as Partial<OffersPayload>;
  if (typeof p.status !== 'string' || typeof p.ItemCondition !== 'string')
    throw new MalformedResponseError('payload without status or ItemCondition');
  if (typeof p.Summary !== 'object' || p.Summary === null || typeof p.Summary.TotalOfferCount !== 'number')
    throw new MalformedResponseError('no Summary.TotalOfferCount');
  if (!Array.isArray(p.Offers)) throw new MalformedResponseError('no Offers');
  p.Offers.forEach((o: OfferDetail, i) => {
    if (
      !isMoney(o?.ListingPrice) ||
      !isMoney(o.Shipping) ||
      typeof o.SubCondition !== 'string' ||
      typeof o.IsFulfilledByAmazon !== 'boolean'
    )
      throw new MalformedResponseError(`offer ${i} lacks ListingPrice, Shipping, SubCondition or IsFulfilledByAmazon`);
  });
  return p as OffersPayload;
}

/** A book Amazon's catalog knows, with its answer to the Used offers request. */
export function bookOutcome(item: CatalogItem, payload: OffersPayload): LookupOutcome {
  const offers = [...payload.Offers].sort((a, b) => (landed(a) ?? Infinity) - (landed(b) ?? Infinity));
  const chosen = offers[0];
  const record = amazonMapping.apply({ item, payload, chosen });
  if (!chosen) {
    const reason = sameWord(payload.status, 'success') ? undefined : `Amazon: ${payload.status}`;
    return { kind: 'no_offers', offers: [], record, ...(reason ? { reason } : {}) };
  }
  return { kind: 'completed', record, offers: offers.map((o) => offerRow(o, payload.ItemCondition, item.asin)) };
}

/** A book the catalog knows but whose offers request failed in a way that leaves no offers to show. */
export function catalogOnly(item: CatalogItem, reason: string): LookupOutcome {
  return { kind: 'no_offers', offers: [], record: amazonMapping.apply({ item }), reason };
}

/** The offers batch's `responses`, by ASIN (each response echoes its request's Asin). */
export function readOffersBatch(body: string): Map<string, { status: number; body: Record<string, unknown> | undefined }> {
  const doc = parseJsonObject(body);
  if (!Array.isArray(doc.responses)) throw new MalformedResponseError('no responses');
  const byAsin = new Map<string, { status: number; body: Record<string, unknown> | undefined }>();
  for (const r of doc.responses as { status?: { statusCode?: unknown }; body?: unknown; request?: { Asin?: unknown } }[]) {
    const asin = r?.request?.Asin ?? (r?.body as { payload?: { ASIN?: unknown } } | undefined)?.payload?.ASIN;
    const status = toNumber(r?.status?.statusCode);
    if (typeof asin !== 'string' || status === null) continue; // unattributable: its book is answered as missing
    byAsin.set(asin, { status, body: typeof r.body === 'object' && r.body !== null ? (r.body as Record<string, unknown>) : undefined });
  }
  return byAsin;
}
