import { resolve } from 'node:path';
import { loadConfig, secretValues } from '../../config/env';
import { stateDir } from '../../gate/state-dir';
import { configError, invalidInput, JevError } from '../../judgment/errors';
import { usableSecrets } from '../../judgment/redact';
import { hostAdapter } from '../../guard/hosts';
import { guardStatus, installGuard, uninstallGuard } from '../../guard/install/install';
import type { Scope } from '../../guard/install/locations';
import { hasPermitTool, servicePermitJudge } from '../../guard/judge';
import { failureVerdict, runGuard, type GuardRunResult, type JudgeAvailability } from '../../guard/run';
import { parseCommandArgs } from '../args';
import { EXIT, type CliCommand, type CliIO } from '../io';
import { reportError, wantsJson } from '../report';
import { createRuntime, type Runtime } from '../runtime';
import { safeText } from '../safe-text';
import { runningCliPath } from './hook';

/** Margin between our deadline and the host's hook timeout, ms. */
const DEADLINE_MARGIN_MS = 5_000;

/** The judge from the CLI configuration (JEV_*): none when only the mock or nothing is configured. */
function cliJudge(io: CliIO, host: string, hold: { runtime?: Runtime }): () => Promise<JudgeAvailability> {
  return async () => {
    const config = loadConfig(io.env);
    if (config.provider === 'mock') {
      return config.providerReason === 'no backend configured'
        ? { kind: 'none', reason: 'no judgment backend: JEV_API_KEY and JEV_BASE_URL are not set (and no provider is chosen)' }
        : { kind: 'none', code: 'MOCK_ONLY', reason: `only the mock judge is configured (${config.providerReason}); the mock never decides a permission` };
    }
    const runtime = createRuntime(io, { mockNotice: false });
    hold.runtime = runtime;
    if (!hasPermitTool(runtime.service)) return { kind: 'none', code: 'NO_PERMIT_TOOL', reason: 'jev_permit is not available in this build of jevcp' };
    return { kind: 'judge', judge: servicePermitJudge(runtime.service, 'guard', `guard hook, ${host}`), label: runtime.label };
  };
}

function threshold(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined;
}

async function guardHook(io: CliIO, values: { host?: string; agent?: string; config?: string; 'deadline-ms'?: string }): Promise<number> {
  if (values.host === undefined) throw invalidInput('guard: --host is required (claude-code, vscode, codex or copilot-cli).');
  let host;
  try {
    host = hostAdapter(values.host);
  } catch (err) {
    throw invalidInput(`guard: ${(err as Error).message}.`);
  }
  let deadlineMs = Math.min(host.hookTimeoutMs, 60_000) - DEADLINE_MARGIN_MS;
  const rawDeadline = values['deadline-ms'] ?? io.env.JEV_GUARD_DEADLINE_MS;
  if (rawDeadline !== undefined && rawDeadline.trim() !== '') {
    const n = Number(rawDeadline);
    if (!Number.isInteger(n) || n < 100 || n > 600_000) throw invalidInput(`guard: --deadline-ms must be an integer from 100 to 600000 ms; got ${JSON.stringify(rawDeadline)}.`);
    deadlineMs = n;
  }
  const hold: { runtime?: Runtime } = {};
  const run = runGuard({
    host,
    agent: values.agent,
    stdin: io.stdin,
    env: io.env,
    cwd: io.cwd,
    configPath: values.config,
    judge: cliJudge(io, host.name, hold),
    deadlineMs,
    secrets: usableSecrets(secretValues(io.env)),
    autoAccept: threshold(io.env, 'JEV_AUTO_ACCEPT'),
    reviewAt: threshold(io.env, 'JEV_REVIEW_AT'),
  });
  // Whatever happens inside (stdin never closing, a judge ignoring its signal), answer before the host's timeout.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<GuardRunResult>((done) => {
    timer = setTimeout(() => {
      const verdict = failureVerdict('TIMEOUT', `no answer within the guard's deadline of ${deadlineMs} ms`);
      done({ stdout: host.answer(undefined, verdict), stderr: `jevcp guard: no allow: no answer within the guard's deadline of ${deadlineMs} ms [TIMEOUT]`, verdict });
    }, deadlineMs + 250);
  });
  const result = await Promise.race([run, late]);
  clearTimeout(timer);
  hold.runtime?.close();
  if (result.stdout) io.stdout.write(result.stdout);
  if (result.stderr) io.stderr.write(`${safeText(result.stderr)}\n`);
  return EXIT.OK;
}

