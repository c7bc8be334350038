import { parseArgs, type ParseArgsConfig } from 'node:util';
import { invalidInput } from '../judgment/errors';

/**
 * node:util parseArgs's message without its advice about `--` (that advice quotes the option with an
 * unclosed quote and is about positionals, not the usual mistake), as one sentence.
 */
export function cleanParseArgsMessage(message: string): string {
  const first = message.split(/\. To specify a positional argument/)[0]!.trim();
  return first.endsWith('.') ? first : `${first}.`;
}

/**
 * node:util parseArgs in strict mode; its errors (unknown option, missing value, unexpected positional)
 * become JevError INVALID_INPUT (exit 2) with the parser's message, cleaned, and where to find the usage.
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
    throw invalidInput(`${command}: ${cleanParseArgsMessage((err as Error).message)} See \`jevcp ${command} --help\`.`);
  }
}
