/**
 * Distributions over more options than one prompt can label.
 *
 * With n options and at most `size` labels per round (26):
 * 1. n ≤ size: one round over all options.
 * 2. Otherwise split the options, in order, into k = ⌈n/size⌉ chunks of near-equal size and ask each
 *    chunk in parallel (round 1). Each chunk's finalist is its argmax (first on ties).
 * 3. Run the same procedure over the k finalists (recursively, so k > size also works).
 * 4. Final probability of option o in chunk c: P(o) = P_final(finalist of c) × P_c(o).
 *    It sums to 1 over all options (Σ_c P_final(c) · Σ_{o∈c} P_c(o) = 1); a finalist keeps only the share of
 *    its chunk's final-round mass that round 1 gave it, so uncertainty in either round lowers the peak
 *    (and with it the confidence) instead of being hidden.
 * Requests: k round-1 requests plus the finalists' rounds (n = 33 → 3 requests). A chunk of one option is
 * certain and costs no request.
 */

/**
 * Asks one round: returns a distribution over `options` (indexes into the original option list), aligned
 * with it, summing to 1. Called with 2..size options.
 */
export type AskRound = (options: number[]) => Promise<number[]>;

/** Splits 0..n−1 in order into ⌈n/size⌉ chunks whose sizes differ by at most one. */
export function chunkIndexes(indexes: readonly number[], size: number): number[][] {
  if (!Number.isSafeInteger(size) || size < 2) throw new RangeError('chunk size must be an integer >= 2');
  const k = Math.ceil(indexes.length / size);
  const out: number[][] = [];
  let start = 0;
  for (let c = 0; c < k; c++) {
    const len = Math.floor(indexes.length / k) + (c < indexes.length % k ? 1 : 0);
    out.push(indexes.slice(start, start + len));
    start += len;
  }
  return out;
}

/**
 * Distribution over `n` options (n ≥ 1) by the procedure above; the result is aligned with 0..n−1 and sums
 * to 1. Rejects with the first failing round's error (rounds of one level run in parallel).
 */
export async function tournament(n: number, ask: AskRound, size = 26): Promise<number[]> {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError('tournament needs at least one option');
  const result = await play(Array.from({ length: n }, (_, i) => i), ask, size);
  const out = new Array<number>(n).fill(0);
  for (const [index, p] of result) out[index] = p;
  return out;
}

async function play(options: number[], ask: AskRound, size: number): Promise<Map<number, number>> {
  if (options.length === 1) return new Map([[options[0]!, 1]]);
  if (options.length <= size) {
    const probs = await ask(options);
    return new Map(options.map((o, i) => [o, probs[i]!]));
  }
  const chunks = chunkIndexes(options, size);
  const rounds = await Promise.all(chunks.map((chunk) => play(chunk, ask, size)));
  const finalists = rounds.map((round) => {
    let best: number | undefined;
    for (const [o, p] of round) if (best === undefined || p > round.get(best)!) best = o;
    return best!;
  });
  const final = await play(finalists, ask, size);
  const out = new Map<number, number>();
  rounds.forEach((round, c) => {
    const mass = final.get(finalists[c]!) ?? 0;
    for (const [o, p] of round) out.set(o, mass * p);
  });
  return out;
}
