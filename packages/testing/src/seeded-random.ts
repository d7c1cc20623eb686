/** A reproducible stream of pseudo-random numbers; see {@link seededRandom}. */
export interface SeededRandom {
  /** The next number in [0, 1). */
  readonly next: () => number;
  /** The next integer in [0, n). */
  readonly int: (n: number) => number;
  /** The next element of a non-empty list. */
  readonly pick: <T>(xs: ReadonlyArray<T>) => T;
}

/**
 * A small seeded PRNG (mulberry32): the same seed gives the same sequence on every machine.
 *
 * Use it in property tests, printing the seed, so a failing case can be replayed exactly.
 *
 * @example
 * const seed = Number(process.env.SEED ?? Date.now() % 1e9);
 * console.log(`seed ${seed}`);
 * const r = seededRandom(seed);
 * const query = Array.from({ length: 1 + r.int(5) }, () => r.pick(WORDS)).join(" ");
 */
export const seededRandom = (seed: number): SeededRandom => {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: ReadonlyArray<T>): T => xs[int(xs.length)]!;
  return { next, int, pick };
};
