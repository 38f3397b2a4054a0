// eBay Buy Browse as the sandbox speaks it, following the contract (buy_browse v1.20.4) rather than
// only the two captures: money as strings ("12.50"), feedbackPercentage a string and feedbackScore an
// integer, optional fields left out (no itemSummaries when nothing matches, no shippingCost on some
// CALCULATED shipping, no feedbackPercentage for some sellers), errors in eBay's envelope
// `{errors:[{errorId, domain, category, message, longMessage, parameters}]}`, and the OAuth token
// endpoint (client-credentials grant) whose token the search must carry.
import { hash32 } from '../../sandbox/random.ts';
import { json, money, withoutNulls, type SandboxReply, type SimulatedCall, type SimulatedFormat } from '../../sandbox/formats/types.ts';
import type { Listing } from '../../sandbox/catalog.ts';
import { EBAY_SCOPE, TOKEN_PATH } from './token.ts';
import { SEARCH_PATH } from './client.ts';

/** Sandbox tokens carry the client id they were issued to, so a search can be checked against SANDBOX_API_KEY. */
const TOKEN_PREFIX = 'v^1.1#i^1#sandbox#';
const LIMIT = 50;

/**
 * Book conditions as eBay names them, by our catalog's grade. eBay's book condition ids (1000 Brand
 * New, 2750 Like New, 4000 Very Good, 5000 Good, 6000 Acceptable) are an assumption: the contract
 * only points to its condition table.
 */
const CONDITION: Record<string, [string, string]> = {
  New: ['Brand New', '1000'],
  'As New': ['Like New', '2750'],
  Fine: ['Like New', '2750'],
  'Very Good': ['Very Good', '4000'],
  Good: ['Good', '5000'],
  Fair: ['Acceptable', '6000'],
  Poor: ['Acceptable', '6000'],
};

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const error = (status: number, errorId: number, domain: string, category: string, message: string, longMessage = message) =>
  json({ errors: [{ errorId, domain, category, message, longMessage }] }, status);

/** OAuth errors are RFC 6749's `{error, error_description}`, not eBay's envelope. */
const oauthError = (status: number, code: string, description: string): SandboxReply =>
  json({ error: code, error_description: description }, status);

function token(call: SimulatedCall, apiKey: string | undefined): SandboxReply {
  if (call.method !== 'POST') return oauthError(405, 'invalid_request', 'the token endpoint takes POST');
  const form = new URLSearchParams(call.body);
  if (form.get('grant_type') !== 'client_credentials')
    return oauthError(400, 'unsupported_grant_type', 'grant type in request is not supported by the authorization server');
  const scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
  if (!scopes.includes(EBAY_SCOPE))
    return oauthError(
      400,
      'invalid_scope',
      'the requested scope is invalid, unknown, malformed, or exceeds the scope granted to the client',
    );
  const basic = /^Basic\s+(.+)$/i.exec(header(call.headers.authorization) ?? '')?.[1];
  const [clientId = '', secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
  if (!clientId || secret === undefined || (apiKey !== undefined && clientId !== apiKey))
    return oauthError(401, 'invalid_client', 'client authentication failed');
  return json({
    access_token: `${TOKEN_PREFIX}${Buffer.from(clientId).toString('base64url')}`,
    expires_in: 7200,
    token_type: 'Application Access Token',
  });
}

function clientOfToken(authorization: string | undefined): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1];
  if (!bearer?.startsWith(TOKEN_PREFIX)) return undefined;
  return Buffer.from(bearer.slice(TOKEN_PREFIX.length), 'base64url').toString('utf8');
}

