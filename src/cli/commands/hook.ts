import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { invalidInput } from '../../judgment/errors';
import { evidenceCommandProblem } from '../../gate/evidence-command';
import { installHook } from '../../gate/hook/install';
import { CHAINED_NAME, HOOK_GATE_ARGS } from '../../gate/hook/script';
import { hookStatus } from '../../gate/hook/status';
import { uninstallHook } from '../../gate/hook/uninstall';
import { FAIL_OPEN_ENV } from '../../gate/fail-open';
import { parseCommandArgs } from '../args';
import { EXIT, type CliCommand } from '../io';
import { reportError, wantsJson } from '../report';
import { safeText } from '../safe-text';

/** Absolute real path of the running CLI script (dist/cli.js when bundled; follows an npm bin symlink). */
export function runningCliPath(): string {
  const script = require.main?.filename ?? process.argv[1] ?? '';
  try {
    return realpathSync(script);
  } catch {
    return resolve(script);
  }
}

/**
 * `jevcp hook install [--repo DIR] [--evidence-cmd CMD] [--json]`, `jevcp hook uninstall [--repo DIR] [--json]`,
 * `jevcp hook status [--repo DIR] [--json]`.
 *
 * install writes the commit-msg hook (src/gate/hook/script.ts) calling this node (`process.execPath`) and
 * this CLI by absolute path; uninstall restores the previous hook. The repository is the one containing
 * --repo (default: the working directory). Exit 0 done; 2 bad arguments, not a git work tree, or the
 * hooks directory cannot be changed.
 */
export const hookCommand: CliCommand = async (args, io) => {
  try {
    const { values, positionals } = parseCommandArgs(
      'hook',
      args,
      { repo: { type: 'string' }, 'evidence-cmd': { type: 'string' }, json: { type: 'boolean' } },
      true,
    );
    const [sub, ...extra] = positionals;
    if (sub === undefined || !['install', 'uninstall', 'status'].includes(sub)) {
      throw invalidInput(`hook: say install, uninstall or status${sub === undefined ? '' : `; got ${JSON.stringify(sub)}`}.`);
    }
    if (extra.length > 0) throw invalidInput(`hook: unexpected argument ${JSON.stringify(extra[0])}.`);
    if (sub !== 'install' && values['evidence-cmd'] !== undefined) throw invalidInput(`hook: --evidence-cmd applies to install only.`);
    const evidenceCmd = values['evidence-cmd'];
    const problem = evidenceCmd === undefined ? undefined : evidenceCommandProblem(evidenceCmd);
    if (problem) throw invalidInput(`hook: --evidence-cmd: ${problem}.`);
    const repoDir = resolve(io.cwd, values.repo ?? '.');
    const out = (obj: unknown) => io.stdout.write(`${JSON.stringify(obj, null, 2)}\n`);
    // Paths and git's notes may hold terminal controls: escaped in human output.
    const say = (text: string) => io.stdout.write(safeText(text));
    const note = (text: string) => io.stderr.write(safeText(text));

    if (sub === 'install') {
      const r = await installHook({ repoDir, nodePath: process.execPath, cliPath: runningCliPath(), evidenceCommand: values['evidence-cmd'], gitEnv: io.env });
      for (const w of r.warnings) note(`jevcp: note: ${w}\n`);
      if (values.json) out(r);
      else {
        const verb = r.action === 'installed' ? 'installed' : r.action === 'updated' ? 'updated (it was already installed)' : 'already installed, unchanged';
        say(`commit-msg hook ${verb}: ${r.hookPath}\n`);
        say(`  runs        ${process.execPath} ${runningCliPath()} ${HOOK_GATE_ARGS} <message>${values['evidence-cmd'] !== undefined ? ' --evidence-cmd …' : ''}\n`);
        if (r.chainedPath) say(`  chained     the previous hook, kept as ${CHAINED_NAME}, runs first\n`);
        say(`  bypass      git commit --no-verify; ${FAIL_OPEN_ENV}=1 lets commits through when the judge fails\n`);
      }
      return EXIT.OK;
    }
    if (sub === 'uninstall') {
      const r = await uninstallHook({ repoDir, gitEnv: io.env });
      if (values.json) out(r);
      else if (r.action === 'restored') say(`commit-msg hook removed; the previous hook is back: ${r.hookPath}\n`);
      else if (r.action === 'removed') say(`commit-msg hook removed: ${r.hookPath}\n`);
      else say(`the jev commit-msg hook is not installed in ${r.hooksDir}; nothing changed\n`);
      if (r.foreignHook) note(`jevcp: note: ${r.hookPath} is another tool's hook; left alone.\n`);
      if (r.orphanBackup) note(`jevcp: note: ${r.orphanBackup} is a backup from an earlier install; left alone.\n`);
      return EXIT.OK;
    }
    const s = await hookStatus({ repoDir, gitEnv: io.env });
    if (values.json) out(s);
    else {
      const state = s.installed ? `installed${s.chained ? ', chaining the previous hook' : ''}` : s.foreignHook ? 'not installed (another commit-msg hook is present)' : 'not installed';
      say(`commit-msg hook ${state}: ${s.hookPath}\n`);
      if (s.installed) say(`  runs        ${s.nodePath ?? '?'} ${s.cliPath ?? '?'}\n`);
    }
    return EXIT.OK;
  } catch (err) {
    return reportError(io, err, wantsJson(args));
  }
};
