/**
 * ARCHITECTURE.md stays true: its folder list is `ls src`, its list of `src/extension/` files without a
 * `vscode` import is exactly the set of such files, and no source file in src/ or webview/ grows past
 * 450 lines (one sitting's reading).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(__dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
const MAX_LINES = 450;

/** The text of the section under `heading` (up to the next heading of the same or a higher level). */
function section(heading: string): string {
  const start = DOC.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `ARCHITECTURE.md has a "${heading}" section`);
  const level = /^#+/.exec(heading)![0];
  const rest = DOC.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** Repository-relative paths of every file below `dir`. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir)).sort()) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

const importsVscode = (path: string) => readFileSync(join(ROOT, path), 'utf8').includes("from 'vscode'");

describe('ARCHITECTURE.md', () => {
  it('lists exactly the folders of src/, in `ls` order', () => {
    const listed = [...section('## Folders').matchAll(/^- `src\/([^/`]+)\/`/gm)].map((m) => m[1]);
    const actual = readdirSync(join(ROOT, 'src'))
      .filter((name) => statSync(join(ROOT, 'src', name)).isDirectory())
      .sort();
    assert.deepEqual(listed, actual);
  });

  it('names every src/extension/ file that does not import vscode, and only those', () => {
    const listed = [...section('### Files in `src/extension/` that do not import `vscode`').matchAll(/^- `(src\/extension\/[^`]+)`/gm)].map((m) => m[1]);
    const actual = filesUnder('src/extension').filter((f) => f.endsWith('.ts') && !importsVscode(f));
    assert.deepEqual(listed.sort(), actual.sort());
  });

  it('has no vscode import outside src/extension/', () => {
    const outside = [...filesUnder('src'), ...filesUnder('webview')].filter((f) => !f.startsWith('src/extension/') && /\.(ts|js)$/.test(f) && importsVscode(f));
    assert.deepEqual(outside, []);
  });

  it(`keeps every source file in src/ and webview/ at ${MAX_LINES} lines or fewer`, () => {
    const long = [...filesUnder('src'), ...filesUnder('webview')]
      .map((f) => ({ f, lines: readFileSync(join(ROOT, f), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    assert.deepEqual(long, []);
  });
});
