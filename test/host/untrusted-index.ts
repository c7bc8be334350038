/** Tests entry of the second host run, in a workspace that is NOT trusted: the suites in untrusted/. */
import { join } from 'node:path';
import { runSuites } from './runner';

export function run(): Promise<void> {
  return runSuites(join(__dirname, 'untrusted'));
}
