import { invalidInput } from '../../judgment/errors';
import { parseCommandArgs } from '../args';
import { readJsonInput } from '../input';
import type { CliCommand, CliIO } from '../io';
import { callAndPrint } from '../outcome';
import { reportError, wantsJson } from '../report';
import { createRuntime } from '../runtime';
import { splitRequestFile } from '../../request-files/read';

/**
 * `jevcp step FILE.jev.json [--json]`: runs the request file's tool (default jev_step) and prints the
 * decision: handoff, action, reason codes, thresholds, selected call, signals, labelled with the model.
 * With `--agent NAME [--execute]` the step runs through the agent's registry (`delegate`).
 * Exit 0 on a decision, 2 invalid input/config, 3 provider failure.
 */
export function makeStepCommand(delegate?: (args: string[], io: CliIO) => Promise<number>): CliCommand {
  return async (args, io) => {
    if (delegate && args.some((a) => a === '--agent' || a.startsWith('--agent='))) return delegate(args, io);
    try {
      const end = args.indexOf('--');
      const agentOnly = (end < 0 ? args : args.slice(0, end)).find((a) => /^--(execute|config)(=|$)/.test(a));
      if (agentOnly) throw invalidInput(`step: ${agentOnly.split('=')[0]} needs --agent NAME (the agent whose tool registry prepares and runs the call), e.g. \`jevcp step FILE --agent coder --execute\`.`);
      const { values, positionals } = parseCommandArgs('step', args, { json: { type: 'boolean' } }, true);
      if (positionals.length !== 1) throw invalidInput('step: give exactly one request file, e.g. `jevcp step examples/parser-fix.jev.json`.');
      const file = positionals[0]!;
      if (file.trim() === '') throw invalidInput('step: the request file argument is empty; give a path such as examples/parser-fix.jev.json.');
      const runtime = createRuntime(io);
      try {
        const { tool, input } = splitRequestFile(await readJsonInput(file, io), file);
        return await callAndPrint(io, runtime.service, tool, input, values.json === true, `${file}: tool: `);
      } finally {
        runtime.close();
      }
    } catch (err) {
      return reportError(io, err, wantsJson(args));
    }
  };
}
