// Adding a selling marketplace is its folder and its registry entry (docs/marketplaces/adding.md):
// a marketplace defined only in a test fixture (test/fixtures/marketplaces/bookshed/), added to the
// registry, appears in every table derived from the registry: the comparison's columns and CSV
// headers, the fee defaults, the rule fields, and its offers are summarised by its own normaliser.
// (Its page: frontend/src/routes/marketplace-routes.test.ts matches every registry path.)
import { comparisonCsvFieldsOf, comparisonFieldsOf, COMPARISON_FIELDS, extraColumnsOf, priceSourcesOf } from '@app/domain/comparison';
import { feeDefaultsOf, estimatedProfit } from '@app/domain/fees';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import { ruleFieldsOf, RULE_FIELDS } from '@app/domain/rules';
import { describe, expect, it } from 'vitest';
import { bookshedFacts } from '../../test/fixtures/marketplaces/bookshed/facts.ts';
import { normaliseBookshedOffer } from '../../test/fixtures/marketplaces/bookshed/offers.ts';
import { summariseOffers } from './offer-summary.ts';

const registry = [...MARKETPLACE_LIST, bookshedFacts];
const names = (fields: readonly { name: string }[]) => fields.map((f) => f.name);

describe('a marketplace defined only by its registry entry and folder', () => {
  it('is a price source with its extra column, after the registry’s own', () => {
    expect(priceSourcesOf(registry).map((s) => s.marketplace)).toEqual(['abe_books', 'biblio', 'alibris', 'amazon', 'ebay', 'bookshed']);
    expect(priceSourcesOf(registry).at(-1)).toEqual({
      marketplace: 'bookshed',
      price: ['price'],
      shipping: 'shipping',
      currency: 'currency',
    });
    expect(extraColumnsOf(registry).at(-1)).toEqual({
      marketplace: 'bookshed',
      column: 'demand',
      name: 'bookshed_demand',
      label: 'Bookshed Demand',
    });
  });

  it('has its comparison columns (price, change, currency, offers, status, extra) and its CSV headers', () => {
    const fields = comparisonFieldsOf(registry);
    const added = names(fields).filter((n) => !names(COMPARISON_FIELDS).includes(n));
    expect(added.sort()).toEqual(
      ['bookshed_price', 'bookshed_change', 'bookshed_currency', 'bookshed_offers', 'bookshed_status', 'bookshed_demand'].sort(),
    );
    // Everything else is as it was, in the same order.
    expect(names(fields).filter((n) => !added.includes(n))).toEqual(names(COMPARISON_FIELDS));
    expect(fields.find((f) => f.name === 'bookshed_price')).toMatchObject({
      label: 'Bookshed',
      format: 'money',
      currencyField: 'bookshed_currency',
    });
    const headers = comparisonCsvFieldsOf(fields).map((f) => f.label);
    for (const label of ['Bookshed', 'Bookshed Change', 'Bookshed Currency', 'Bookshed Offers', 'Bookshed Status', 'Bookshed Demand'])
      expect(headers).toContain(label);
    expect(headers).not.toContain('Row');
  });

  it('has its default fee schedule, which the profit formula uses', () => {
    const defaults = feeDefaultsOf(registry);
    expect(Object.keys(defaults)).toEqual(['abe_books', 'biblio', 'alibris', 'amazon', 'ebay', 'bookshed']);
    const fees = defaults.bookshed;
    expect(fees).toBe(bookshedFacts.selling.fees);
    // $20 less 10 % ($2) less $0.50, plus a $1 credit, less a $5 book.
    expect(estimatedProfit(20, fees ?? bookshedFacts.selling.fees, 5)).toBeCloseTo(13.5);
  });

  it('can be tested by a buy rule', () => {
    const fields = names(ruleFieldsOf(comparisonFieldsOf(registry)));
    for (const name of ['bookshed_price', 'bookshed_change', 'bookshed_status', 'bookshed_demand']) expect(fields).toContain(name);
    expect(fields.filter((n) => !n.startsWith('bookshed_'))).toEqual(names(RULE_FIELDS));
  });

  it('summarises its offers with its own normaliser', () => {
    const offer = (amount: string, postage: number | null, seller: string) => ({
      cost: { amount, code: 'usd' },
      postage,
      seller,
      grade: 'Good',
      href: 'https://bookshed.invalid/l/1',
    });
    expect(summariseOffers(normaliseBookshedOffer, [offer('9.00', null, 'A'), offer('7.50', 1, 'B')])).toEqual([
      {
        price: { value: 7.5, currency: 'USD' },
        shipping: { value: 1, currency: 'USD' },
        delivered: { value: 8.5, currency: 'USD' },
        condition: 'Good',
        seller: 'B',
        link: 'https://bookshed.invalid/l/1',
      },
      {
        price: { value: 9, currency: 'USD' },
        shipping: null,
        delivered: null,
        condition: 'Good',
        seller: 'A',
        link: 'https://bookshed.invalid/l/1',
      },
    ]);
  });
});
