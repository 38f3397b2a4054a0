// Deterministic randomness: the same inputs always give the same draw, so an ISBN's offers and a
// given attempt's fault are reproducible across runs and processes.
import { must } from '@app/domain/must';

/** 32-bit hash of the parts (FNV-1a, then murmur3's finaliser for avalanche). */
export function hash32(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  const text = parts.join('\u0001');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform draw in [0, 1) fixed by the parts. */
export function unit(...parts: Array<string | number>): number {
  return hash32(...parts) / 2 ** 32;
}

/** A seeded generator (mulberry32) for drawing many values from one seed. */
export function prng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => must(items[Math.floor(next() * items.length)], 'pick from a non-empty list'),
    chance: (p) => next() < p,
  };
}

export interface Rng {
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}
