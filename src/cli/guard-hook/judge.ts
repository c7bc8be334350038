import { findWorkspaceRoot } from '../../guard/workspace';
import { editorPermitJudge, editorScreenJudge, permitSessions } from '../../channel/permit-client';
import { loadConfig } from '../../config/env';
import { stateDir } from '../../gate/state-dir';
import { hasPermitTool, servicePermitJudge } from '../../guard/judge';
import { guardSource } from '../../guard/source';
import type { JudgeAvailability, ScreenAvailability } from '../../guard/run';
import { createScreener } from '../../screen/screener';
import { serviceJudge } from '../../screen/service-judge';
import type { ScreenJudge } from '../../screen/types';
import type { GuardEvent, PermitJudge } from '../../guard/types';
import { configError } from '../../judgment/errors';
import type { CliIO } from '../io';
import { createRuntime, type Runtime } from '../runtime';
import { safeText } from '../safe-text';

/**
 * The guard's judge: first the running editor open on the call's workspace (src/channel/permit-client.ts:
 * its own judge, ledger and live feed), else the CLI configuration (JEV_*): jev_permit through this
 * process's JudgmentService (its ledger, spend cap and provider). None when no editor judges and only the
 * mock or nothing is configured. The runtime is kept in `hold` so the caller closes its ledger. Part of the
 * full CLI bundle only: the lean guard entry (src/cli/guard-main.ts) loads it from dist/cli.js when a call
 * needs judging.
 */
export function cliGuardJudge(io: CliIO, host: string, hold: { runtime?: Runtime }): (event?: GuardEvent, agent?: string) => Promise<JudgeAvailability> {
  const cliJudge = async (source: string): Promise<JudgeAvailability> => {
    const config = loadConfig(io.env);
    if (config.provider === 'mock') {
      return config.providerReason === 'no backend configured'
        ? { kind: 'none', reason: 'no judgment backend: JEV_API_KEY and JEV_BASE_URL are not set (and no provider is chosen)' }
        : { kind: 'none', code: 'MOCK_ONLY', reason: `only the mock judge is configured (${config.providerReason}); the mock never decides a permission` };
    }
    const runtime = createRuntime(io, { mockNotice: false });
    hold.runtime = runtime;
    if (!hasPermitTool(runtime.service)) return { kind: 'none', code: 'NO_PERMIT_TOOL', reason: 'jev_permit is not available in this build of jevcp' };
    const label = `the CLI configuration (${runtime.label})`;
    const judge = servicePermitJudge(runtime.service, 'guard', source);
    // stderr says which judge decided, as it does for the editor.
    const noted: PermitJudge = async (input, opts) => {
      const result = await judge(input, opts);
      io.stderr.write(safeText(`jevcp guard: judged by ${label}\n`));
      return result;
    };
    return { kind: 'judge', judge: noted, label };
  };
  return async (event, agent) => {
    // The workspace as src/guard/run.ts finds it; an editor open on it judges first.
    const root = findWorkspaceRoot(io.env, event?.cwd, io.cwd);
    if (root === undefined) return cliJudge(guardSource(host, event?.sessionId));
    const source = guardSource(host, event?.sessionId);
    let sessions: Awaited<ReturnType<typeof permitSessions>> = [];
    try {
      sessions = await permitSessions(stateDir(io.env), root);
    } catch {
      // A bad JEV_STATE_DIR: no editor to ask; the CLI configuration decides.
    }
    if (sessions.length === 0) return cliJudge(source);
    const fallback: PermitJudge = async (input, opts) => {
      const cli = await cliJudge(source);
      if (cli.kind === 'none') throw configError(`no editor judged the call, and the CLI configuration has no judge: ${cli.reason}`);
      return cli.judge(input, opts);
    };
    const note = (line: string) => io.stderr.write(safeText(`jevcp guard: ${line}\n`));
    const target = { root, host, agent: agent ?? host, source };
    return { kind: 'judge', judge: editorPermitJudge(sessions, target, fallback, note), label: `the editor (${sessions[0]!.editor}), else the CLI configuration` };
  };
}

/**
 * The guard's content screen for PostToolUse results: jev_screen first through the running editor open on
 * the result's workspace (src/channel/permit-client.ts `editorScreenJudge`: its judge, ledger and live feed),
 * else through the CLI configuration (JEV_*) in this process's JudgmentService. None when no editor is open
 * there and only the mock or nothing is configured (the mock never decides); with an editor open, a chunk
 * no judge can take is `unscreened`, never passed. The runtime is kept in `hold` so the caller closes its ledger.
 */
export function cliScreenJudge(io: CliIO, hold: { runtime?: Runtime }, host = 'guard'): (event?: GuardEvent, agent?: string) => Promise<ScreenAvailability> {
  const cli = (agent?: string): ScreenJudge | { none: ScreenAvailability & { kind: 'none' } } => {
    const config = loadConfig(io.env);
    if (config.provider === 'mock') {
      return config.providerReason === 'no backend configured'
        ? { none: { kind: 'none', reason: 'no judgment backend: JEV_API_KEY and JEV_BASE_URL are not set (and no provider is chosen)' } }
        : { none: { kind: 'none', code: 'MOCK_ONLY', reason: `only the mock judge is configured (${config.providerReason}); the mock never decides a screen` } };
    }
    const runtime = hold.runtime ?? createRuntime(io, { mockNotice: false });
    hold.runtime = runtime;
    return serviceJudge(runtime.service, agent !== undefined ? { agent } : {});
  };
  const cliLabel = () => `the CLI configuration (${hold.runtime?.label ?? 'JEV_*'})`;
  return async (event, agent) => {
    const root = findWorkspaceRoot(io.env, event?.cwd, io.cwd);
    let sessions: Awaited<ReturnType<typeof permitSessions>> = [];
    try {
      sessions = root === undefined ? [] : await permitSessions(stateDir(io.env), root);
    } catch {
      // A bad JEV_STATE_DIR: no editor to ask; the CLI configuration screens.
    }
    if (sessions.length === 0) {
      const judge = cli(agent);
      if ('none' in judge) return judge.none;
      const screener = createScreener({ judge });
      return { kind: 'screen', screen: (request) => screener.screen(request), label: cliLabel() };
    }
    const note = (line: string) => io.stderr.write(safeText(`jevcp guard: ${line}\n`));
    let fallback: ScreenJudge | undefined;
    const lateCli: ScreenJudge = async (text, purpose, signal, source) => {
      const judge = cli(agent);
      if ('none' in judge) return { ok: false, error: { code: judge.none.code ?? 'NO_BACKEND', message: `no editor screened the result, and the CLI configuration has no judge: ${judge.none.reason}` } };
      if (!fallback) io.stderr.write(safeText(`jevcp guard: screened by ${cliLabel()}\n`));
      fallback = judge;
      return judge(text, purpose, signal, source);
    };
    const target = { root: root!, host, agent: agent ?? host, source: guardSource(host, event?.sessionId) };
    const screener = createScreener({ judge: editorScreenJudge(sessions, target, EDITOR_SCREEN_WAIT_MS, lateCli, note) });
    return { kind: 'screen', screen: (request) => screener.screen(request), label: `the editor (${sessions[0]!.editor}), else the CLI configuration` };
  };
}

/** Longest the editors may take for one chunk, ms; the guard's own deadline (its signal) usually ends it first. */
const EDITOR_SCREEN_WAIT_MS = 60_000;
