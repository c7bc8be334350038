import { secretValues } from '../../config/env';
import { invalidInput } from '../../judgment/errors';
import { usableSecrets } from '../../judgment/redact';
import { join } from 'node:path';
import { stateDir } from '../../gate/state-dir';
import { hostAdapter } from '../../guard/hosts';
import { createPromptStore } from '../../guard/prompt-store';
import { failureVerdict, runGuard, type GuardRunResult, type JudgeAvailability, type ScreenAvailability } from '../../guard/run';
import type { GuardEvent } from '../../guard/types';
import { EXIT, type CliIO } from '../io';
import { editorSettledRecorder } from './record';
import { safeText } from '../safe-text';

/** Margin between our deadline and the host's hook timeout, ms. */
export const DEADLINE_MARGIN_MS = 5_000;

/** How long an aborted judgment may take to write its ledger record after the answer, ms. */
const UNWIND_GRACE_MS = 1_000;

/** The options of the hook itself (`jevcp guard --host H …`). */
export interface GuardHookValues {
  host?: string;
  agent?: string;
  config?: string;
  'deadline-ms'?: string;
}

/** Finds the judge for one run; `close` releases what it opened (the ledger). */
export interface GuardJudgeSource {
  judge: (event: GuardEvent, agent: string) => Promise<JudgeAvailability>;
  /** Finds the content screen for a PostToolUse result; absent: none (results are unscreened). */
  screen?: (event: GuardEvent, agent: string) => Promise<ScreenAvailability>;
  close: () => void;
}

function threshold(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined;
}

/**
 * Runs the hook once (src/guard/run.ts) and writes its answer: stdout for the host, one line on stderr.
 * Exit 0 whatever the verdict (a failure is an answer that does not allow, and so is a bad deadline, from
 * --deadline-ms or JEV_GUARD_DEADLINE_MS); throws JevError INVALID_INPUT when there is no host to answer (no or
 * an unknown --host: the caller exits 2). Answers by the deadline even when stdin never closes or the judge
 * ignores its signal. Kept free of the tools and providers so the lean entry stays small.
 */
export async function runGuardHook(io: CliIO, values: GuardHookValues, source: (host: string) => GuardJudgeSource): Promise<number> {
  if (values.host === undefined) throw invalidInput('guard: --host is required (claude-code, vscode, codex or copilot-cli).');
  let host;
  try {
    host = hostAdapter(values.host);
  } catch (err) {
    throw invalidInput(`guard: ${(err as Error).message}.`);
  }
  let deadlineMs = Math.min(host.hookTimeoutMs, 60_000) - DEADLINE_MARGIN_MS;
  const fromFlag = values['deadline-ms'] !== undefined;
  let setupProblem: string | undefined;
  const rawDeadline = values['deadline-ms'] ?? io.env.JEV_GUARD_DEADLINE_MS;
  if (rawDeadline !== undefined && rawDeadline.trim() !== '') {
    const n = Number(rawDeadline);
    // The host is known, so it gets its answer (no allow) rather than a bare exit status it may read as a block.
    if (!Number.isInteger(n) || n < 100 || n > 600_000) setupProblem = `${fromFlag ? '--deadline-ms' : 'JEV_GUARD_DEADLINE_MS'} must be an integer from 100 to 600000 ms; got ${JSON.stringify(rawDeadline)}`;
    else deadlineMs = n;
  }
  const judges = source(host.name);
  const promptStore = (env: CliIO['env']) => {
    try {
      return createPromptStore(join(stateDir(env), 'guard-prompts'));
    } catch {
      return undefined; // a bad JEV_STATE_DIR: no prompts kept (the transcript alone gives the request)
    }
  };
  const run = runGuard({
    host,
    agent: values.agent,
    stdin: io.stdin,
    env: io.env,
    cwd: io.cwd,
    configPath: values.config,
    prompts: promptStore(io.env),
    ...(setupProblem ? { setupProblem } : {}),
    judge: judges.judge,
    deadlineMs,
    secrets: usableSecrets(secretValues(io.env)),
    autoAccept: threshold(io.env, 'JEV_AUTO_ACCEPT'),
    reviewAt: threshold(io.env, 'JEV_REVIEW_AT'),
    record: editorSettledRecorder(io.env, host.name),
    ...(judges.screen ? { screen: judges.screen } : {}),
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<GuardRunResult>((done) => {
    timer = setTimeout(() => {
      const cause = `no answer within the guard's deadline of ${deadlineMs} ms`;
      const verdict = failureVerdict('TIMEOUT', cause);
      done({ stdout: host.answer(undefined, verdict), stderr: `jevcp guard: no allow: ${cause} [TIMEOUT]`, verdict });
    }, deadlineMs + 250);
  });
  const result = await Promise.race([run, late]);
  clearTimeout(timer);
  if (result.stdout) io.stdout.write(result.stdout);
  if (result.stderr) io.stderr.write(`${safeText(result.stderr)}\n`);
  // The host has its answer; an aborted judgment gets a moment to record itself (CANCELLED) before the ledger closes.
  if (result.unwinding) await Promise.race([result.unwinding, new Promise((done) => setTimeout(done, UNWIND_GRACE_MS).unref())]);
  judges.close();
  return EXIT.OK;
}