function summary(isbn13: string, title: string, l: Listing, i: number, located: boolean) {
  const legacy = String(100_000_000_000 + (hash32('ebay', isbn13, i) % 900_000_000_000));
  const [condition, conditionId] = CONDITION[l.condition.name] ?? ['Good', '5000'];
  // About one listing in five ships CALCULATED; half of those give no cost without a delivery location
  // (X-EBAY-C-ENDUSERCTX contextualLocation), every one a cost with it.
  const calculated = hash32('ebay-ship', l.id) % 5 === 0;
  const costless = calculated && !located && hash32('ebay-costless', l.id) % 2 === 0;
  const shipping = withoutNulls({
    shippingCostType: calculated ? 'CALCULATED' : 'FIXED',
    shippingCost: costless ? null : { value: money(l.shipping), currency: 'USD' },
  });
  const newSeller = hash32('ebay-new-seller', l.seller.id) % 7 === 0;
  return withoutNulls({
    itemId: `v1|${legacy}|0`,
    title: `${title} ${l.binding} ${condition}`.slice(0, 80),
    image: { imageUrl: `https://i.ebayimg.example/sandbox/${legacy}/s-l225.jpg` },
    price: { value: money(l.price), currency: 'USD' },
    itemHref: `https://api.ebay.com/buy/browse/v1/item/v1%7C${legacy}%7C0`,
    seller: withoutNulls({
      username: l.seller.name.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
      feedbackPercentage: newSeller ? null : (95 + l.seller.rating).toFixed(1),
      feedbackScore: 40 * l.seller.rating + (hash32(l.seller.id) % 900),
    }),
    condition,
    conditionId,
    shippingOptions: [shipping],
    buyingOptions: hash32('ebay-offer', l.id) % 3 === 0 ? ['FIXED_PRICE', 'BEST_OFFER'] : ['FIXED_PRICE'],
    itemWebUrl: `https://www.ebay.com/itm/${legacy}`,
    itemLocation: {
      postalCode: `${String(10_000 + (hash32(l.seller.id) % 89_999)).slice(0, 3)}**`,
      country: l.seller.country3.slice(0, 2),
    },
    legacyItemId: legacy,
    itemCreationDate: new Date(Date.UTC(2024, 0, 1) + (hash32('ebay-created', l.id) % 600) * 86_400_000).toISOString(),
    listingMarketplaceId: 'EBAY_US',
  });
}

export const ebaySim: SimulatedFormat = {
  endpoint: (call, apiKey) => (call.path === TOKEN_PATH ? token(call, apiKey) : null),
  read: (path, query, headers) =>
    path === SEARCH_PATH
      ? {
          isbn: query.get('gtin') ?? '',
          key: clientOfToken(header(headers.authorization)),
          deliveryLocation: /contextualLocation=country%3D[A-Z]{2}/.test(header(headers['x-ebay-c-enduserctx']) ?? ''),
        }
      : null,
  offers(book, listings, request) {
    const href = `https://api.ebay.com${SEARCH_PATH}?gtin=${book.isbn13}&limit=${LIMIT}&offset=0`;
    // Nothing matched: the envelope without itemSummaries.
    if (listings.length === 0) return json({ href, total: 0, limit: LIMIT, offset: 0 });
    // sort=price: price + shipping ascending (a costless CALCULATED option counts as its price).
    const items = listings.map((l, i) => summary(book.isbn13, book.title, l, i, request?.deliveryLocation === true));
    const total = (s: ReturnType<typeof summary>) => Number(s.price?.value) + Number(s.shippingOptions?.[0]?.shippingCost?.value ?? 0);
    items.sort((a, b) => total(a) - total(b));
    return json({ href, total: items.length, limit: LIMIT, offset: 0, itemSummaries: items });
  },
  // The contract lists 12022 ("The 'gtin' value … is invalid") under HTTP 200: a warning, no items.
  invalidIsbn: (value) =>
    json({
      href: `https://api.ebay.com${SEARCH_PATH}?gtin=${encodeURIComponent(value)}&limit=${LIMIT}&offset=0`,
      total: 0,
      limit: LIMIT,
      offset: 0,
      warnings: [
        {
          errorId: 12022,
          domain: 'API_BROWSE',
          category: 'REQUEST',
          message: `The 'gtin' value ${value} is invalid. For information, see the API call reference documentation.`,
          parameters: [{ name: 'gtin', value }],
        },
      ],
    }),
  badKey: () =>
    error(
      401,
      1001,
      'OAuth',
      'REQUEST',
      'Invalid access token',
      'Invalid access token. Check the value of the Authorization HTTP request header.',
    ),
  rateLimited: (seconds) => ({
    ...error(429, 2001, 'ACCESS', 'REQUEST', 'Too many requests.', 'The request limit has been reached for the resource.'),
    headers: { 'retry-after': String(seconds) },
  }),
};
