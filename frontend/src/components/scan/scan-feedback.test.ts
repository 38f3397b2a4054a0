import { RULE_COLORS } from '@app/domain/rules';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FEEDBACK_PREFS, FEEDBACK_KINDS, feedbackFor, readFeedbackPrefs, tuneMs } from './scan-feedback';

describe('feedbackFor', () => {
  it('gives every outcome colour, a read and a refusal a tune of its own', () => {
    expect(FEEDBACK_KINDS).toEqual(expect.arrayContaining([...RULE_COLORS, 'read', 'refused']));
    const tunes = FEEDBACK_KINDS.map((k) => JSON.stringify([feedbackFor(k).wave, feedbackFor(k).tones]));
    expect(new Set(tunes).size).toBe(FEEDBACK_KINDS.length);
  });

  it('tells good from bad without the screen: green and red buzz differently, and a refusal unlike both', () => {
    const buzz = (k: 'green' | 'red' | 'refused') => JSON.stringify(feedbackFor(k).vibration);
    expect(new Set([buzz('green'), buzz('red'), buzz('refused')]).size).toBe(3);
  });

  it.each(FEEDBACK_KINDS)('%s is over before the next book (under half a second) and a valid vibration pattern', (kind) => {
    const f = feedbackFor(kind);
    expect(tuneMs(f)).toBeLessThanOrEqual(500);
    expect(f.tones.every((t) => t.hz >= 100 && t.hz <= 4000 && t.ms >= 30)).toBe(true);
    // Odd length: it ends on a buzz, not a pause.
    expect(f.vibration.length % 2).toBe(1);
    expect(f.vibration.every((ms) => Number.isInteger(ms) && ms > 0)).toBe(true);
  });

  it('counts the gaps between tones', () => {
    expect(tuneMs(feedbackFor('orange'))).toBe(3 * 80 + 2 * 40);
    expect(tuneMs(feedbackFor('blue'))).toBe(150);
  });
});

describe('readFeedbackPrefs', () => {
  it.each([
    [null, DEFAULT_FEEDBACK_PREFS],
    ['', DEFAULT_FEEDBACK_PREFS],
    ['not json', DEFAULT_FEEDBACK_PREFS],
    ['null', DEFAULT_FEEDBACK_PREFS],
    ['{"sound":false,"vibration":true}', { sound: false, vibration: true }],
    ['{"sound":false}', { sound: false, vibration: true }],
    ['{"sound":"no","vibration":false}', { sound: true, vibration: false }],
  ])('reads %j', (raw, prefs) => {
    expect(readFeedbackPrefs(raw)).toEqual(prefs);
  });
});
