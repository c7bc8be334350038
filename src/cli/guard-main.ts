/**
 * The lean entry of the permission hook, bundled as dist/guard.js: `node dist/guard.js guard --host H …`
 * does what `jevcp guard --host H …` does, but loads only the guard (hosts, rules, grants, config file), so a
 * call the rules settle costs little more than starting node. When a call needs judging it loads the full
 * CLI beside it (dist/cli.js) for the judge, and so does a PostToolUse result that is screened (the
 * screener and jev_screen); install, uninstall and status are handed to the full CLI.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseCommandArgs } from './args';
import type { cliGuardJudge as CliGuardJudge, cliScreenJudge as CliScreenJudge } from './guard-hook/judge';
import { runGuardHook } from './guard-hook/run-hook';
import { EXIT, type CliIO } from './io';
import type { Runtime } from './runtime';
import { safeText } from './safe-text';

interface FullCli {
  cliGuardJudge: typeof CliGuardJudge;
  cliScreenJudge: typeof CliScreenJudge;
  runCli: (argv: string[], io: CliIO) => Promise<number>;
}

/** dist/cli.js, loaded on first need (a non-literal path keeps the bundler from inlining it). */
function fullCli(): FullCli {
  return createRequire(__filename)(join(__dirname, 'cli.js')) as FullCli;
}

async function main(): Promise<void> {
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const io: CliIO = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
  const argv = process.argv.slice(2);
  const args = argv[0] === 'guard' ? argv.slice(1) : argv;
  let code: number;
  try {
    // Anything but the hook itself (install, uninstall, status, help, a positional) goes to the full CLI.
    if (args.some((a) => ['install', 'uninstall', 'status', '--help', '-h'].includes(a))) {
      code = await fullCli().runCli(['guard', ...args], io);
    } else {
      const { values } = parseCommandArgs('guard', args, { host: { type: 'string' }, agent: { type: 'string' }, config: { type: 'string' }, 'deadline-ms': { type: 'string' } });
      code = await runGuardHook(io, values, (host) => {
        const hold: { runtime?: Runtime } = {};
        return {
          judge: (event, agent) => fullCli().cliGuardJudge(io, host, hold)(event, agent),
          screen: (event, agent) => fullCli().cliScreenJudge(io, hold, host)(event, agent),
          close: () => hold.runtime?.close(),
        };
      });
    }
  } catch (err) {
    io.stderr.write(safeText(`jevcp: ${(err as Error)?.message ?? String(err)}\n`));
    code = (err as { code?: string }).code === 'INVALID_INPUT' ? EXIT.INVALID : EXIT.OPERATIONAL;
  }
  await new Promise<void>((resolve) => io.stdout.write('', () => resolve()));
  await new Promise<void>((resolve) => io.stderr.write('', () => resolve()));
  process.exit(code);
}

if (require.main === module) void main();
