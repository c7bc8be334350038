import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../../config/env';
import { configError, invalidInput } from '../../judgment/errors';
import { sessionsFor } from '../../channel/session-file';
import { evidenceCommandProblem } from '../../gate/evidence-command';
import { workTreeRoot } from '../../gate/git';
import { installHook } from '../../gate/hook/install';
import { launcherPath } from '../../gate/hook/launcher';
import { ALLOW_MOCK_ARG, CHAINED_NAME, HOOK_GATE_ARGS } from '../../gate/hook/script';
import { stateDir } from '../../gate/state-dir';
import { providerLabel } from '../../providers/factory';
import { hookStatus } from '../../gate/hook/status';
import { uninstallHook } from '../../gate/hook/uninstall';
import { FAIL_OPEN_ENV } from '../../gate/fail-open';
import { OVERRIDE_ENV } from '../../gate/override';
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
 * Which judge the hook of repository `root` will have, checked at install: a real CLI backend (JEV_*), or
 * an editor with Jev and a real judge open on it. Returns the line to show; throws JevError CONFIG_ERROR
 * "no judgment backend" when there is neither and the mock was not asked for (`--allow-mock`): such a
 * hook could only block every commit.
 */
async function judgeAtInstall(env: Record<string, string | undefined>, root: string, allowMock: boolean): Promise<string> {
  const config = loadConfig(env);
  const editors = (await sessionsFor(stateDir(env), root)).filter((s) => s.judge && !s.judge.mock);
  const cli = config.provider === 'mock' ? undefined : providerLabel(config);
  if (cli && editors.length) return `the editor open on this repository (${editors[0]!.editor}: ${editors[0]!.judge!.provider}), else the CLI configuration: ${cli}`;
  if (cli) return `the CLI configuration: ${cli} (or an editor with Jev open on this repository)`;
  if (editors.length) {
    return `the editor open on this repository (${editors[0]!.editor}: ${editors[0]!.judge!.provider}); when it is closed, commits are blocked ("no judgment backend") unless JEV_API_KEY is set${allowMock ? ' (mock verdicts then, advisory)' : ''}`;
  }
  if (allowMock) return 'the mock judge, ADVISORY ONLY (--allow-mock): its verdicts never block and are not real judgments; set JEV_API_KEY or open the repository in VS Code with Jev for a real gate';
  throw configError(
    'hook: no judgment backend: JEV_API_KEY and JEV_BASE_URL are not set here and no editor with Jev and a real judge is open on this repository, so the hook could only block every commit ("no judgment backend"). ' +
      'Set JEV_API_KEY (the hook reads the environment of each commit) or open the repository in VS Code with Jev set up, then install again; ' +
      `or install with ${ALLOW_MOCK_ARG} to get the mock judge's verdicts as advisory warnings that never block.`,
  );
}

/**
 * `jevcp hook install [--repo DIR] [--evidence-cmd CMD | --no-evidence-cmd] [--allow-mock] [--shared] [--json]`,
 * `jevcp hook uninstall [--repo DIR] [--json]`, `jevcp hook status [--repo DIR] [--json]`.
 *
 * install writes the commit-msg hook (src/gate/hook/script.ts) calling this node (`process.execPath`) and
 * this CLI by absolute path, with the editor's stable launcher as the fallback; it refuses when the hook
 * would have no judge but the mock (unless `--allow-mock`), and a hooks directory other repositories use
 * (global core.hooksPath) unless `--shared`. uninstall restores the previous hook. The repository is the
 * one containing --repo (default: the working directory). Reinstalling keeps the evidence command of the
 * installed hook unless --evidence-cmd replaces it or --no-evidence-cmd drops it; status shows it. Exit 0 done; 2 bad arguments, no judgment
 * backend, a shared hooks directory, not a git work tree, or the hooks directory cannot be changed.
 */