/**
 * `jevcp guard --host claude-code|vscode|codex|copilot-cli [--agent NAME] [--config F] [--deadline-ms MS]`:
 * the permission hook (src/guard/run.ts): one event on stdin, the host's answer on stdout, exit 0 (a
 * failure is an answer that does not allow, and one line on stderr). Bad arguments exit 2.
 * `jevcp guard install|uninstall|status --host H [--scope project|user] [--dir DIR] [--agent NAME] [--json]`:
 * the host's hook configuration (src/guard/install/install.ts).
 */
export const guardCommand: CliCommand = async (args, io) => {
  try {
    const { values, positionals } = parseCommandArgs(
      'guard',
      args,
      {
        host: { type: 'string' },
        agent: { type: 'string' },
        config: { type: 'string' },
        'deadline-ms': { type: 'string' },
        scope: { type: 'string' },
        dir: { type: 'string' },
        json: { type: 'boolean' },
      },
      true,
    );
    const [sub, ...extra] = positionals;
    if (sub === undefined) {
      for (const flag of ['scope', 'dir', 'json'] as const) if (values[flag] !== undefined) throw invalidInput(`guard: --${flag} applies to install, uninstall and status.`);
      return await guardHook(io, values);
    }
    if (!['install', 'uninstall', 'status'].includes(sub)) throw invalidInput(`guard: say install, uninstall or status, or nothing (the hook itself); got ${JSON.stringify(sub)}.`);
    if (extra.length > 0) throw invalidInput(`guard: unexpected argument ${JSON.stringify(extra[0])}.`);
    if (values.host === undefined) throw invalidInput('guard: --host is required (claude-code, vscode, codex or copilot-cli).');
    let host;
    try {
      host = hostAdapter(values.host).name;
    } catch (err) {
      throw invalidInput(`guard: ${(err as Error).message}.`);
    }
    const scope = (values.scope ?? 'project') as Scope;
    if (scope !== 'project' && scope !== 'user') throw invalidInput(`guard: --scope must be project or user; got ${JSON.stringify(values.scope)}.`);
    for (const flag of ['config', 'deadline-ms'] as const) if (values[flag] !== undefined) throw invalidInput(`guard: --${flag} applies to the hook itself, not to ${sub}.`);
    if (sub !== 'install' && values.agent !== undefined) throw invalidInput('guard: --agent applies to install (and the hook itself).');
    const base = { host, scope, workspace: resolve(io.cwd, values.dir ?? '.'), env: io.env, state: stateDir(io.env) };
    const out = (obj: unknown) => io.stdout.write(`${JSON.stringify(obj, null, 2)}\n`);
    const say = (text: string) => io.stdout.write(safeText(text));
    try {
      if (sub === 'install') {
        const r = await installGuard({ ...base, nodePath: process.execPath, cliPath: runningCliPath(), agent: values.agent });
        if (values.json) out(r);
        else say(`guard hook for ${host} ${r.action === 'unchanged' ? 'already installed, unchanged' : r.action}: ${r.path}\n  runs  ${r.command}\n`);
      } else if (sub === 'uninstall') {
        const r = await uninstallGuard(base);
        if (values.json) out(r);
        else say(r.action === 'not-installed' ? `the guard hook for ${host} is not in ${r.path}; nothing changed\n` : `guard hook for ${host} ${r.action === 'restored' ? 'removed; the file is back as it was' : 'removed'}: ${r.path}\n`);
      } else {
        const s = await guardStatus(base);
        if (values.json) out(s);
        else say(`guard hook for ${host} ${s.installed ? 'installed' : 'not installed'}: ${s.path}\n${s.command ? `  runs  ${s.command}\n` : ''}`);
      }
    } catch (err) {
      throw err instanceof JevError ? err : configError(`guard ${sub}: ${(err as Error).message}`);
    }
    return EXIT.OK;
  } catch (err) {
    return reportError(io, err, wantsJson(args));
  }
};
