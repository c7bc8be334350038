import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { stateDir } from '../../gate/state-dir';
import { configError, invalidInput, JevError } from '../../judgment/errors';
import { loadGuardConfig } from '../../guard/config';
import { hostAdapter } from '../../guard/hosts';
import { guardStatus, installGuard, uninstallGuard } from '../../guard/install/install';
import type { Scope } from '../../guard/install/locations';
import { parseCommandArgs } from '../args';
import { cliGuardJudge, cliScreenJudge } from '../guard-hook/judge';
import { runGuardHook } from '../guard-hook/run-hook';
import { EXIT, type CliCommand } from '../io';
import { reportError, wantsJson } from '../report';
import type { Runtime } from '../runtime';
import { safeText } from '../safe-text';
import { runningCliPath } from './hook';

/**
 * A hook installed with `--agent NAME` answers every call with a configuration error unless the workspace's
 * config names that agent, so install refuses it up front (INVALID_INPUT naming the agents there are).
 */
async function mustNameAnAgent(workspace: string, agent: string): Promise<void> {
  let config;
  try {
    config = await loadGuardConfig(workspace);
  } catch (err) {
    throw configError(`guard install: --agent ${agent}: ${(err as Error).message}`);
  }
  if (config.agents.some((a) => a.name === agent)) return;
  const names = config.agents.map((a) => a.name);
  throw invalidInput(`guard install: --agent ${JSON.stringify(agent)} is not in the "agents" of ${join(workspace, '.jev', 'config.json')} (${names.length ? `it has ${names.join(', ')}` : 'it names none'}); every call would be refused as a configuration error.`);
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
      return await runGuardHook(io, values, (host) => {
        const hold: { runtime?: Runtime } = {};
        return { judge: cliGuardJudge(io, host, hold), screen: cliScreenJudge(io, hold, host), close: () => hold.runtime?.close() };
      });
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
    const workspace = resolve(io.cwd, values.dir ?? '.');
    // A mistyped --dir must not get a fresh folder tree with a hook nobody's agent reads.
    if (scope === 'project' && !statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) throw invalidInput(`guard: --dir ${JSON.stringify(values.dir ?? '.')} is not an existing folder (${workspace}).`);
    const base = { host, scope, workspace, env: io.env, state: stateDir(io.env) };
    const out = (obj: unknown) => io.stdout.write(`${JSON.stringify(obj, null, 2)}\n`);
    const say = (text: string) => io.stdout.write(safeText(text));
    try {
      if (sub === 'install') {
        // The lean entry beside the CLI (dist/guard.js) when the build has it: rule-settled calls start faster.
        const cli = runningCliPath();
        const lean = join(dirname(cli), 'guard.js');
        if (values.agent !== undefined && scope === 'project') await mustNameAnAgent(workspace, values.agent);
        const r = await installGuard({ ...base, nodePath: process.execPath, cliPath: existsSync(lean) ? lean : cli, agent: values.agent });
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
