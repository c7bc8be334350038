/**
 * Reading one hook event from stdin with a size bound: a host that sends more than the bound gets no
 * allow. The rest is read and dropped (the guard's deadline still bounds the wait).
 */

/** Largest event read, bytes (1 MiB). */
export const MAX_EVENT_BYTES = 1024 * 1024;

/** What reading gave: the text, or that it was larger than the bound. */
export type StdinRead = { ok: true; text: string } | { ok: false; tooLarge: true; bytes: number };

/** Reads `stream` to its end, keeping at most `maxBytes`. Rejects on a stream error. */
export function readBounded(stream: NodeJS.ReadableStream, maxBytes = MAX_EVENT_BYTES): Promise<StdinRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const finish = (r: StdinRead | Error) => {
      if (done) return;
      done = true;
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      if (r instanceof Error) reject(r);
      else resolve(r);
    };
    const onData = (chunk: Buffer | string) => {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += b.length;
      // Past the bound the rest is read and dropped, so the host does not fail writing into a closed pipe.
      if (bytes > maxBytes) chunks.length = 0;
      else chunks.push(b);
    };
    const onEnd = () => finish(bytes > maxBytes ? { ok: false, tooLarge: true, bytes } : { ok: true, text: Buffer.concat(chunks).toString('utf8') });
    const onError = (err: Error) => finish(err);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}
