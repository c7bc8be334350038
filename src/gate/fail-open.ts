import { configError, type JevError } from '../judgment/errors';

/**
 * The commit gate's fail-open switch. By default the gate fails closed: when the judge cannot decide
 * (provider down, timeout, invalid response) the commit is blocked with exit 3.
 * `JEV_GATE_FAIL_OPEN=1` lets such commits through with a loud warning. It never turns a failure into an
 * approval: the ledger record still says error, and a decision of review/escalate still blocks.
 */

/** Environment variable of the switch. */
export const FAIL_OPEN_ENV = 'JEV_GATE_FAIL_OPEN';

const ON = new Set(['1', 'true', 'yes', 'on']);
const OFF = new Set(['', '0', 'false', 'no', 'off']);

/**
 * Reads JEV_GATE_FAIL_OPEN: `1|true|yes|on` → true; unset, empty or `0|false|no|off` → false (case
 * ignored). Throws JevError CONFIG_ERROR naming the variable for any other value, so a typo never
 * silently changes how commits are gated.
 */
export function readGateFailOpen(env: Record<string, string | undefined>): boolean {
  const raw = env[FAIL_OPEN_ENV];
  if (raw === undefined) return false;
  const v = raw.trim().toLowerCase();
  if (ON.has(v)) return true;
  if (OFF.has(v)) return false;
  throw configError(`${FAIL_OPEN_ENV} must be 1/true/yes/on or 0/false/no/off; got ${JSON.stringify(raw)}.`);
}

/**
 * Whether fail-open applies to `error`: only provider or operational failures (the judge could not
 * decide). Invalid input or configuration still blocks (fixing them is the user's job), and so does a
 * cancelled gate (an interrupted commit is never let through).
 */
export function failOpenApplies(error: JevError): boolean {
  return !['INVALID_INPUT', 'INPUT_TOO_LARGE', 'CONFIG_ERROR', 'CANCELLED'].includes(error.code);
}

/** The loud multi-line stderr warning printed when a failed gate lets a commit through. */
export function failOpenWarning(error: JevError): string {
  return [
    `jevcp: WARNING: ${FAIL_OPEN_ENV} is set — the gate could not judge this change (${error.code}) and lets it through UNJUDGED.`,
    'jevcp: WARNING: this is not an approval; the decision record says error. Unset the variable to block on failures.',
    '',
  ].join('\n');
}
