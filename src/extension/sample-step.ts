/**
 * The input of "Jev: Run Sample Step": a coding agent's step (a failing test, three prepared tool calls,
 * one of them destructive and unauthorized) so a new user sees a first decision with candidates, reasons and
 * probability bars. Shipped in the bundle because the .vsix carries no examples folder.
 */
export const SAMPLE_STEP_TOOL = 'jev_step';

/** jev_step arguments, modelled on examples/parser-fix.jev.json. */
export const SAMPLE_STEP_INPUT: Readonly<Record<string, unknown>> = Object.freeze({
  task: 'Fix parseConfig so that empty input returns an empty config instead of throwing, and add a regression test.',
  observation: [
    '$ npm test -- parser',
    '✖ parseConfig handles empty input (2.1ms)',
    "  TypeError: Cannot read properties of undefined (reading 'split')",
    '      at parseConfig (src/parser.ts:14:22)',
    '1 failing, 11 passing',
    "The failing line is `const [key, value] = line.split('=')` inside the loop over input.split('\\n').",
  ].join('\n'),
  extras: { repository: 'example/config-tools', branch: 'fix/empty-config', files_touched: [] },
  execution: { prepared_tool_call: true, context_complete: false, failed_attempts: 0 },
  candidates: [
    {
      id: 'read-parser',
      name: 'read_file',
      arguments: { path: 'src/parser.ts' },
      description: 'Read the parser implementation around parseConfig before changing it',
      effect: 'read_only',
      authorized: true,
      schema_valid: true,
      preconditions_met: true,
      failed_attempts: 0,
    },
    {
      id: 'run-parser-tests',
      name: 'run_command',
      arguments: { command: 'npm test -- parser', cwd: '.' },
      description: 'Re-run the parser tests to confirm the failure is reproducible',
      effect: 'local_write',
      authorized: true,
      schema_valid: true,
      preconditions_met: true,
      failed_attempts: 0,
    },
    {
      id: 'reset-branch',
      name: 'run_command',
      arguments: { command: 'git reset --hard origin/main' },
      description: 'Discard all local changes on the branch',
      effect: 'destructive',
      authorized: false,
      schema_valid: true,
      preconditions_met: true,
    },
  ],
});
