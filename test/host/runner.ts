/**
 * Mocha runner used inside the extension host: runs every `*.test.js` of one folder (the bundled suites)
 * and rejects when a test fails, which sets the exit code the launcher reports.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

/** Runs the suites in `dir` (sorted by file name). */
export function runSuites(dir: string): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
  const grep = process.env.JEV_HOST_GREP;
  if (grep) mocha.grep(grep);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.test.js')).sort()) mocha.addFile(join(dir, file));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} host test(s) failed`)) : resolve()));
  });
}
