import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { invalidInput, JevError } from '../judgment/errors';
import type { CliIO } from './io';
import { fsReason } from './fs-reason';

/** Largest JSON input read from a file or stdin, bytes (matches the stdio server's message limit). */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** Reads all of `stream` as UTF-8. Throws JevError INVALID_INPUT past MAX_INPUT_BYTES. */
export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > MAX_INPUT_BYTES) throw invalidInput(`input is larger than ${MAX_INPUT_BYTES} bytes.`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads and parses JSON from `source`: a file path (relative to `io.cwd`) or `-` for stdin.
 * Throws JevError INVALID_INPUT naming the source when it is empty (`what` names the argument), cannot
 * be read or is not valid JSON.
 */
export async function readJsonInput(source: string, io: CliIO, what = 'the input file argument'): Promise<unknown> {
  // An empty path resolves to the working directory, whose EISDIR would hide the real mistake.
  if (source.trim() === '') throw invalidInput(`${what} is empty; give a file path (or - for stdin).`);
  const label = source === '-' ? 'stdin' : source;
  let text: string;
  if (source === '-') {
    try {
      text = await readStream(io.stdin);
    } catch (err) {
      if (err instanceof JevError) throw err;
      throw invalidInput(`cannot read stdin (${fsReason(err)}).`);
    }
  } else {
    try {
      text = await readFile(resolve(io.cwd, source), 'utf8');
    } catch (err) {
      throw invalidInput(`cannot read ${label} (${fsReason(err)}).`);
    }
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw invalidInput(`${label} is not valid JSON: ${(err as Error).message}`);
  }
}
