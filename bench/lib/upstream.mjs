// The fake System One the upstream benchmarks share: bench/fixtures/delayed-systemone.mjs in a child process,
// so its work never shares the measuring process's event loop.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { root } from './bundle.mjs';

/** Starts the fake upstream answering after `delayMs`; resolves with `{ url, stop() }`. */
export function startUpstream(delayMs) {
  const child = fork(join(root, 'bench', 'fixtures', 'delayed-systemone.mjs'), ['--delay', String(delayMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', ({ port }) =>
      resolve({ url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => { child.once('exit', r); child.disconnect(); }) }),
    );
  });
}
