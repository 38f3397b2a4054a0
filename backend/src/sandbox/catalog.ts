// The sandbox's imaginary stock: a book and its listings, derived from the ISBN alone, so every
// marketplace and every run agrees on what an ISBN "has".
import { isValidIsbn13, isbn13To10 } from '@app/domain/isbn';
import type { MarketplaceId } from '@app/domain/marketplaces';
import { hash32, prng, unit } from './random.ts';

export interface CatalogOptions {
  /** Share of ISBNs (0..1) no marketplace has an offer for. */
  noOfferShare: number;
  /** An ISBN with offers has 1..maxOffers of them per marketplace. */
  maxOffers: number;
  seed: number;
}

export interface Book {
  isbn13: string;
  isbn10: string | null;
  title: string;
  author: string;
  publisher: string;
  year: number;
  /** What a typical copy sells for; listings scatter around it. */
  basePrice: number;
}

/** Conditions from best to worst; `code` is the 6..1 scale Alibris and Biblio use. */
export const CONDITIONS = [
  { name: 'New', code: 6 },
  { name: 'As New', code: 5 },
  { name: 'Fine', code: 5 },
  { name: 'Very Good', code: 4 },
  { name: 'Good', code: 3 },
  { name: 'Fair', code: 2 },
  { name: 'Poor', code: 1 },
] as const;

export interface Seller {
  id: string;
  name: string;
  city: string;
  state: string;
  country: string;
  /** ISO-3 country, as Alibris and AbeBooks locations use. */
  country3: string;
  rating: number;
}

export interface Listing {
  id: string;
  price: number;
  shipping: number;
  quantity: number;
  condition: (typeof CONDITIONS)[number];
  seller: Seller;
  binding: 'Hardcover' | 'Softcover';
  firstEdition: boolean;
  signed: boolean;
}

const ADJECTIVES = ['Silent', 'Hidden', 'Last', 'Golden', 'Broken', 'Northern', 'Secret', 'Quiet', 'Wild', 'Distant'];
const NOUNS = ['Garden', 'River', 'Empire', 'Letters', 'Harbour', 'Orchard', 'Machine', 'Atlas', 'Winter', 'Lighthouse'];
const FIRST = ['Ada', 'James', 'Mira', 'Tomas', 'Elena', 'Kofi', 'Ingrid', 'Ravi', 'Lucia', 'Owen'];
const LAST = ['Hart', 'Okafor', 'Lindqvist', 'Moreau', 'Patel', 'Quinn', 'Sato', 'Vargas', 'Whitfield', 'Novak'];
const PUBLISHERS = ['Penguin', 'Vintage', 'Dover Publications', 'Little, Brown', 'Prentice Hall', 'Faber & Faber', 'Knopf'];
const SELLERS: Seller[] = (
  [
    ['1460329', 'Example Books Ltd', 'Leeds', 'WY', 'United Kingdom', 'GBR'],
    ['0072211', 'Second Chapter Books', 'Austin', 'TX', 'United States', 'USA'],
    ['88001', 'Dusty Shelf', 'Portland', 'OR', 'United States', 'USA'],
    ['55120', 'Bookhaus', 'Hamburg', 'HH', 'Germany', 'DEU'],
    ['31007', 'Pico Books', 'Los Angeles', 'CA', 'United States', 'USA'],
    ['90412', "Reader's Attic", 'Toronto', 'ON', 'Canada', 'CAN'],
    ['77345', 'Librairie Générale du Quai', 'Lyon', 'ARA', 'France', 'FRA'],
    ['66001', 'Harbour Lights Books', 'Hobart', 'TAS', 'Australia', 'AUS'],
  ] as const
).map(([id, name, city, state, country, country3], i) => ({ id, name, city, state, country, country3, rating: 1 + (i % 5) }));

export function bookFor(isbn: string, seed: number): Book {
  const rng = prng(hash32(seed, 'book', isbn));
  return {
    isbn13: isbn,
    isbn10: isValidIsbn13(isbn) ? isbn13To10(isbn) : null,
    title: `The ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`,
    author: `${rng.pick(LAST)}, ${rng.pick(FIRST)}`,
    publisher: rng.pick(PUBLISHERS),
    year: rng.int(1950, 2024),
    basePrice: rng.int(300, 6000) / 100,
  };
}

/** Whether this ISBN has offers at all: fixed per ISBN, the same on every marketplace. */
export function hasOffers(isbn: string, opts: CatalogOptions): boolean {
  return unit(opts.seed, 'offers', isbn) >= opts.noOfferShare;
}

export function listingsFor(marketplace: MarketplaceId, book: Book, opts: CatalogOptions): Listing[] {
  if (!hasOffers(book.isbn13, opts)) return [];
  const rng = prng(hash32(opts.seed, 'listings', marketplace, book.isbn13));
  const count = rng.int(1, Math.max(1, opts.maxOffers));
  return Array.from({ length: count }, (_, i) => ({
    id: String(30_000_000_000 + (hash32(marketplace, book.isbn13, i) % 1_000_000_000)),
    // Scatter 0.5×–2× around the book's price, priced like shops do (.00, .50, .99).
    price: Math.floor(book.basePrice * (0.5 + rng.next() * 1.5)) + rng.pick([0, 0.5, 0.99]),
    shipping: rng.pick([0, 3.5, 3.99, 4, 6.5]),
    quantity: rng.int(1, 4),
    condition: rng.pick(CONDITIONS),
    seller: rng.pick(SELLERS),
    binding: rng.chance(0.4) ? 'Hardcover' : 'Softcover',
    firstEdition: rng.chance(0.1),
    signed: rng.chance(0.05),
  }));
}

/**
 * With price drift on (SANDBOX_PRICE_DRIFT), the n-th request for an ISBN on a marketplace sees every
 * listing at the n-th of these shares of its price, in turn (1st as is, 2nd 20 % cheaper, …), so a
 * re-priced job shows a change since the previous look, the same in every run.
 */
export const DRIFT_FACTORS = [1, 0.8, 1.1, 0.9, 1.25] as const;

export function driftedListings(listings: Listing[], requestNumber: number): Listing[] {
  const factor = DRIFT_FACTORS[(Math.max(1, requestNumber) - 1) % DRIFT_FACTORS.length] ?? 1;
  return listings.map((l) => ({ ...l, price: Math.round(l.price * factor * 100) / 100 }));
}
