/** Streams and environment of one CLI invocation (injectable for tests). */
export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** Exit codes: 0 ok, 1 gate not passed, 2 invalid input/config, 3 provider/operational failure. */
export const EXIT = Object.freeze({ OK: 0, GATE_NOT_PASSED: 1, INVALID: 2, OPERATIONAL: 3 });

/** One `jevcp` subcommand: receives the arguments after its name; resolves to the exit code. */
export type CliCommand = (args: string[], io: CliIO) => Promise<number>;
