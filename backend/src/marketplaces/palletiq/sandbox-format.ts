// PalletIQ as its public clients see it: GET /v1/isbn/{isbn}/0?token=…, JSON with status, meta and
// winner.amazonLogData; {"status":"failed"} when there is nothing to evaluate.
import type { PalletIqDecision } from '@app/domain/marketplaces';
import { json, queryParam, type SimulatedFormat } from '../../sandbox/formats/types.ts';

const PATH = /^\/v1\/isbn\/([^/]*)\/0$/;

export const palletIqSim: SimulatedFormat = {
  read(path, query) {
    const isbn = PATH.exec(path)?.[1];
    return isbn === undefined ? null : { isbn: decodeURIComponent(isbn), key: queryParam(query, 'token') };
  },
  offers(book, listings) {
    if (listings.length === 0) return json({ status: 'failed' });
    // Profit if bought at the cheapest listing and sold at the book's typical price, less fees.
    const buy = Math.min(...listings.map((l) => l.price + l.shipping));
    const profit = Math.round((book.basePrice * 1.6 - buy - 3.5) * 100) / 100;
    // One of the decisions the filter and rule lists offer (its registry entry's decision values, domain/src/marketplaces.ts).
    const decision: PalletIqDecision = profit > 2 ? 'accept' : 'reject';
    return json({
      status: 'success',
      meta: {
        title: book.title,
        asin: book.isbn10,
        image_url: `https://images.palletiq.invalid/${book.isbn10}.jpg`,
        weight: 150 + (Number(book.isbn13.slice(-3)) % 900),
      },
      winner: { amazonLogData: { fba_decision: profit > 8, mp_decision: decision, mm_val: profit } },
    });
  },
  invalidIsbn: () => json({ status: 'failed' }),
  badKey: () => json({ status: false, message: 'Invalid token' }, 401),
};