export const hookCommand: CliCommand = async (args, io) => {
  try {
    const { values, positionals } = parseCommandArgs(
      'hook',
      args,
      {
        repo: { type: 'string' },
        'evidence-cmd': { type: 'string' },
        'no-evidence-cmd': { type: 'boolean' },
        'allow-mock': { type: 'boolean' },
        shared: { type: 'boolean' },
        json: { type: 'boolean' },
      },
      true,
    );
    const [sub, ...extra] = positionals;
    if (sub === undefined || !['install', 'uninstall', 'status'].includes(sub)) {
      throw invalidInput(`hook: say install, uninstall or status${sub === undefined ? '' : `; got ${JSON.stringify(sub)}`}.`);
    }
    if (extra.length > 0) throw invalidInput(`hook: unexpected argument ${JSON.stringify(extra[0])}.`);
    for (const flag of ['evidence-cmd', 'no-evidence-cmd', 'allow-mock', 'shared'] as const) {
      if (sub !== 'install' && values[flag] !== undefined) throw invalidInput(`hook: --${flag} applies to install only.`);
    }
    const evidenceCmd = values['evidence-cmd'];
    if (evidenceCmd !== undefined && values['no-evidence-cmd']) throw invalidInput('hook: give --evidence-cmd CMD or --no-evidence-cmd, not both.');
    const problem = evidenceCmd === undefined ? undefined : evidenceCommandProblem(evidenceCmd);
    if (problem) throw invalidInput(`hook: --evidence-cmd: ${problem}.`);
    const repoDir = resolve(io.cwd, values.repo ?? '.');
    // git run in a folder that does not exist fails as ENOENT, which reads as "git is missing": say what is.
    if (!existsSync(repoDir) || !statSync(repoDir).isDirectory()) throw configError(`hook: ${values.repo === undefined ? 'the working directory' : `--repo ${repoDir}`} is not an existing directory.`);
    const out = (obj: unknown) => io.stdout.write(`${JSON.stringify(obj, null, 2)}\n`);
    // Paths and git's notes may hold terminal controls: escaped in human output.
    const say = (text: string) => io.stdout.write(safeText(text));
    const note = (text: string) => io.stderr.write(safeText(text));

    if (sub === 'install') {
      const allowMock = values['allow-mock'] === true;
      const root = await workTreeRoot(repoDir, { env: io.env });
      const judge = root === undefined ? undefined : await judgeAtInstall(io.env, root, allowMock); // outside a repository installHook says so
      const launcher = launcherPath(stateDir(io.env));
      // Reinstalling keeps the evidence command already in our hook unless it is replaced or dropped on purpose.
      const previous = root === undefined ? undefined : await hookStatus({ repoDir, gitEnv: io.env }).catch(() => undefined);
      const kept = evidenceCmd === undefined && !values['no-evidence-cmd'] && previous?.installed ? previous.evidenceCommand : undefined;
      const evidenceCommand = evidenceCmd ?? kept;
      const r = await installHook({
        repoDir,
        nodePath: process.execPath,
        cliPath: runningCliPath(),
        launcherPath: launcher,
        evidenceCommand,
        allowMock,
        shared: values.shared === true,
        gitEnv: io.env,
      });
      for (const w of r.warnings) note(`jevcp: note: ${w}\n`);
      if (r.shared) note(`jevcp: note: the hooks directory ${r.hooksDir} ${r.shared.why}: this hook gates all of them (--shared).\n`);
      if (kept !== undefined) note(`jevcp: note: kept the hook's evidence command ${JSON.stringify(kept)} (--evidence-cmd CMD replaces it, --no-evidence-cmd drops it).\n`);
      if (values.json) out({ ...r, judge, allowMock, evidenceCommand: evidenceCommand ?? null });
      else {
        const verb = r.action === 'installed' ? 'installed' : r.action === 'updated' ? 'updated (it was already installed)' : 'already installed, unchanged';
        const args = allowMock ? HOOK_GATE_ARGS.replace(' --message-file', ` ${ALLOW_MOCK_ARG} --message-file`) : HOOK_GATE_ARGS;
        say(`commit-msg hook ${verb}: ${r.hookPath}\n`);
        say(`  runs        ${process.execPath} ${runningCliPath()} ${args} <message>\n`);
        say(`  evidence    ${evidenceCommand !== undefined ? `${evidenceCommand} (--evidence-cmd)` : 'none (--evidence-cmd CMD adds a command whose output is the evidence)'}\n`);
        say(`  else        ${launcher} (the launcher Jev in the editor keeps current)\n`);
        say(`  judge       ${judge}\n`);
        if (r.chainedPath) say(`  chained     the previous hook, kept as ${CHAINED_NAME}, runs first\n`);
        say(`  bypass      git commit --no-verify; ${OVERRIDE_ENV}="why" lets a verdict through as a recorded override; ${FAIL_OPEN_ENV}=1 lets commits through when the judge fails\n`);
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
    if (values.json) out(s.installed ? { ...s, evidenceCommand: s.evidenceCommand ?? null } : s);
    else {
      const state = s.installed ? `installed${s.chained ? ', chaining the previous hook' : ''}` : s.foreignHook ? 'not installed (another commit-msg hook is present)' : 'not installed';
      say(`commit-msg hook ${state}: ${s.hookPath}\n`);
      if (s.installed && s.cliPath) say(`  runs        ${s.nodePath ?? '?'} ${s.cliPath}\n`);
      if (s.installed && s.launcherPath) say(`  ${(s.cliPath ? 'else' : 'runs').padEnd(12)}${s.launcherPath}\n`);
      if (s.installed) say(`  evidence    ${s.evidenceCommand ?? 'none'}\n`);
      if (s.installed && s.allowMock) say('  judge       mock verdicts are advisory (installed with --allow-mock)\n');
      if (s.shared) say(`  shared      the hooks directory ${s.shared.why}\n`);
    }
    return EXIT.OK;
  } catch (err) {
    return reportError(io, err, wantsJson(args));
  }
};
