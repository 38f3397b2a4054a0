// PalletIQ, our assumed contract: {isbn, winner:{amazon:{log_data:{mp_decision, mm_val}}}} or winner null.
import { json, type SimulatedFormat } from './types.ts';

export const palletIqSim: SimulatedFormat = {
  path: '/v1/evaluate',
  isbnParam: 'isbn',
  offers(book, listings) {
    if (listings.length === 0) return json({ isbn: book.isbn13, winner: null });
    // Profit if bought at the cheapest listing and sold at the book's typical price, less fees.
    const buy = Math.min(...listings.map((l) => l.price + l.shipping));
    const profit = Math.round((book.basePrice * 1.6 - buy - 3.5) * 100) / 100;
    const decision = profit > 8 ? 'SELL_FBA' : profit > 2 ? 'SELL_MF' : profit > 0 ? 'KEEP' : 'REJECT';
    return json({ isbn: book.isbn13, winner: { amazon: { log_data: { mp_decision: decision, mm_val: profit } } } });
  },
  invalidIsbn: (value) => json({ error: `isbn must be 10 or 13 digits, got "${value}"` }, 422),
};
