/**
 * From a first token's top log-probabilities to a distribution over option labels.
 *
 * Rules:
 * - A top_logprobs entry counts for a label when its token, normalized by normalizeLabelToken, equals
 *   the label or one of its aliases. Several entries of one label (e.g. "A" and " A") are disjoint
 *   token events, so their probabilities add: logsumexp.
 * - Floor: a label absent from top_logprobs gets logprob `min − ln 2`, where `min` is the smallest
 *   finite logprob among the returned entries (the first token's own logprob included). The absent token
 *   is known to be less likely than every listed one; we credit it half the smallest listed probability.
 * - The distribution is the softmax over the labels' logprobs, so it sums to 1 over the labels.
 * - When no label appears at all, the model did not answer the question (e.g. it started to reason or
 *   chat); that is an INVALID_RESPONSE, never a uniform distribution.
 */
import { invalidResponse } from '../../judgment/errors';
import type { LabelSpec } from './prompt';

/** One candidate of the first output token: its text and natural-log probability (≤ 0). */
export interface TokenLogprob {
  token: string;
  logprob: number;
}

/**
 * What is wrong with `value` as a log-probability, or undefined when it is a finite number ≤ 0.
 * Describes the kind of value only ("a string", "NaN", "a positive number", …), never the value, so
 * an error built from it cannot echo the upstream body.
 */
export function logprobProblem(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return 'not finite';
    return value > 0 ? 'a positive number' : undefined;
  }
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** Gap below the smallest returned logprob given to an absent label, in nats (ln 2: half the probability). */
export const FLOOR_GAP_NATS = Math.LN2;

/** Distribution over the labels, in label order, plus which labels were floored. */
export interface LabelDistribution {
  /** Probabilities in [0,1], one per label, summing to 1. */
  probabilities: number[];
  /** Labels that were missing from top_logprobs and received the floor. */
  floored: string[];
}

/**
 * Canonical form of a token for label matching: surrounding whitespace and decoration such as
 * `(`, `)`, `.`, `:`, `*`, quotes and brackets removed, then upper-cased ("▁a)" → "A", " yes" → "YES").
 * SentencePiece's "▁" and GPT-2's "Ġ" word-start markers count as whitespace.
 */
export function normalizeLabelToken(token: string): string {
  return token
    .replace(/[▁Ġ]/g, ' ')
    .trim()
    .replace(/^[\s()[\]{}.:,*"'`_-]+|[\s()[\]{}.:,*"'`_-]+$/g, '')
    .toUpperCase();
}

function logSumExp(values: number[]): number {
  const max = Math.max(...values);
  if (max === -Infinity) return -Infinity;
  return max + Math.log(values.reduce((acc, v) => acc + Math.exp(v - max), 0));
}

/**
 * Softmax over the labels' logprobs with the floor rule above. `top` are the first token's candidates;
 * `chosen` is the sampled token itself when the server reports it.
 * Throws JevError INVALID_RESPONSE when no candidate is given, when a logprob is not a finite number ≤ 0
 * (such a body is broken: it is neither skipped nor clamped), or when no label appears among them.
 */
export function labelDistribution(top: readonly TokenLogprob[], labels: readonly LabelSpec[], chosen?: TokenLogprob): LabelDistribution {
  const entries = [...top, ...(chosen ? [chosen] : [])];
  if (entries.length === 0) throw invalidResponse('The endpoint returned no usable logprobs for the first token.');
  for (const e of entries) {
    const problem = typeof e.token !== 'string' ? 'given for a token that is not a string' : logprobProblem(e.logprob);
    if (problem) throw invalidResponse(`The endpoint returned an invalid logprob for the first token (${problem}); a logprob must be a finite number ≤ 0.`);
  }
  // The chosen token is usually also in top; count each distinct token text once.
  const byToken = new Map<string, number>();
  for (const e of entries) if (!byToken.has(e.token)) byToken.set(e.token, e.logprob);
  const min = Math.min(...byToken.values());
  const floor = min - FLOOR_GAP_NATS;

  const wanted = labels.map((l) => new Set([l.label, ...(l.aliases ?? [])].map((s) => s.toUpperCase())));
  const found: number[][] = labels.map(() => []);
  for (const [token, logprob] of byToken) {
    const norm = normalizeLabelToken(token);
    if (norm === '') continue;
    const i = wanted.findIndex((set) => set.has(norm));
    if (i >= 0) found[i]!.push(logprob);
  }
  if (found.every((f) => f.length === 0)) {
    throw invalidResponse(
      `The model's first token was none of the option labels (${labels.map((l) => l.label).join(', ')}); ` +
        'use an instruction-following model and turn off "thinking" output.',
    );
  }
  const floored: string[] = [];
  const logits = found.map((f, i) => {
    if (f.length > 0) return logSumExp(f);
    floored.push(labels[i]!.label);
    return floor;
  });
  const max = Math.max(...logits);
  const weights = logits.map((l) => Math.exp(l - max));
  const total = weights.reduce((a, b) => a + b, 0);
  return { probabilities: weights.map((w) => w / total), floored };
}
