import { invalidInput } from '../judgment/errors';
import { runOracleServer } from '../registry/oracle-server';
import { callCommand } from './commands/call';
import { doctorCommand } from './commands/doctor';
import { gateCommand } from './commands/gate';
import { guardCommand } from './commands/guard';
import { commandUsage, helpCommand, USAGE } from './commands/help';
import { hookCommand } from './commands/hook';
import { ledgerCommand } from './commands/ledger';
import { serveCommand } from './commands/serve';
import { serversCommand } from './commands/servers';
import { makeStepCommand } from './commands/step';
import { stepAgentCommand } from './commands/step-agent';
import { EXIT, type CliCommand, type CliIO } from './io';

// For the lean guard entry (guard-main.ts, dist/guard.js), which loads this bundle only when a call needs judging.
export { cliGuardJudge, cliScreenJudge } from './guard-hook/judge';
import { wantsJson } from './report';
import { safeText } from './safe-text';

/**
 * Subcommands by name. `step … --agent NAME` is handed to the registry's step-agent command.
 * `oracle-server` is hidden: the deterministic oracle MCP server used by MCP_ORACLE. */
export const COMMANDS: Readonly<Record<string, CliCommand>> = {
  serve: serveCommand,
  call: callCommand,
  step: makeStepCommand(stepAgentCommand),
  gate: gateCommand,
  guard: guardCommand,
  doctor: doctorCommand,
  hook: hookCommand,
  servers: serversCommand,
  ledger: ledgerCommand,
  help: helpCommand,
  'oracle-server': async () => {
    await runOracleServer();
    return EXIT.OK;
  },
};

/**
 * Runs `jevcp ARGS…` and resolves to the exit code. No arguments or `help`/`--help`/`-h` → usage on
 * stdout (0); `jevcp COMMAND --help` → that command's usage (0); an unknown command → usage on stderr (2).
 */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') return helpCommand([], io);
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${USAGE.split(' ')[1]}\n`);
    return EXIT.OK;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    if (wantsJson(rest)) io.stdout.write(`${JSON.stringify({ error: invalidInput(`unknown command ${JSON.stringify(name)}.`).toJSON() }, null, 2)}\n`);
    io.stderr.write(`${safeText(`jevcp: unknown command ${JSON.stringify(name)}`)}\n\n${USAGE}`);
    return EXIT.INVALID;
  }
  const usage = wantsHelp(rest) ? commandUsage(name) : undefined;
  if (usage) {
    io.stdout.write(usage);
    return EXIT.OK;
  }
  return command(rest, io);
}

/** True when `--help` or `-h` comes before any `--` (after it, they are positional values). */
function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * Makes a reader that goes away harmless (`jevcp ledger show --json | head -c 10`): an EPIPE (or any other
 * write error) on `stream` destroys it, later writes to it are dropped, and the command runs to its end and
 * exits with its own exit code — no unhandled 'error' event, no stack trace. Documented in USAGE.
 */
export function tolerateClosedOutput(stream: NodeJS.WritableStream): void {
  stream.on('error', () => {
    // Nothing more can be shown on this stream; the exit code still tells the outcome.
  });
}

/** Process entry: real streams and environment; the exit code is set once the command settles. */
async function main(): Promise<void> {
  tolerateClosedOutput(process.stdout);
  tolerateClosedOutput(process.stderr);
  const io: CliIO = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
  let code: number;
  try {
    code = await runCli(process.argv.slice(2), io);
  } catch (err) {
    // Commands report their own errors; this is a last resort that never prints a stack with secrets.
    io.stderr.write(safeText(`jevcp: unexpected failure (${(err as Error)?.name ?? 'error'}: ${(err as Error)?.message ?? String(err)})\n`));
    code = EXIT.OPERATIONAL;
  }
  process.exitCode = code;
  // Exit once our output is flushed, even if an idle keep-alive socket to the backend is still open.
  await new Promise<void>((resolve) => io.stdout.write('', () => resolve()));
  await new Promise<void>((resolve) => io.stderr.write('', () => resolve()));
  process.exit(code);
}

if (require.main === module) void main();
