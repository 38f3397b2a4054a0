import { RULE_COLORS } from '@app/domain/rules';
import { describe, expect, it } from 'vitest';
import { bandColors } from './VerdictBand';

/** WCAG relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
const full = (c: string) => (c === '#fff' ? '#ffffff' : c === '#000' ? '#000000' : c);

describe('verdict band colours', () => {
  it('give every outcome colour text at 5.5:1 or more, readable in sunlight', () => {
    for (const color of RULE_COLORS) {
      const { bg, fg } = bandColors(color);
      expect(contrast(full(bg), full(fg)), color).toBeGreaterThanOrEqual(5.5);
    }
    expect(bandColors('not-a-colour')).toEqual(bandColors('gray'));
  });
});
