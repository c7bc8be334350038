import { FAIL_OPEN_ENV } from '../fail-open';

/**
 * The text of the `commit-msg` hook that gates every commit with `jevcp gate --staged`, and reading it
 * back. node and the CLI are called by absolute path: editors often run hooks without the shell's
 * nvm/asdf PATH, where `npx`/`node` are not found. A previous hook (husky, lefthook, commitlint, Gerrit
 * Change-Id…) is kept beside ours as CHAINED_NAME and runs first with the same arguments, so a cheap
 * rejection happens before a paid judgment and a hook that edits the message (Change-Id) does so before
 * the message is judged; when it fails the commit fails.
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
export const HOOK_GATE_ARGS = 'gate --staged --message-file';

/** `'…'` shell quoting (POSIX sh): safe for any byte except NUL. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Options of `renderHook` (validated by `installHook`). */
export interface RenderHookOptions {
  /** Absolute path of the node executable. */
  nodePath: string;
  /** Absolute path of the built CLI, `…/dist/cli.js`. */
  cliPath: string;
  /** Shell command passed as `--evidence-cmd`. */
  evidenceCommand?: string;
  /** Exported before the gate runs, `export NAME='value'`; names must be shell identifiers. */
  env?: Record<string, string>;
  /** Records that the install created the hooks directory. */
  createdDir?: boolean;
}

/**
 * The hook script (POSIX sh). Runs the chained previous hook first (when present and executable, as git
 * would), then `exec node cli gate --staged --message-file "$1"`; the gate's exit code is the hook's
 * (0 pass, 1 not passed, 2 invalid, 3 failure). A missing node or CLI blocks with exit 3 and a hint,
 * unless JEV_GATE_FAIL_OPEN is on.
 */
export function renderHook(o: RenderHookOptions): string {
  const exports = Object.entries(o.env ?? {}).map(([k, v]) => `export ${k}=${shellQuote(v)}\n`).join('');
  const evidence = o.evidenceCommand !== undefined ? ` --evidence-cmd ${shellQuote(o.evidenceCommand)}` : '';
  return `#!/bin/sh
${HOOK_MARKER} — installed by \`jevcp hook install\`; remove with \`jevcp hook uninstall\`.
# Judges each commit with \`jevcp gate --staged\` (jev_gate on the staged change and this message).
# Skip once: git commit --no-verify. Let commits through when the judge fails: ${FAIL_OPEN_ENV}=1.
# A previous commit-msg hook is kept beside this file as ${CHAINED_NAME} and runs first.
${o.createdDir ? `${CREATED_DIR_LINE}\n` : ''}
jev_node=${shellQuote(o.nodePath)}
jev_cli=${shellQuote(o.cliPath)}

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

if [ ! -x "$jev_node" ] || [ ! -f "$jev_cli" ]; then
  echo "jev commit-msg hook: cannot run the gate: node ($jev_node) or the jevcp CLI ($jev_cli) is missing." >&2
  echo "jev commit-msg hook: reinstall it with 'jevcp hook install' (or 'Jev: Install Commit Hook'), or commit with --no-verify." >&2
  case "$(printf '%s' "\${${FAIL_OPEN_ENV}:-}" | tr 'A-Z' 'a-z')" in
    1|true|yes|on)
      echo "jev commit-msg hook: WARNING: ${FAIL_OPEN_ENV} is set — letting this commit through UNJUDGED." >&2
      exit 0 ;;
  esac
  exit 3
fi

${exports}exec "$jev_node" "$jev_cli" ${HOOK_GATE_ARGS} "$1"${evidence}
`;
}

/** Whether `text` is a hook written by `renderHook`. */
export function isJevHook(text: string): boolean {
  return text.split('\n', 3)[1]?.startsWith(HOOK_MARKER) === true;
}

/** The node and CLI paths a hook written by `renderHook` runs (undefined when a line is missing). */
export function hookPaths(text: string): { nodePath?: string; cliPath?: string } {
  const unquote = (name: string) => {
    const m = new RegExp(`^${name}='((?:[^']|'\\\\'')*)'$`, 'm').exec(text);
    return m ? m[1]!.replace(/'\\''/g, "'") : undefined;
  };
  return { nodePath: unquote('jev_node'), cliPath: unquote('jev_cli') };
}
