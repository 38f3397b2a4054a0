// How a change since the previous look reads: a direction and the amount, never a bare minus sign
// (easy to miss in a column of prices), and words for screen readers.
import { formatMoney } from '../../lib/format';

export interface PriceChangeText {
  /** ▼ for a drop, ▲ for a rise, empty when the price held (to the cent). */
  arrow: '▼' | '▲' | '';
  /** The size of the change, in its currency ("$5.00"). */
  amount: string;
  /** What a screen reader says: "down $5.00", "up $1.20", "no change". */
  label: string;
}

export function describePriceChange(change: number, currency: string): PriceChangeText {
  const cents = Math.round(change * 100);
  const amount = formatMoney(Math.abs(cents) / 100, currency);
  if (cents === 0) return { arrow: '', amount, label: 'no change' };
  return cents < 0 ? { arrow: '▼', amount, label: `down ${amount}` } : { arrow: '▲', amount, label: `up ${amount}` };
}
