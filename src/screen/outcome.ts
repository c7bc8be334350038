import type { ScreenVerdict } from '../policy/screen';
import type { ScreenError, ScreenHandling, ScreenJudgment, ScreenKind, ScreenMode, ScreenOutcome } from './types';

/**
 * Pure pieces of the screen's outcome: reading one chunk's judgment, the worst of several chunks, and what a
 * caller does with an outcome. No I/O, no clock.
 */

/** One chunk's judgment reduced to what the outcome needs, or its failure. */
export type ChunkVerdict =
  | { ok: true; action: ScreenVerdict; reason: string; injection: number; decisionId?: string }
  | { ok: false; error: ScreenError; decisionId?: string };

const VERDICTS: ReadonlySet<string> = new Set(['pass', 'review', 'block', 'skip']);

/**
 * One judgment as a ChunkVerdict. A result without a known recommendation or without an injection
 * probability in [0,1] is a failure (INVALID_RESPONSE), never a default pass.
 */
export function chunkVerdict(judgment: ScreenJudgment): ChunkVerdict {
  const id = judgment.decisionId !== undefined ? { decisionId: judgment.decisionId } : {};
  if (!judgment.ok) return { ok: false, error: { code: judgment.error.code, message: judgment.error.message }, ...id };
  const result = judgment.result as { recommendation?: { action?: unknown; reason?: unknown }; probabilities?: { injection?: unknown } } | null;
  const action = result?.recommendation?.action;
  const reason = result?.recommendation?.reason;
  const injection = result?.probabilities?.injection;
  if (typeof action !== 'string' || !VERDICTS.has(action) || typeof injection !== 'number' || !(injection >= 0 && injection <= 1)) {
    return { ok: false, error: { code: 'INVALID_RESPONSE', message: 'The jev_screen result had no recommendation or injection probability in [0, 1].' }, ...id };
  }
  return { ok: true, action: action as ScreenVerdict, reason: typeof reason === 'string' ? reason : '', injection, ...id };
}

// Worst first. A failed chunk outranks review (the caller may withhold it) but not a detected block; pass
// outranks skip because content is worth reading when any part of it is.
const RANK: Record<ScreenKind, number> = { skip: 0, pass: 1, review: 2, unscreened: 3, block: 4 };

const kindOf = (v: ChunkVerdict): ScreenKind => (v.ok ? v.action : 'unscreened');

/** Facts about the chunking that the outcome reports. */
export interface ChunkingFacts {
  cut: boolean;
  screenedChars: number;
  totalChars: number;
}

/**
 * The outcome of `verdicts` (one per judged chunk, in order, at least one): the worst chunk decides
 * (block > unscreened > review > pass > skip). Content that was cut (`facts.cut`) is at least review: what
 * was not read was not screened.
 */
export function combineVerdicts(verdicts: readonly ChunkVerdict[], facts: ChunkingFacts): ScreenOutcome {
  if (verdicts.length === 0) throw new RangeError('combineVerdicts needs at least one chunk verdict');
  let worst = 0;
  for (let i = 1; i < verdicts.length; i++) if (RANK[kindOf(verdicts[i]!)] > RANK[kindOf(verdicts[worst]!)]) worst = i;
  const decider = verdicts[worst]!;
  const n = verdicts.length;
  const where = n > 1 ? `Chunk ${worst + 1} of ${n}: ` : '';
  const judged = verdicts.filter((v): v is Extract<ChunkVerdict, { ok: true }> => v.ok);
  const base = {
    decisionIds: verdicts.flatMap((v) => (v.decisionId !== undefined ? [v.decisionId] : [])),
    fromCache: false,
    chunks: n,
    ...facts,
    ...(judged.length > 0 ? { injection: Math.max(...judged.map((v) => v.injection)) } : {}),
  };
  if (!decider.ok) {
    return { ...base, kind: 'unscreened', reason: `${where}not screened (${decider.error.code}): ${decider.error.message}`, error: decider.error };
  }
  if (facts.cut && (decider.action === 'pass' || decider.action === 'skip')) {
    const reason = `Only the first ${facts.screenedChars} of ${facts.totalChars} characters were screened (${n} chunks); the rest was not.`;
    return { ...base, kind: 'review', recommendation: { action: 'review', reason }, reason };
  }
  const reason = `${where}${decider.reason}`;
  return { ...base, kind: decider.action, recommendation: { action: decider.action, reason: decider.reason }, reason };
}

/**
 * An outcome without any judgment that holds: the screen failed before a chunk was judged, or was stopped
 * (aborted, timed out) with `chunks` of them sent. Never carries a recommendation.
 */
export function unscreenedOutcome(error: ScreenError, totalChars: number, chunks = 0): ScreenOutcome {
  return {
    kind: 'unscreened',
    decisionIds: [],
    reason: `Not screened (${error.code}): ${error.message}`,
    fromCache: false,
    chunks,
    cut: false,
    screenedChars: 0,
    totalChars,
    error,
  };
}

/**
 * What a caller does with `outcome`: pass and skip → `pass-through`; review → `warn`; block → `withhold`;
 * unscreened → `warn` in mode `warn`, `withhold` in mode `strict`. Never `pass-through` for unscreened.
 */
export function handling(outcome: Pick<ScreenOutcome, 'kind'>, mode: ScreenMode): ScreenHandling {
  switch (outcome.kind) {
    case 'pass':
    case 'skip':
      return 'pass-through';
    case 'review':
      return 'warn';
    case 'block':
      return 'withhold';
    case 'unscreened':
      return mode === 'strict' ? 'withhold' : 'warn';
  }
}
