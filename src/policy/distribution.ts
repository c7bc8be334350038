/**
 * Distribution helpers. Probabilities are numbers in [0,1] keyed by option.
 */

/** (max − 1/n)/(1 − 1/n), 0 when max ≤ 1/n or no options. Used by the mock judge. */
export function confidenceFromProbabilities(probabilities: Record<string, number>): number {
  const values = Object.values(probabilities);
  const n = values.length;
  if (n === 0) return 0;
  const max = Math.max(...values);
  if (n === 1) return max;
  if (max <= 1 / n) return 0;
  return (max - 1 / n) / (1 - 1 / n);
}

/**
 * Concentration guard: the normalized peak must reach 1/n + (1 − 1/n)·t. Boundaries are inclusive
 * (tolerance ε·(n+2)). Fewer than two options or no mass → false. The repo's own construction,
 * not the provider's confidence formula.
 */
export function distributionSupportsConfidence(probabilities: Record<string, number>, threshold: number): boolean {
  const values = Object.values(probabilities);
  const n = values.length;
  if (n < 2) return false;
  const total = values.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return false;
  const required = 1 / n + (1 - 1 / n) * threshold;
  return Math.max(...values) / total + Number.EPSILON * (n + 2) >= required;
}

/** Reported confidence at or above t AND the distribution concentrated enough for t. */
export function confidenceSupportsAuto(confidence: number, probabilities: Record<string, number>, threshold: number): boolean {
  return confidence >= threshold && distributionSupportsConfidence(probabilities, threshold);
}
