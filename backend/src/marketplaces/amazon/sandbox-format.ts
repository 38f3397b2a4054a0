// Amazon's Selling Partner API as the schemas declare it (not only as the official samples show it):
//  POST /auth/o2/token (Login with Amazon, form body) → {access_token, token_type, expires_in};
//  GET  /catalog/2022-04-01/items?identifiers=…&identifiersType=EAN|ISBN → ItemSearchResults, in pages
//       of pageSize (default 10, at most 20) with pagination.nextToken as the model declares;
//  POST /batches/products/pricing/v0/itemOffers → {responses:[{status, headers, body, request}]}.
// Money amounts are JSON numbers (MoneyType.Amount: number), sometimes whole, sometimes not; summary
// conditions come lowercase or capitalised, sub-conditions lowercase snake ("very_good", as real
// answers send them); optional keys (SellerFeedbackRating, IsBuyBoxWinner, PrimeInformation,
// ShipsFrom, salesRanks) are left out where a real answer could leave them out. Errors use the
// models' ErrorList; a wrong refresh token gets LWA's invalid_grant, a wrong access token 403, and
// "slow down" is QuotaExceeded. The sandbox's access token is the refresh token behind `Atza|`
// (stateless), so SANDBOX_API_KEY checks both. A book's ASIN is its ISBN-10 (979 ISBNs: B + 9 digits).
import { isbn10To13, isbn13To10 } from '@app/domain/isbn';
import type { Book, Listing } from '../../sandbox/catalog.ts';
import { hash32 } from '../../sandbox/random.ts';
import { json, withoutNulls, type BatchRequest, type RawRequest, type SimulatedFormat, type Stock } from '../../sandbox/formats/types.ts';
import { AMAZON_BATCH_SIZE, CATALOG_PATH, OFFERS_BATCH_PATH } from './client.ts';

const MARKETPLACE = 'ATVPDKIKX0DER';
const TOKEN_PREFIX = 'Atza|';
/** Amazon keeps at most this many offers in an answer (the model: "TotalOfferCount or 20, whichever is less"). */
const MAX_OFFERS = 20;

