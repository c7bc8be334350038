import { PACKAGE_VERSION } from '../../mcp/identity';
import { EXIT, type CliCommand } from '../io';

/** Usage text of `jevcp`. */
export const USAGE = `jevcp ${PACKAGE_VERSION} — typed judgments for coding agents (Jev Control Panel)

Usage:
  jevcp serve [--http PORT]           MCP server on stdio (14 judgment tools, jev://packs resources), or
                                      Streamable HTTP on 127.0.0.1:PORT/mcp (0 = random) with a bearer token
                                      (JEV_HTTP_TOKEN, 32+ characters; else generated, shown once on stderr)
  jevcp serve --agent NAME [--config F] [--http PORT]
                                      serve agent NAME's granted judgment tools and MCP server tools
                                      (<server>__<tool>), capability-checked and recorded
  jevcp call TOOL [--input FILE|-] [--json]
                                      run one tool on a JSON input (file or stdin)
  jevcp step FILE.jev.json [--json]   run a request file ({"tool": …, …input}; tool defaults to jev_step)
  jevcp step FILE --agent NAME [--execute] [--config F] [--json]
                                      prepare candidates from an agent's tool registry and judge them; with
                                      --execute, run the call only when the decision accepts it
  jevcp gate --staged [--message-file F] [--claim TEXT]... [--evidence-cmd CMD] [--evidence-timeout MS]
             [--allow-mock] [--json]  judge the staged change before committing
  jevcp gate --range BASE..HEAD [--claim TEXT]... [--evidence-cmd CMD] [--allow-mock] [--json]
                                      judge a pull request in CI: the diff from the merge base, the commits'
                                      claims; GitHub Actions annotations and $GITHUB_STEP_SUMMARY
  jevcp hook install|uninstall|status [--repo DIR] [--evidence-cmd CMD|--no-evidence-cmd] [--allow-mock]
             [--shared] [--json]      commit-msg hook running the gate on every commit, through the editor
                                      when one with Jev is open on the repository (chains an existing hook;
                                      a global core.hooksPath needs --shared; without a backend, --allow-mock
                                      for advisory mock verdicts; a reinstall keeps the evidence command
                                      unless --no-evidence-cmd); git commit --no-verify skips it
  jevcp guard --host claude-code|vscode|codex|copilot-cli [--agent NAME] [--config F] [--deadline-ms MS]
                                      permission hook: reads one host hook event on stdin, answers allow, ask or
                                      deny in the host's format (grants and .jev/config.json permissions first,
                                      then jev_permit); never allows on a failure (the host asks instead)
  jevcp guard install|uninstall|status --host H [--scope project|user] [--dir DIR] [--agent NAME] [--json]
                                      write, undo or show the host's hook configuration (merged with other hooks)
  jevcp doctor [--json]               configuration summary and one ping judgment
  jevcp servers [--config F] [--json] MCP servers (.jev/config.json, MCP_SERVERS, MCP_ORACLE), status and tools
  jevcp servers login|logout NAME [--config F] [--json]
                                      sign in to an OAuth server in the browser (BROWSER honoured), or forget
                                      its tokens (kept in JEV_OAUTH_DIR, default ~/.config/jevcp/oauth)
  jevcp ledger show [--last N] [--json] [--file F]
  jevcp ledger replay [--id ID|--last] [--auto-accept X] [--review-at Y] [--block-at Z] [--json] [--file F]
                                      recompute a recorded decision with other thresholds (no upstream call)
  jevcp help [COMMAND]                this text, or one command's usage (also: jevcp COMMAND --help)

Exit codes: 0 ok / gate passed, 1 gate not passed (review or escalate), 2 invalid input or configuration
(no judgment backend included), 3 provider or operational failure (fail-closed). Output into a pipe that
closes early (\`| head\`) is cut short quietly; the exit code is still the command's own.

Environment: JEV_API_KEY (or TYPESAFE_API_KEY), JEV_BASE_URL, JEV_MODEL (jev-latest), JEV_MOCK=1,
JEV_PROVIDER, JEV_AUTO_ACCEPT (0.8), JEV_REVIEW_AT (0.5), JEV_BLOCK_AT (0.75), JEV_TIMEOUT_MS (30000),
JEV_SPEND_CAP (attempts), JEV_LEDGER (JSONL path), MCP_SERVERS, MCP_ORACLE, JEV_HTTP_TOKEN,
JEV_HTTP_MAX_SESSIONS (128) and JEV_HTTP_SESSION_IDLE_MS (600000) (serve --http),
JEV_OAUTH_DIR (OAuth tokens of MCP servers), BROWSER (the sign-in browser).
JEV_GATE_FAIL_OPEN=1: when the judge fails, gate exits 0 with a warning instead of 3 (commits go through
unjudged; the ledger still records the error). Default: fail-closed. JEV_GATE_OVERRIDE="reason": the commit
hook lets a review or escalate verdict through, recorded as an override. JEV_STATE_DIR: where the hook's
launcher, editor channel and approvals live (default $XDG_STATE_HOME/jev-control-panel or ~/.local/state/…).
JEV_GUARD_DEADLINE_MS: the guard's deadline (default 5 s below the host's hook timeout, at most 55 s).
With no backend configured the mock judge answers, and every command says so on stderr; the gate never
passes or blocks on the mock's word (no judgment backend, exit 2; --allow-mock: advisory, exit 0).
`;

/**
 * The usage lines of one subcommand, taken from USAGE (each `  jevcp NAME …` line and its indented
 * continuation lines), plus a pointer to the full usage; undefined for a name USAGE does not list.
 */
export function commandUsage(name: string): string | undefined {
  const lines = USAGE.split('\n');
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    if (/^ {2}jevcp \S/.test(line)) inside = line.startsWith(`  jevcp ${name} `) || line === `  jevcp ${name}`;
    else if (!/^ {3,}\S/.test(line)) inside = false;
    if (inside) out.push(line);
  }
  if (out.length === 0) return undefined;
  return `Usage:\n${out.join('\n')}\n\nExit codes, environment and the other commands: jevcp help\n`;
}

/** `jevcp help [COMMAND]`: the full usage, or one command's usage, on stdout, exit 0. */
export const helpCommand: CliCommand = async (args, io) => {
  io.stdout.write((args[0] !== undefined && commandUsage(args[0])) || USAGE);
  return EXIT.OK;
};
