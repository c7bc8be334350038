import { closeSync, constants, existsSync, mkdtempSync, openSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadConfig, type JevConfig } from '../../config/env';
import { FAIL_OPEN_ENV, readGateFailOpen } from '../../gate/fail-open';
import { judge } from '../../judgment/judge';
import { configError, toJevError, type JevErrorDetails } from '../../judgment/errors';
import { PACKAGE_VERSION } from '../../mcp/identity';
import { createProvider, providerLabel } from '../../providers/factory';
import { SpendCap } from '../../providers/spend-cap';
import { parseCommandArgs } from '../args';
import { errnoCode, fsReason } from '../fs-reason';
import { EXIT, type CliCommand, type CliIO } from '../io';
import { reportError, wantsJson } from '../report';
import { safeText } from '../safe-text';
import { exitCodeForError, mockNotice } from '../runtime';
import { modelLabel, num } from '../format';

/** The doctor report (`--json` shape). Never holds the API key or a full URL. */
export interface DoctorReport {
  version: string;
  node: string;
  ready: boolean;
  provider?: string;
  provider_reason?: string;
  model?: string;
  /** Origin only (scheme://host:port); path, userinfo and query never shown. */
  base_url?: string;
  api_key_set?: boolean;
  /** The key is set but the mock judge was asked for (JEV_MOCK, JEV_PROVIDER=mock), so it is not used. */
  api_key_ignored?: boolean;
  /** Which judge answers: the mock's verdicts are advisory only (they never pass or block a commit). */
  judge?: 'mock' | 'real';
  real_judge?: boolean;
  thresholds?: { auto_accept: number; review_at: number; block_at: number };
  timeout_ms?: number;
  /** Attempts; null = no cap. */
  spend_cap?: number | null;
  /** Ledger path; null = off. */
  ledger?: string | null;
  /** Why the ledger cannot be written (then not ready, exit 2); absent when it can or is off. */
  ledger_problem?: string;
  /** JEV_GATE_FAIL_OPEN: a failed gate judgment lets the commit through (default false: fail-closed). */
  gate_fail_open?: boolean;
  ping?: { model: string; noul: number; input_tokens: number; latency_ms: number };
  error?: JevErrorDetails;
}

/** Runs one tiny judgment (one yes/no question) within the configured deadline. */
async function ping(config: JevConfig): Promise<NonNullable<DoctorReport['ping']>> {
  const provider = createProvider(config, new SpendCap(config.spendCap));
  const started = Date.now();
  const judged = await judge(
    provider,
    { signal: new AbortController().signal, deadline: started + config.timeoutMs },
    'Doctor ping.',
    { ping: { type: 'noul', instructions: 'Is this text a short connectivity check?' } },
    config.model,
  );
  const answer = judged.response.answers.ping;
  return {
    model: judged.response.model,
    noul: answer?.type === 'noul' ? answer.noul : NaN,
    input_tokens: judged.response.usage.input_tokens,
    latency_ms: Date.now() - started,
  };
}

/**
 * Why a ledger at `path` (relative to the working directory) could not be written, e.g. `EISDIR: is a
 * directory`, or undefined. Tried for real, not by permission bits (root passes every access check, and a
 * folder such as /proc refuses new entries whatever its mode): an existing path is opened for appending; for a
 * missing one, a probe folder is made and removed in its nearest existing ancestor. Leaves nothing behind.
 * (A device that fails only on write, such as /dev/full, passes; the CLI reports such write failures when they happen.)
 */
export function ledgerProblem(path: string): string | undefined {
  try {
    if (statSync(path).isDirectory()) return fsReason({ code: 'EISDIR' });
    // O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of hanging the check.
    closeSync(openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NONBLOCK));
    return undefined;
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') return fsReason(err);
  }
  for (let dir = dirname(resolve(path)); ; ) {
    try {
      if (!statSync(dir).isDirectory()) return `${dir}: ${fsReason({ code: 'ENOTDIR' })}`;
      rmdirSync(mkdtempSync(join(dir, '.jev-ledger-probe-')));
      return undefined;
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') return `${dir}: ${fsReason(err)}`;
      // The folder is there but takes no new entries (ENOENT from mkdtemp, as under /proc).
      if (existsSync(dir)) return `${dir}: takes no new entries (ENOENT)`;
    }
    const up = dirname(dir);
    if (up === dir) return 'no existing parent directory';
    dir = up;
  }
}

