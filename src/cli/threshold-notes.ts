/**
 * Notes for per-call thresholds the tool did not apply: a requested auto_accept or review_at below the
 * configured floor (per-call values may only raise it), or a block_at above it (may only lower it).
 * The tools' output schemas have no notes field, so the CLI says it beside the result.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The variable that sets each floor for the CLI. */
const FLOOR_VARIABLE: Readonly<Record<string, string>> = { auto_accept: 'JEV_AUTO_ACCEPT', review_at: 'JEV_REVIEW_AT', block_at: 'JEV_BLOCK_AT' };

/** The effective thresholds of a tool result (jev_gate nests them under verification). */
function effectiveThresholds(result: unknown): Obj | undefined {
  if (!isObj(result)) return undefined;
  if (isObj(result.thresholds)) return result.thresholds;
  return isObj(result.verification) && isObj(result.verification.thresholds) ? result.verification.thresholds : undefined;
}

/**
 * One note per requested threshold that the floor overrode, e.g. `requested auto_accept 0.1 is below the
 * configured floor 0.8 (JEV_AUTO_ACCEPT); the floor applies (per-call thresholds may only raise floors)`.
 * Empty when every requested value was applied or nothing was requested.
 */
export function thresholdFloorNotes(input: unknown, result: unknown): string[] {
  const applied = effectiveThresholds(result);
  if (!isObj(input) || !applied) return [];
  const notes: string[] = [];
  for (const field of ['auto_accept', 'review_at'] as const) {
    const asked = input[field];
    const used = applied[field];
    if (typeof asked === 'number' && typeof used === 'number' && asked < used) {
      notes.push(`requested ${field} ${String(asked)} is below the configured floor ${String(used)} (${FLOOR_VARIABLE[field]}); the floor applies (per-call thresholds may only raise floors)`);
    }
  }
  const askedBlock = input.block_at;
  const usedBlock = applied.block_at;
  if (typeof askedBlock === 'number' && typeof usedBlock === 'number' && askedBlock > usedBlock) {
    notes.push(`requested block_at ${String(askedBlock)} is above the configured floor ${String(usedBlock)} (JEV_BLOCK_AT); the floor applies (a per-call block_at may only lower it)`);
  }
  return notes;
}