const errors = (code: string, message: string, status: number) => json({ errors: [{ code, message }] }, status);
const header = (h: RawRequest['headers'], name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

export function asinOf(isbn13: string): string {
  return isbn13To10(isbn13) ?? `B${isbn13.slice(3, 12)}`;
}

/** ASIN → ISBN-13 (the inverse of asinOf), undefined for an ASIN that is not one of our books. */
function isbnOfAsin(asin: string): string | undefined {
  if (/^\d{9}[\dX]$/.test(asin)) return isbn10To13(asin);
  if (!/^B\d{9}$/.test(asin)) return undefined;
  const body = `979${asin.slice(1)}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** Amazon's used sub-conditions for our condition names. */
const SUB_CONDITION: Record<string, string> = {
  New: 'new',
  'As New': 'mint',
  Fine: 'very_good',
  'Very Good': 'very_good',
  Good: 'good',
  Fair: 'acceptable',
  Poor: 'acceptable',
};

const round = (n: number) => Math.round(n * 100) / 100;
const money = (amount: number) => ({ CurrencyCode: 'USD', Amount: round(amount) });
/** "used" or "Used": the samples send lowercase, the schema's enum is capitalised. */
const cased = (word: string, isbn: string) => (hash32(isbn, word) % 2 ? word : word[0]?.toUpperCase() + word.slice(1));

function catalogItem(book: Book) {
  const rank = 1 + (hash32(book.isbn13, 'rank') % 3_000_000);
  const withRanks = hash32(book.isbn13, 'ranked') % 10 !== 0; // salesRanks is optional
  return {
    asin: asinOf(book.isbn13),
    identifiers: [
      {
        marketplaceId: MARKETPLACE,
        identifiers: [
          ...(book.isbn10 ? [{ identifierType: 'ISBN', identifier: book.isbn10 }] : []),
          { identifierType: 'EAN', identifier: book.isbn13 },
        ],
      },
    ],
    summaries: [
      {
        marketplaceId: MARKETPLACE,
        itemName: book.title,
        contributors: [{ role: { displayName: 'Author', value: 'author' }, value: book.author }],
        manufacturer: book.publisher,
        releaseDate: `${book.year}-01-01`,
      },
    ],
    ...(withRanks
      ? {
          salesRanks: [
            {
              marketplaceId: MARKETPLACE,
              classificationRanks: [{ classificationId: '17', title: 'Literature & Fiction', rank: Math.ceil(rank / 40) }],
              displayGroupRanks: [{ websiteDisplayGroup: 'book_display_on_website', title: 'Books', rank }],
            },
          ],
        }
      : {}),
  };
}

function offerDetail(l: Listing, i: number, isbn: string) {
  const fba = hash32(l.id, 'fba') % 3 === 0;
  const rated = hash32(l.id, 'rated') % 5 !== 0; // Amazon itself carries no feedback
  return {
    Shipping: money(fba ? 0 : l.shipping),
    ListingPrice: money(l.price),
    ShippingTime: { minimumHours: 24, maximumHours: 48, availabilityType: 'NOW' },
    ...(rated
      ? {
          SellerFeedbackRating: {
            SellerPositiveFeedbackRating: round(80 + l.seller.rating * 4),
            FeedbackCount: 10 + (hash32(l.seller.id) % 5000),
          },
        }
      : {}),
    ...(i % 2 ? {} : { ShipsFrom: { State: l.seller.state, Country: l.seller.country } }),
    ...(fba || i % 3 === 0 ? { PrimeInformation: { IsPrime: fba, IsNationalPrime: fba } } : {}),
    SubCondition: SUB_CONDITION[l.condition.name] ?? 'good',
    SellerId: `A${hash32(l.seller.id, isbn).toString(36).toUpperCase().padStart(12, '0')}`,
    IsFeaturedMerchant: fba,
    ...(i === 0 ? { IsBuyBoxWinner: true } : i % 2 ? {} : { IsBuyBoxWinner: false }),
    IsFulfilledByAmazon: fba,
  };
}

const landedOf = (o: { ListingPrice: { Amount: number }; Shipping: { Amount: number } }) =>
  round(o.ListingPrice.Amount + o.Shipping.Amount);

function priceEntry(
  condition: string,
  o: { ListingPrice: { Amount: number }; Shipping: { Amount: number }; IsFulfilledByAmazon: boolean },
) {
  return {
    condition,
    fulfillmentChannel: o.IsFulfilledByAmazon ? 'Amazon' : 'Merchant',
    LandedPrice: money(landedOf(o)),
    ListingPrice: o.ListingPrice,
    Shipping: o.Shipping,
  };
}

/** One getItemOffers response of the batch: Used offers, with a summary over used and new. */
function offersResponse(asin: string, isbn: string, stock: Stock) {
  const request = { MarketplaceId: MARKETPLACE, Asin: asin, CustomerType: 'Consumer', ItemCondition: 'Used' };
  const headers = { 'x-amzn-RequestId': `sandbox-${hash32(asin, isbn).toString(16)}`, Date: new Date().toUTCString() };
  if (!stock || stock.refused) {
    return {
      status: { statusCode: 400, reasonPhrase: 'Bad Request' },
      body: { errors: [{ code: 'InvalidInput', message: 'Invalid Input' }] },
      headers,
      request,
    };
  }
  const used = stock.listings.filter((l) => l.condition.name !== 'New');
  const fresh = stock.listings.filter((l) => l.condition.name === 'New');
  const offers = used.map((l, i) => offerDetail(l, i, isbn)).sort((a, b) => landedOf(a) - landedOf(b));
  const newOffers = fresh.map((l, i) => offerDetail(l, i, isbn)).sort((a, b) => landedOf(a) - landedOf(b));
  const first = offers[0];
  const firstNew = newOffers[0];
  const usedWord = cased('used', isbn);
  const newWord = cased('new', isbn);
  const summary = {
    TotalOfferCount: used.length + fresh.length,
    ...(used.length + fresh.length
      ? {
          NumberOfOffers: [
            ...(used.length ? [{ condition: usedWord, fulfillmentChannel: 'Merchant', OfferCount: used.length }] : []),
            // OfferCount is optional: the samples leave it out now and then.
            ...(fresh.length
              ? [{ condition: newWord, fulfillmentChannel: 'Merchant', ...(hash32(isbn) % 4 ? { OfferCount: fresh.length } : {}) }]
              : []),
          ],
          LowestPrices: [...(first ? [priceEntry(usedWord, first)] : []), ...(firstNew ? [priceEntry(newWord, firstNew)] : [])],
          ...(first ? { BuyBoxPrices: [{ ...priceEntry(usedWord, first), sellerId: first.SellerId }] } : {}),
          ...(hash32(isbn, 'list') % 2 ? { ListPrice: money(stock.book.basePrice * 1.8) } : {}),
        }
      : {}),
  };
  return {
    status: { statusCode: 200, reasonPhrase: 'OK' },
    body: {
      payload: {
        ASIN: asin,
        status: offers.length ? 'Success' : 'NoBuyableOffers',
        ItemCondition: 'Used',
        Identifier: { MarketplaceId: MARKETPLACE, ItemCondition: 'Used', ASIN: asin },
        Summary: summary,
        Offers: offers.slice(0, MAX_OFFERS),
        marketplaceId: MARKETPLACE,
      },
    },
    headers,
    request,
  };
}

/** The sandbox's page tokens are opaque to the client and stateless here: the offset, encoded. */
const pageToken = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function pageOffset(token: string | null): number | undefined {
  if (token === null) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

function tokenReply(body: string): BatchRequest {
  const form = new URLSearchParams(body);
  if (form.get('grant_type') !== 'refresh_token' || !form.get('client_id') || !form.get('client_secret')) {
    return { reply: json({ error: 'invalid_request', error_description: 'The request is missing a required parameter' }, 400) };
  }
  // The sandbox cannot know the key here without SANDBOX_API_KEY; the API calls check the token.
  return { reply: json({ access_token: `${TOKEN_PREFIX}${form.get('refresh_token') ?? ''}`, token_type: 'bearer', expires_in: 3600 }) };
}

const keyOf = (r: RawRequest) => header(r.headers, 'x-amz-access-token')?.replace(TOKEN_PREFIX, '');

export const amazonSim: SimulatedFormat = {
  readBatch(r) {
    if (r.method === 'POST' && r.path === '/auth/o2/token') return tokenReply(r.body);
    if (r.method === 'GET' && r.path === CATALOG_PATH) {
      const isbns = (r.query.get('identifiers') ?? '').split(',').filter(Boolean);
      const pageSize = Number(r.query.get('pageSize') ?? 10);
      const offset = pageOffset(r.query.get('pageToken'));
      if (
        !['EAN', 'ISBN'].includes(r.query.get('identifiersType') ?? '') ||
        !r.query.get('marketplaceIds') ||
        isbns.length === 0 ||
        isbns.length > AMAZON_BATCH_SIZE ||
        !Number.isInteger(pageSize) ||
        pageSize < 1 ||
        pageSize > 20 ||
        offset === undefined
      ) {
        return { reply: errors('400', 'Request has missing or invalid parameters and cannot be parsed.', 400) };
      }
      return {
        isbns,
        key: keyOf(r),
        // A later page belongs to the attempt its first page counted.
        counts: offset === 0,
        // What is not an ISBN is not in Amazon's catalog; a refused ISBN is, and its offers request fails.
        answer(stock) {
          const items = isbns.flatMap((isbn) => {
            const s = stock.get(isbn);
            return s ? [catalogItem(s.book)] : [];
          });
          const page = items.slice(offset, offset + pageSize);
          const more = offset + pageSize < items.length;
          const pagination = withoutNulls({
            nextToken: more ? pageToken(offset + pageSize) : null,
            previousToken: offset > 0 ? pageToken(Math.max(0, offset - pageSize)) : null,
          });
          return json({ numberOfResults: items.length, ...(Object.keys(pagination).length ? { pagination } : {}), items: page });
        },
      };
    }
    if (r.method === 'POST' && r.path === OFFERS_BATCH_PATH) {
      let requests: { uri?: string; MarketplaceId?: string; ItemCondition?: string }[];
      try {
        requests = (JSON.parse(r.body) as { requests: typeof requests }).requests;
      } catch {
        return { reply: errors('InvalidInput', 'Invalid Input', 400) };
      }
      if (!Array.isArray(requests) || requests.length === 0 || requests.length > 20)
        return { reply: errors('InvalidInput', 'Invalid Input', 400) };
      const asins = requests.map((q) => /^\/products\/pricing\/v0\/items\/([^/]+)\/offers$/.exec(q.uri ?? '')?.[1] ?? '');
      const isbns = asins.map((a) => isbnOfAsin(decodeURIComponent(a)) ?? a);
      return {
        isbns,
        key: keyOf(r),
        counts: false, // the catalog search counted this attempt
        answer: (stock) =>
          json({ responses: asins.map((asin, i) => offersResponse(asin, isbns[i] ?? '', stock.get(isbns[i] ?? '') ?? null)) }),
      };
    }
    return null;
  },
  read: () => null,
  // Never used for Amazon (every request is read by readBatch); kept in Amazon's shapes all the same.
  offers: (book, listings) => json({ responses: [offersResponse(asinOf(book.isbn13), book.isbn13, { book, listings })] }),
  invalidIsbn: () => errors('400', 'Request has missing or invalid parameters and cannot be parsed.', 400),
  badKey: () => errors('Unauthorized', 'Access to requested resource is denied.', 403),
  rateLimited: () => errors('QuotaExceeded', 'You exceeded your quota for the requested resource.', 429),
};
