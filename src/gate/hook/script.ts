import { FAIL_OPEN_ENV } from '../fail-open';

/**
 * The text of the `commit-msg` hook that gates every commit with `jevcp gate --hook`, and reading it
 * back. What runs the gate, in order: the node and CLI the install named (`jevcp hook install`: this node
 * and this CLI, by absolute path, since editors often run hooks without the shell's nvm/asdf PATH), the
 * same CLI under `node` from PATH when that node is gone, then the stable launcher in the user's state
 * directory (launcher.ts) that the extension rewrites every time it starts. A hook installed from the
 * editor names only the launcher: no versioned extension folder or editor binary is written into it.
 * When nothing can run the gate the hook says so in one line with the fix, naming what is missing (node, or
 * the CLI and the launcher), and blocks (exit 3; fail-open lets the commit through). A previous hook (husky, lefthook, commitlint, Gerrit Change-Id…) is kept
 * beside ours as CHAINED_NAME and runs first with the same arguments, so a cheap rejection happens
 * before a paid judgment and a hook that edits the message (Change-Id) does so before it is judged.
 */

/** Name of the hook file. */
export const HOOK_NAME = 'commit-msg';
/** Name the previous hook is kept under, beside ours. */
export const CHAINED_NAME = 'commit-msg.jev-chained';
/** Header line that marks a hook as ours (second line of the script). */
export const HOOK_MARKER = '# jev-control-panel commit-msg gate';
/** Line recording that the install created the hooks directory (uninstall removes it when empty). */
export const CREATED_DIR_LINE = '# jev: created the hooks directory';

/** The CLI arguments the hook runs, before the message file (`$1`) and `--evidence-cmd`. */
export const HOOK_GATE_ARGS = 'gate --hook --message-file';
/** Added before `--message-file` when the hook was installed with the mock judge on purpose. */
export const ALLOW_MOCK_ARG = '--allow-mock';
/** Exit status of the hook's resolver and of the launcher (launcher.ts) when nothing can run the gate. */
export const CANNOT_RUN_STATUS = 127;

/** `'…'` shell quoting (POSIX sh): safe for any byte except NUL. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Options of `renderHook` (validated by `installHook`). */
export interface RenderHookOptions {
  /** Absolute path of the node executable (`jevcp hook install`); absent for a hook that runs the launcher only. */
  nodePath?: string;
  /** Absolute path of the built CLI, `…/dist/cli.js`; absent with `nodePath`. */
  cliPath?: string;
  /** Absolute path of the stable launcher (launcher.ts `launcherPath`). */
  launcherPath: string;
  /** Shell command passed as `--evidence-cmd`. */
  evidenceCommand?: string;
  /** Mock verdicts are advisory: the hook lets the commit through with a warning (installed with the mock on purpose). */
  allowMock?: boolean;
  /** Exported before the gate runs, `export NAME='value'`; names must be shell identifiers. */
  env?: Record<string, string>;
  /** Records that the install created the hooks directory. */
  createdDir?: boolean;
}

/**
 * The hook script (POSIX sh). Runs the chained previous hook first (when present and executable, as git
 * would), then the gate; the gate's exit code is the hook's (0 pass, 1 not passed, 2 invalid or no
 * backend, 3 failure).
 */
