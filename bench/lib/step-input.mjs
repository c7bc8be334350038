// The jev_step request the overhead benches send: a failing parser task and 32 eligible prepared calls
// (alternating read_file / run_command), so every bench measures the same 41-question request.

/** jev_step arguments with `n` eligible candidates (default 32, the per-call maximum). */
export function stepInput(n = 32) {
  return {
    task: 'Fix the parser so that empty input returns an empty config, and add a regression test.',
    observation: "TypeError: Cannot read properties of undefined (reading 'split') at parseConfig (src/parser.ts:14:22); 1 failing, 11 passing.",
    execution: { context_complete: true, failed_attempts: 0 },
    candidates: Array.from({ length: n }, (_, i) => ({
      id: `call-${i}`,
      name: i % 2 ? 'read_file' : 'run_command',
      arguments: i % 2 ? { path: `src/module${i}.ts` } : { command: `npm test -- module${i}`, cwd: '.' },
      description: i % 2 ? `Read src/module${i}.ts to see how empty input is handled` : `Run the unit tests of module ${i}`,
      effect: i % 2 ? 'read_only' : 'local_write',
      authorized: true,
      schema_valid: true,
      preconditions_met: true,
      failed_attempts: 0,
    })),
  };
}
