/**
 * System One answers from label distributions. Pure functions; their
 * output is still validated by validateResponse on the judgment path.
 */
import type { ChoiceAnswer, NoulAnswer, ScoreAnswer } from '../../judgment/types';
import { confidenceFromProbabilities } from '../../policy/distribution';

/** Noul answer: `pYes` is P(Y) from the Y/N softmax, in [0,1]. */
export function noulAnswer(pYes: number): NoulAnswer {
  return { type: 'noul', noul: clamp01(pYes) };
}

/**
 * Choice answer over `keys` (option keys in question order) with `probabilities` aligned to them
 * (summing to 1). choice = argmax (first on ties); confidence = (max − 1/n)/(1 − 1/n).
 * Throws RangeError when the lengths differ or there are no options.
 */
export function choiceAnswer(keys: readonly string[], probabilities: readonly number[]): ChoiceAnswer {
  const probs = keyed(keys, probabilities);
  const best = argmax(probabilities);
  return { type: 'choice', choice: keys[best]!, confidence: clamp01(confidenceFromProbabilities(probs)), probabilities: probs };
}

/**
 * Score answer over `levels` (level texts, lowest first) with `probabilities` aligned to them.
 * score = expected level index Σ i·p_i, clamped to [0, n−1]; probabilities and legend keyed "0".."n-1";
 * confidence by the same formula as choice. Throws RangeError on mismatched lengths.
 */
export function scoreAnswer(levels: readonly string[], probabilities: readonly number[]): ScoreAnswer {
  const keys = levels.map((_, i) => String(i));
  const probs = keyed(keys, probabilities);
  const expected = probabilities.reduce((acc, p, i) => acc + i * p, 0);
  const legend: Record<string, string> = Object.fromEntries(levels.map((text, i) => [String(i), text]));
  return {
    type: 'score',
    score: Math.min(levels.length - 1, Math.max(0, expected)),
    confidence: clamp01(confidenceFromProbabilities(probs)),
    probabilities: probs,
    legend,
  };
}

function keyed(keys: readonly string[], probabilities: readonly number[]): Record<string, number> {
  if (keys.length === 0 || keys.length !== probabilities.length) {
    throw new RangeError(`need one probability per option; got ${probabilities.length} for ${keys.length} options`);
  }
  // fromEntries defines own properties, so even a key such as "__proto__" stays a plain entry.
  return Object.fromEntries(keys.map((k, i) => [k, clamp01(probabilities[i]!)]));
}

/** Index of the largest value; the first one on ties. */
export function argmax(values: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

const clamp01 = (p: number) => Math.min(1, Math.max(0, p));