/** Builds the report: configuration summary, the ledger's writability, then one ping judgment. */
export async function doctorReport(env: CliIO['env']): Promise<{ report: DoctorReport; config?: JevConfig; exit: number }> {
  const report: DoctorReport = { version: PACKAGE_VERSION, node: process.version, ready: false };
  let config: JevConfig;
  let failOpen: boolean;
  try {
    config = loadConfig(env);
    failOpen = readGateFailOpen(env);
  } catch (err) {
    const error = toJevError(err);
    report.error = error.toJSON();
    return { report, exit: exitCodeForError(error) };
  }
  Object.assign(report, {
    provider: config.provider,
    provider_reason: config.providerReason,
    model: config.model,
    base_url: new URL(config.baseUrl).origin,
    api_key_set: config.apiKey !== undefined,
    ...(config.provider === 'mock' && config.apiKey !== undefined ? { api_key_ignored: true } : {}),
    judge: config.provider === 'mock' ? 'mock' : 'real',
    real_judge: config.provider !== 'mock',
    thresholds: { ...config.floors },
    timeout_ms: config.timeoutMs,
    spend_cap: config.spendCap ?? null,
    ledger: config.ledgerPath ?? null,
    gate_fail_open: failOpen,
  });
  if (config.ledgerPath) {
    const problem = ledgerProblem(config.ledgerPath);
    if (problem) {
      report.ledger_problem = problem;
      report.error = configError(`JEV_LEDGER ${config.ledgerPath} cannot be written (${problem}); decisions would not be recorded.`).toJSON();
      return { report, config, exit: EXIT.INVALID };
    }
  }
  try {
    report.ping = await ping(config);
    if (config.provider === 'mock') {
      // The mock answered the ping, but it is not a judge: nothing here is ready for a real judgment.
      report.error = configError(`no judgment backend: ${MOCK_NOT_A_JUDGE}`).toJSON();
      return { report, config, exit: EXIT.INVALID };
    }
    report.ready = true;
    return { report, config, exit: EXIT.OK };
  } catch (err) {
    // The ping can reveal bad configuration too (a key no header can carry, an endpoint without logprobs): exit 2.
    const error = toJevError(err);
    report.error = error.toJSON();
    return { report, config, exit: exitCodeForError(error) };
  }
}

/** Doctor's line for the mock judge: fine for trying things, never a judgment. */
export const MOCK_ADVISORY =
  'mock — advisory only, not a real judgment; `jevcp gate` and `jevcp hook install` need a backend (JEV_API_KEY or JEV_BASE_URL) or --allow-mock';

/** Why the mock leaves doctor not ready, and how to configure a judge (README "Configuration"). */
export const MOCK_NOT_A_JUDGE =
  'only the mock judge is configured, and the mock is not a judge (keyword heuristics). Configure one: ' +
  'JEV_API_KEY=… (TypeSafe), or JEV_BASE_URL=http://127.0.0.1:11434 (a local Ollama or Kev), or ' +
  'JEV_PROVIDER=openai JEV_BASE_URL=… (an OpenAI-compatible server with logprobs); then run jevcp doctor again.';

function humanReport(r: DoctorReport, config: JevConfig | undefined): string {
  const lines = [`jevcp ${r.version}`, `node ${r.node}`];
  if (config) {
    lines.push(
      `provider    ${providerLabel(config)}`,
      `model       ${r.model}`,
      `base url    ${r.base_url}${config.provider === 'mock' ? ' (not used by the mock judge)' : ''}`,
      `api key     ${r.api_key_set ? (r.api_key_ignored ? `set, but IGNORED (${config.providerReason} forces the mock judge)` : 'set') : 'not set'}`,
      `thresholds  auto_accept ${num(r.thresholds?.auto_accept)}, review_at ${num(r.thresholds?.review_at)}, block_at ${num(r.thresholds?.block_at)}`,
      `timeout     ${r.timeout_ms} ms`,
      `spend cap   ${r.spend_cap === null ? 'none' : `${r.spend_cap} attempts`}`,
      `ledger      ${r.ledger ?? 'off (set JEV_LEDGER to record decisions)'}${r.ledger_problem ? ` — CANNOT BE WRITTEN (${r.ledger_problem})` : ''}`,
      `gate        ${r.gate_fail_open ? `FAIL-OPEN (${FAIL_OPEN_ENV} is set: when the judge fails, commits go through unjudged)` : `fail-closed (${FAIL_OPEN_ENV}=1 lets commits through when the judge fails)`}`,
    );
  }
  if (r.ping) lines.push(`ping        ${modelLabel(r.ping.model)}: noul ${num(r.ping.noul)}, ${r.ping.latency_ms} ms`);
  if (r.error) lines.push(`error       ${r.error.code}: ${r.error.message}`);
  if (r.judge === 'mock') lines.push(`judge       ${MOCK_ADVISORY}`);
  lines.push(r.ready ? 'ready' : r.judge === 'mock' && r.ping ? 'not ready for real judgments (the mock is not a judge)' : 'not ready');
  return `${lines.join('\n')}\n`;
}

/**
 * `jevcp doctor [--json]`: version, node, provider and why, model, base URL origin, key set yes/no (never
 * the key), thresholds, timeout, spend cap, ledger path; then one ping judgment within the deadline.
 * Prints `ready` / `not ready`. Exit 0 ready; 2 invalid configuration (a JEV_LEDGER that cannot be
 * written included, checked without creating anything; only the mock judge: "no judgment backend", its ping
 * shown but never ready), also when the ping reveals it
 * (CONFIG_ERROR: a key an HTTP header cannot carry, an OpenAI endpoint without logprobs); 3 the ping failed
 * otherwise (backend down, timeout, invalid response).
 */
export const doctorCommand: CliCommand = async (args, io) => {
  try {
    const { values } = parseCommandArgs('doctor', args, { json: { type: 'boolean' } });
    const { report, config, exit } = await doctorReport(io.env);
    if (config?.provider === 'mock') io.stderr.write(`${mockNotice(config)}\n`);
    io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : safeText(humanReport(report, config)));
    return exit;
  } catch (err) {
    return reportError(io, err, wantsJson(args));
  }
};
