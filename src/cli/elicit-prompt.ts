import { createInterface } from 'node:readline';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { declineElicitation, type ElicitationHandler, type ElicitationRequest } from '../registry/client-features';
import { parseAnswer, type FormField } from '../registry/elicitation/form';
import type { CliIO } from './io';
import { safeText } from './safe-text';

/**
 * A server's elicitation request answered in the terminal: the question and each field on `output`,
 * answers read line by line from `input`. Enter takes the default shown in brackets; a bad answer is
 * explained and asked again. `n` at the first question declines; end of input (Ctrl-D) or the server
 * giving up cancels. Requests are asked one at a time.
 */

const describe = (f: FormField): string => {
  const hint =
    f.kind === 'boolean' ? 'y/n'
    : f.kind === 'choice' ? f.options.map((o, i) => `${i + 1}=${o.label}`).join(', ')
    : f.kind === 'multi' ? `comma-separated: ${f.options.map((o, i) => `${i + 1}=${o.label}`).join(', ')}`
    : f.kind === 'number' ? (f.integer ? 'whole number' : 'number')
    : f.format ?? '';
  const def = f.default === undefined ? '' : ` [${Array.isArray(f.default) ? f.default.join(',') : typeof f.default === 'boolean' ? (f.default ? 'y' : 'n') : String(f.default)}]`;
  return `${f.label}${f.required ? ' (required)' : ''}${f.description ? ` — ${f.description}` : ''}${hint ? ` (${hint})` : ''}${def}: `;
};

/** Asks one request on `input`/`output`; see the file comment. */
export async function askInTerminal(request: ElicitationRequest, input: NodeJS.ReadableStream, output: NodeJS.WritableStream, signal?: AbortSignal): Promise<ElicitResult> {
  const rl = createInterface({ input, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const aborted = new Promise<null>((resolve) => {
    if (signal?.aborted) resolve(null);
    signal?.addEventListener('abort', () => resolve(null), { once: true });
  });
  const readLine = async (prompt: string): Promise<string | null> => {
    output.write(safeText(prompt));
    const next = await Promise.race([lines.next(), aborted]);
    return next === null || next.done ? null : next.value;
  };
  try {
    output.write(safeText(`\njevcp: MCP server ${JSON.stringify(request.server)} asks: ${request.message}\n`));
    const go = await readLine('Answer? [Y/n] (n declines, Ctrl-D cancels): ');
    if (go === null) return { action: 'cancel' };
    if (/^\s*n(o)?\s*$/i.test(go)) return { action: 'decline' };
    const content: Record<string, unknown> = {};
    for (const field of request.fields) {
      for (;;) {
        const text = await readLine(`  ${describe(field)}`);
        if (text === null) return { action: 'cancel' };
        const answer = parseAnswer(field, text);
        if (answer.ok) {
          if (answer.value !== undefined) content[field.name] = answer.value;
          break;
        }
        output.write(safeText(`  ${answer.error}\n`));
      }
    }
    return { action: 'accept', content: content as ElicitResult['content'] };
  } finally {
    rl.close();
  }
}

/**
 * The CLI's elicitation handler: in a terminal (stdin and stderr both TTYs) it asks on stderr, one
 * request at a time; otherwise it declines every request (nobody is there to answer).
 */
export function cliElicitation(io: Pick<CliIO, 'stdin' | 'stderr'>): ElicitationHandler {
  const tty = (s: unknown) => (s as { isTTY?: boolean }).isTTY === true;
  if (!tty(io.stdin) || !tty(io.stderr)) return declineElicitation;
  let queue: Promise<unknown> = Promise.resolve();
  return (request, signal) => {
    const asked = queue.then(() => askInTerminal(request, io.stdin, io.stderr, signal));
    queue = asked.catch(() => undefined);
    return asked;
  };
}
