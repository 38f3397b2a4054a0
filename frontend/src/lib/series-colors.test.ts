import { PRICE_SOURCES } from '@app/domain/comparison';
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import { describe, expect, it } from 'vitest';
import { SERIES_COLOR } from './series-colors';

describe('chart series colours', () => {
  it('gives every marketplace a colour of its own', () => {
    const colours = MARKETPLACE_IDS.map((id) => SERIES_COLOR[id]);
    expect(colours.every((c) => typeof c === 'string' && c.length > 0)).toBe(true);
    expect(new Set(colours).size).toBe(MARKETPLACE_IDS.length);
  });

  it('keeps the selling marketplaces apart by hue, not shade alone', () => {
    const hues = PRICE_SOURCES.map((s) => SERIES_COLOR[s.marketplace].split('.')[0]);
    expect(new Set(hues).size).toBe(PRICE_SOURCES.length);
  });
});
