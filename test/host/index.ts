/** Tests entry of the main host run (a trusted workspace): the suites in suites/. */
import { join } from 'node:path';
import { runSuites } from './runner';

export function run(): Promise<void> {
  return runSuites(join(__dirname, 'suites'));
}
