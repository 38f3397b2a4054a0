// A marketplace's error as what it means for the books: "2 books with no used offers on Amazon",
// not "Amazon: NoBuyableOffers ×2". The messages are the lookups' last_error texts (the worker's and
// the marketplace adapters' own words); a message not known here still reads as a sentence, with
// its text quoted.

/** "1 book" / "2 books". */
export const booksText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'book' : 'books'}`;

/** The adapters' messages, by kind: each says what happened to the books, with the marketplace's name. */
const KINDS: { match: RegExp; say: (books: string, m: string) => string }[] = [
  { match: /^Amazon: NoBuyableOffers\b/i, say: (b) => `${b} with no used offers on Amazon` },
  { match: /^Amazon's catalog has no item\b/i, say: (b) => `${b} not in Amazon's catalog` },
  { match: /^Amazon has no offers for ASIN\b/i, say: (b) => `${b} with no offers on Amazon` },
  { match: /daily (call limit|request quota)/i, say: (b, m) => `${b} waiting for ${m}'s daily quota to reset` },
  { match: /^Rate limited\b|queries-per-second limit/i, say: (b, m) => `${b} held back: ${m} asked us to slow down` },
  { match: /^Timed out\b/i, say: (b, m) => `${b} whose lookup on ${m} timed out` },
  { match: /^Network error\b|unreachable/i, say: (b, m) => `${b} not looked up: ${m} could not be reached` },
  { match: /unavailable \(\d+/i, say: (b, m) => `${b} not answered: ${m} was unavailable` },
  { match: /^Malformed response\b|malformed answer/i, say: (b, m) => `${b} whose answer from ${m} could not be read` },
  {
    match: /rejected the credentials|refused the access token|refused the request|is not set/i,
    say: (b, m) => `${b} not looked up: ${m} refused our credentials`,
  },
  { match: /^Cancelled: the worker is stopping/i, say: (b) => `${b} interrupted as the worker stopped, to be tried again` },
];

const GAVE_UP = /\s*\(gave up after (\d+) attempts\)$/;

/** One error line of a marketplace's run as a sentence about its books. */
export function errorInBooks(message: string, count: number, marketplace: string): string {
  const gaveUp = GAVE_UP.exec(message);
  const reason = message.replace(GAVE_UP, '').trim();
  const books = booksText(count);
  const kind = KINDS.find((k) => k.match.test(reason));
  const sentence = kind ? kind.say(books, marketplace) : `${books} with this answer from ${marketplace}: “${reason || 'no message'}”`;
  return gaveUp ? `${sentence} (given up after ${gaveUp[1]} tries)` : sentence;
}
