import { invalidInput } from '../../judgment/errors';
import { parseCommandArgs } from '../args';
import { readJsonInput } from '../input';
import type { CliCommand } from '../io';
import { callAndPrint } from '../outcome';
import { reportError, wantsJson } from '../report';
import { createRuntime } from '../runtime';

/**
 * `jevcp call TOOL [--input FILE|-] [--json]`: runs one judgment tool on a JSON input (a file, or stdin
 * with `-` or when stdin is not a terminal). Exit 0 on a result, 2 invalid input/config, 3 provider failure.
 */
export const callCommand: CliCommand = async (args, io) => {
  try {
    const { values, positionals } = parseCommandArgs('call', args, { input: { type: 'string', short: 'i' }, json: { type: 'boolean' } }, true);
    if (positionals.length !== 1) throw invalidInput('call: give exactly one tool name, e.g. `jevcp call jev_step --input request.json`.');
    const tool = positionals[0]!;
    let source = values.input;
    if (source === undefined) {
      if ((io.stdin as { isTTY?: boolean }).isTTY) throw invalidInput('call: give --input FILE, or pipe the JSON input on stdin (--input -).');
      source = '-';
    }
    if (source.trim() === '') throw invalidInput('call: --input is empty; give a file path, or - for stdin.');
    const runtime = createRuntime(io);
    try {
      const input = await readJsonInput(source, io, 'call: --input');
      return await callAndPrint(io, runtime.service, tool, input, values.json === true, 'call: ');
    } finally {
      runtime.close();
    }
  } catch (err) {
    return reportError(io, err, wantsJson(args));
  }
};