export function renderHook(o: RenderHookOptions): string {
  const exports = Object.entries(o.env ?? {}).map(([k, v]) => `export ${k}=${shellQuote(v)}\n`).join('');
  const evidence = o.evidenceCommand !== undefined ? ` --evidence-cmd ${shellQuote(o.evidenceCommand)}` : '';
  const args = o.allowMock ? HOOK_GATE_ARGS.replace(' --message-file', ` ${ALLOW_MOCK_ARG} --message-file`) : HOOK_GATE_ARGS;
  return `#!/bin/sh
${HOOK_MARKER} — installed by \`jevcp hook install\`; remove with \`jevcp hook uninstall\`.
# Judges each commit with \`jevcp gate --hook\` (jev_gate on the staged change and this message), through
# the editor when one with Jev is open on this repository, else with the CLI configuration (JEV_*).
# Skip once: git commit --no-verify. Let commits through when the judge fails: ${FAIL_OPEN_ENV}=1.
# A previous commit-msg hook is kept beside this file as ${CHAINED_NAME} and runs first.
${o.createdDir ? `${CREATED_DIR_LINE}\n` : ''}
jev_node=${shellQuote(o.nodePath ?? '')}
jev_cli=${shellQuote(o.cliPath ?? '')}
jev_launcher=${shellQuote(o.launcherPath)}

# The previous hook runs under this file's name: hooks that find their files through $0 (husky's
# stubs use basename/dirname of $0) keep working. Shell scripts are sourced by their own interpreter
# with $0 set to this hook; anything else runs directly.
jev_chained="$(dirname -- "$0")/${CHAINED_NAME}"
jev_run_chained() {
  jev_shebang=$(head -n 1 "$jev_chained" | sed -n 's/^#![[:space:]]*//p')
  jev_interp=\${jev_shebang%% *}
  case "$jev_interp" in
    */env) jev_shebang=\${jev_shebang#* }; jev_interp=\${jev_shebang%% *} ;;
  esac
  case "\${jev_interp##*/}" in
    sh|bash|dash|ksh|zsh) JEV_CHAINED_HOOK="$jev_chained" $jev_shebang -c '. "$JEV_CHAINED_HOOK"' "$0" "$@" ;;
    *) "$jev_chained" "$@" ;;
  esac
}
if [ -f "$jev_chained" ] && [ -x "$jev_chained" ]; then
  jev_run_chained "$@" || exit $?
fi

# What runs the gate: the installed CLI (under its node, else node from PATH), else the launcher.
jev_gate() {
  jev_no_node=
  if [ -n "$jev_cli" ] && [ -f "$jev_cli" ]; then
    if [ -x "$jev_node" ]; then "$jev_node" "$jev_cli" "$@"; return $?; fi
    jev_path_node=$(command -v node 2>/dev/null)
    if [ -n "$jev_path_node" ]; then "$jev_path_node" "$jev_cli" "$@"; return $?; fi
    jev_no_node=1
  fi
  if [ -x "$jev_launcher" ]; then "$jev_launcher" "$@"; return $?; fi
  if [ -n "$jev_no_node" ]; then
    echo "jev gate: cannot run the gate: node is missing — the node jevcp was installed with ($jev_node) is gone and there is no node on PATH (jevcp itself is there: $jev_cli) — install Node or put it on PATH, then run 'jevcp hook install' again, or commit with --no-verify" >&2
    return ${CANNOT_RUN_STATUS}
  fi
  echo "jev gate: cannot run the gate: neither jevcp (\${jev_cli:-not installed from the CLI}) nor the editor's launcher ($jev_launcher) is there — run 'jevcp hook install' again (or 'Jev: Install Commit Hook' in the editor), or commit with --no-verify" >&2
  return ${CANNOT_RUN_STATUS}
}

${exports}jev_gate ${args} "$1"${evidence}
jev_status=$?
if [ "$jev_status" -eq ${CANNOT_RUN_STATUS} ]; then
  case "$(printf '%s' "\${${FAIL_OPEN_ENV}:-}" | tr 'A-Z' 'a-z')" in
    1|true|yes|on)
      echo "jev gate: WARNING: ${FAIL_OPEN_ENV} is set — letting this commit through UNJUDGED." >&2
      exit 0 ;;
  esac
  exit 3
fi
exit $jev_status
`;
}

/** Whether `text` is a hook written by `renderHook`. */
export function isJevHook(text: string): boolean {
  return text.split('\n', 3)[1]?.startsWith(HOOK_MARKER) === true;
}

/** The `--evidence-cmd` a hook written by `renderHook` passes to the gate, or undefined when it passes none. */
export function hookEvidenceCommand(text: string): string | undefined {
  const m = /^jev_gate [^\n]*"\$1" --evidence-cmd '((?:[^'\n]|'\\'')*)'$/m.exec(text);
  return m ? m[1]!.replace(/'\\''/g, "'") : undefined;
}

/** What a hook written by `renderHook` runs ('' or undefined when a line is missing or empty). */
export function hookPaths(text: string): { nodePath?: string; cliPath?: string; launcherPath?: string; allowMock: boolean; evidenceCommand?: string } {
  const unquote = (name: string) => {
    const m = new RegExp(`^${name}='((?:[^']|'\\\\'')*)'$`, 'm').exec(text);
    const value = m ? m[1]!.replace(/'\\''/g, "'") : undefined;
    return value === '' ? undefined : value;
  };
  const evidenceCommand = hookEvidenceCommand(text);
  return {
    nodePath: unquote('jev_node'),
    cliPath: unquote('jev_cli'),
    launcherPath: unquote('jev_launcher'),
    allowMock: text.includes(` ${ALLOW_MOCK_ARG} --message-file`),
    ...(evidenceCommand === undefined ? {} : { evidenceCommand }),
  };
}
