import { cancelled, invalidInput, isAbortError, JevError } from '../judgment/errors';
import { errnoCode, fsReason } from './fs-reason';
import type { CliIO } from './io';
import { exitCodeForError } from './runtime';
import { clip, safeText } from './safe-text';

/**
 * The JevError a CLI command reports for `err`. JevErrors stand; an abort is CANCELLED; an fs error is
 * INVALID_INPUT naming its path (when it has one) and the reason (`ENOENT: does not exist`); anything else
 * is a bug in jevcp, said so plainly — never "a failure while judging" for a command that judged nothing.
 * (The CLI has no separate code for that, so it keeps API_ERROR and exit 3; the message tells the truth.)
 */
export function cliError(err: unknown): JevError {
  if (err instanceof JevError) return err;
  if (isAbortError(err)) return cancelled();
  if (errnoCode(err) && typeof (err as { syscall?: unknown }).syscall === 'string') {
    const path = (err as { path?: unknown }).path;
    return invalidInput(`${typeof path === 'string' ? `${clip(path)}: ` : ''}${fsReason(err)}.`);
  }
  const e = err as { name?: unknown; message?: unknown } | null;
  const what = `${typeof e?.name === 'string' ? e.name : 'Error'}${typeof e?.message === 'string' && e.message ? `: ${clip(e.message)}` : ''}`;
  return new JevError('API_ERROR', `internal error in jevcp (${what}); this is not a provider failure — please report it.`, { cause: err });
}

/**
 * True when the command line asks for JSON output: a `--json` before any `--`. Checked on the raw
 * arguments so even an argument error can be reported as JSON.
 */
export function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).includes('--json');
}

/**
 * Reports a command-level failure: `jevcp: CODE: message` on stderr and, with `json`, the same error as
 * `{"error":{"code","message","retryable"}}` on stdout (like a tool error). Returns the exit code:
 * 2 invalid input/configuration, 3 otherwise (runtime.ts `exitCodeForError`).
 */
export function reportError(io: CliIO, err: unknown, json = false): number {
  const error = cliError(err);
  if (json) io.stdout.write(`${JSON.stringify({ error: error.toJSON() }, null, 2)}\n`);
  io.stderr.write(safeText(`jevcp: ${error.code}: ${error.message}\n`));
  return exitCodeForError(error);
}
