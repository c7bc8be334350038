/**
 * Who judges a gated change, and the judgment: the running editor (commit hook only: its provider, key,
 * thresholds, ledger and feed, over the channel of src/channel/), else the CLI configuration (JEV_*).
 * The mock judge never decides a commit: with no real backend the gate answers "no judgment backend"
 * unless the mock was asked for on purpose (`--allow-mock`, the hook installed with it, JEV_MOCK /
 * JEV_PROVIDER=mock, `jevPanel.provider: mock`), and then its verdict is advisory.
 */
import { askEditor } from '../../channel/client';
import type { ChannelResponse, JudgeInfo } from '../../channel/protocol';
import { sessionsFor } from '../../channel/session-file';
import { overrideRecord } from '../../gate/override';
import type { GateInput } from '../../gate/request';
import { configError, JevError, type JevErrorDetails } from '../../judgment/errors';
import type { Runtime } from '../runtime';

/** The judgment of one gated change. */
export interface GateJudgment {
  /** Who judged, in words: `the editor (Visual Studio Code: systemone jev-latest, API key set)`. */
  judge: string;
  via: 'editor' | 'cli';
  /** The mock judge answered: the verdict is advisory, never a pass or a block. */
  mock: boolean;
  outcome: { ok: true; result: unknown; recordId: string } | { ok: false; error: JevError; recordId?: string };
  /** Set when an override was given and the verdict did not pass: `where` says whether and where it was recorded (a phrase). */
  override?: { recordId?: string; where: string };
  /** Why the editor was not used, when one was asked (one clause each). */
  fallbacks: string[];
}

/** What `judgeGate` needs. */
export interface JudgeRequest {
  input: GateInput;
  runtime: Runtime;
  /** Work tree root; with `stateDir`, editors open on it are asked first (the hook). */
  root: string;
  /** The user's state directory: set to ask running editors (hook mode). */
  stateDir?: string;
  /** `commit hook, terminal` … (recorded with the decision). */
  source?: string;
  /** The mock may answer (advisory). */
  allowMock: boolean;
  /** An override reason (JEV_GATE_OVERRIDE), recorded when the verdict does not pass. */
  override?: string;
  signal?: AbortSignal;
}

const fromDetails = (e: JevErrorDetails) => new JevError(e.code, e.message, { retryable: e.retryable });

function editorJudge(j: JudgeInfo): string {
  return `the editor (${j.editor}: ${j.mock ? 'the mock judge' : `${j.provider} ${j.model}`}, ${j.reason})`;
}

/** Whether the CLI configuration asked for the mock on purpose (not merely "no backend configured"). */
export function explicitMock(runtime: Runtime): boolean {
  return runtime.config.provider === 'mock' && runtime.config.providerReason !== 'no backend configured';
}

/** The "no judgment backend" error, naming what was looked at and every way forward. */
export function noBackendError(hook: boolean): JevError {
  const where = hook ? 'no editor with Jev and a real judge is open on this repository, and the CLI configuration has none' : 'the CLI configuration has none';
  return configError(
    `no judgment backend: ${where} (JEV_API_KEY and JEV_BASE_URL are not set). Set JEV_API_KEY (or JEV_BASE_URL)` +
      (hook ? ', open the repository in VS Code with Jev set up (Jev: Set API Key or Use Editor Chat Model),' : '') +
      ` or ${hook ? 'reinstall the hook with --allow-mock' : 'pass --allow-mock'} for advisory mock verdicts that never block.`,
  );
}

/** The editor's answer as a judgment (status `judged`). */
function fromEditor(response: Extract<ChannelResponse, { status: 'judged' }>, fallbacks: string[]): GateJudgment {
  const o = response.outcome;
  return {
    judge: editorJudge(response.judge),
    via: 'editor',
    mock: response.judge.mock,
    outcome: o.ok ? o : { ok: false, error: fromDetails(o.error), recordId: o.recordId },
    ...(response.override ? { override: { recordId: response.override.recordId, where: "recorded in the editor's ledger" } } : {}),
    fallbacks,
  };
}

/** Asks the editors open on the repository, newest first. Undefined when none judged (reasons in `fallbacks`). */
async function askEditors(req: JudgeRequest, cliReal: boolean, fallbacks: string[]): Promise<GateJudgment | undefined> {
  const sessions = await sessionsFor(req.stateDir!, req.root);
  for (const session of sessions) {
    const body = { v: 1 as const, root: req.root, input: req.input, source: req.source ?? 'commit hook', allowMock: !cliReal && req.allowMock, ...(req.override ? { override: req.override } : {}) };
    let asked = await askEditor(session, body, req.signal);
    // The editor has only the mock, chosen there on purpose (jevPanel.provider: mock): that counts as asked for.
    if (asked.kind === 'answer' && asked.response.status === 'no-backend' && asked.response.judge.explicitMock && !cliReal && !body.allowMock) {
      asked = await askEditor(session, { ...body, allowMock: true }, req.signal);
    }
    if (asked.kind === 'unavailable') fallbacks.push(`the editor session of ${session.editor} did not answer (${asked.reason})`);
    else if (asked.response.status === 'refused') fallbacks.push(`the editor refused: ${asked.response.message}`);
    else if (asked.response.status === 'no-backend') fallbacks.push(`the editor open on this repository has no judgment backend either (${asked.response.judge.reason})`);
    else return fromEditor(asked.response, fallbacks);
  }
  if (sessions.length === 0) fallbacks.push('no editor with Jev is open on this repository');
  return undefined;
}

/**
 * Judges `input`. In hook mode (`stateDir` set) the editors open on the repository are asked first; an
 * editor with only the mock gives way to a real CLI backend. Resolves to the judgment; a judge failure is
 * an error outcome (never a pass). Throws JevError CONFIG_ERROR "no judgment backend" when only an
 * unwanted mock is left, CANCELLED when `signal` fires while an editor judges.
 */
export async function judgeGate(req: JudgeRequest): Promise<GateJudgment> {
  const { runtime } = req;
  const cliReal = runtime.config.provider !== 'mock';
  const allowMock = req.allowMock || explicitMock(runtime);
  const fallbacks: string[] = [];
  if (req.stateDir) {
    const judged = await askEditors({ ...req, allowMock }, cliReal, fallbacks);
    if (judged) return judged;
  }
  if (!cliReal && !allowMock) throw noBackendError(req.stateDir !== undefined);

  const outcome = await runtime.service.call('jev_gate', req.input, { agent: 'cli', signal: req.signal, ...(req.source ? { source: req.source } : {}) });
  const judgment: GateJudgment = {
    judge: cliReal ? `the CLI configuration (${runtime.label})` : `the mock judge (${runtime.config.providerReason}; advisory)`,
    via: 'cli',
    mock: !cliReal,
    outcome: outcome.ok ? { ok: true, result: outcome.result, recordId: outcome.record.id } : { ok: false, error: outcome.error, recordId: outcome.record.id },
    fallbacks,
  };
  const action = outcome.ok ? (outcome.result as { action?: unknown }).action : undefined;
  if (req.override && outcome.ok && action !== 'auto' && cliReal) {
    const record = overrideRecord({ decision: outcome.record, reason: req.override, agent: 'cli', ...(req.source ? { source: req.source } : {}) });
    if (runtime.ledger) {
      await runtime.ledger.append(record);
      judgment.override = { recordId: record.id, where: `recorded in the ledger ${runtime.ledger.path}` };
    } else judgment.override = { where: 'not recorded: JEV_LEDGER is not set, so the CLI keeps no ledger' };
  }
  return judgment;
}
