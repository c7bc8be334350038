import { parseArgs, type ParseArgsConfig } from 'node:util';
import { invalidInput } from '../judgment/errors';

/**
 * node:util parseArgs in strict mode; its errors (unknown option, missing value, unexpected positional)
 * become JevError INVALID_INPUT so the command exits 2 with the parser's message.
 */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  args: string[],
  options: T,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    throw invalidInput(`${command}: ${(err as Error).message}`);
  }
}
