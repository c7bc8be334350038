/**
 * The layering rules fail on a deliberate violation, with a message that names the rule: dependency-cruiser
 * (.dependency-cruiser.cjs) over a small tree of forbidden imports written to a temporary folder, and ESLint
 * (eslint.config.mjs) over snippets placed in the folders the rules are about. The real tree passing them
 * is `npm run lint`'s job.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { ESLint as ESLintType, Linter } from 'eslint';

const ROOT = join(__dirname, '..', '..');

describe('dependency rules (dependency-cruiser)', () => {
  let dir: string;
  /** `rule: from → to` for every violation found in the temporary tree. */
  let found: string[];
  let text: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jev-layering-'));
    const files: Record<string, string> = {
      'src/panel/uses-vscode.ts': "import * as vscode from 'vscode';\nexport const uri = vscode.Uri;\n",
      'src/gate/uses-cli.ts': "import { io } from '../cli/io';\nexport const x = io;\n",
      'src/cli/io.ts': 'export const io = 1;\n',
      'src/cli/uses-extension.ts': "import { e } from '../extension/wiring';\nexport const x = e;\n",
      'src/extension/wiring.ts': "import { io } from '../cli/io';\nexport const e = io;\n",
      'src/tools/uses-webview.ts': "import { v } from '../../webview/view';\nexport const x = v;\n",
      'webview/view.ts': "import { g } from '../src/gate/ok';\nexport const v = g;\n",
      'src/gate/ok.ts': 'export const g = 1;\n',
      'src/judgment/loop-a.ts': "import { b } from './loop-b';\nexport const a = (): number => b();\n",
      'src/judgment/loop-b.ts': "import { a } from './loop-a';\nexport const b = (): number => a();\n",
      // A type-only import closing a loop is allowed (erased when built).
      'src/ledger/type-a.ts': "import type { B } from './type-b';\nexport interface A { b?: B }\nexport const a = 1;\n",
      'src/ledger/type-b.ts': "import { a } from './type-a';\nexport type B = typeof a;\n",
    };
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), content);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the config is CommonJS
    const config = require(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: unknown[]; options: Record<string, unknown> };
    const { cruise } = await import('dependency-cruiser');
    const { tsConfig: _tsConfig, ...options } = config.options;
    const result = await cruise(['src', 'webview'], { ...options, baseDir: dir, validate: true, ruleSet: { forbidden: config.forbidden }, outputType: 'err' } as never);
    text = String(result.output);
    const json = await cruise(['src', 'webview'], { ...options, baseDir: dir, validate: true, ruleSet: { forbidden: config.forbidden }, outputType: 'json' } as never);
    const summary = (JSON.parse(String(json.output)) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } }).summary;
    found = summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names vscode-only-in-extension for a vscode import in the core', () => {
    assert.ok(found.some((v) => /^vscode-only-in-extension: src\/panel\/uses-vscode\.ts → vscode$/.test(v)), found.join('\n'));
    assert.match(text, /error vscode-only-in-extension: src\/panel\/uses-vscode\.ts/);
  });

  it('names core-not-to-faces for the core importing the CLI or webview', () => {
    assert.ok(found.includes('core-not-to-faces: src/gate/uses-cli.ts → src/cli/io.ts'), found.join('\n'));
    assert.ok(found.includes('core-not-to-faces: src/tools/uses-webview.ts → webview/view.ts'), found.join('\n'));
    assert.ok(found.includes('src-not-to-webview: src/tools/uses-webview.ts → webview/view.ts'), found.join('\n'));
  });

  it('names cli-not-to-extension and extension-not-to-cli', () => {
    assert.ok(found.includes('cli-not-to-extension: src/cli/uses-extension.ts → src/extension/wiring.ts'), found.join('\n'));
    assert.ok(found.includes('extension-not-to-cli: src/extension/wiring.ts → src/cli/io.ts'), found.join('\n'));
  });

  it('names webview-only-to-panel-policy-tools for webview importing the gate core', () => {
    assert.ok(found.includes('webview-only-to-panel-policy-tools: webview/view.ts → src/gate/ok.ts'), found.join('\n'));
  });

  it('names no-circular for a runtime cycle, not for a cycle closed by a type-only import', () => {
    assert.ok(found.some((v) => v.startsWith('no-circular: src/judgment/loop-')), found.join('\n'));
    assert.ok(!found.some((v) => v.includes('src/ledger/type-')), found.join('\n'));
  });

  it('finds nothing else: allowed imports pass', () => {
    assert.equal(found.filter((v) => !v.startsWith('no-circular')).length, 7, found.join('\n'));
  });
});

describe('ESLint project rules (eslint.config.mjs)', () => {
  let eslint: ESLintType;

  before(async () => {
    const { ESLint } = await import('eslint');
    const tseslint = (await import('typescript-eslint')).default;
    const config = (await import(pathToFileURL(join(ROOT, 'eslint.config.mjs')).href)).default as Linter.Config[];
    // The snippets are not files of the TypeScript project, so type-aware rules are off for them.
    eslint = new ESLint({ cwd: ROOT, overrideConfigFile: true, overrideConfig: [...config, tseslint.configs.disableTypeChecked as Linter.Config] });
  });

  async function lint(path: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
    return result!.messages.map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
  }

  it('no-restricted-imports: a vscode import outside src/extension fails, naming the rule; inside it passes', async () => {
    const code = "import * as vscode from 'vscode';\nexport const uri = vscode.Uri;\n";
    const core = await lint('src/panel/snippet.ts', code);
    assert.equal(core.length, 1, core.join('\n'));
    assert.match(core[0]!, /^no-restricted-imports: 'vscode' import is restricted from being used\. Only src\/extension\/ may import vscode/);
    assert.deepEqual(await lint('webview/snippet.ts', code), core);
    assert.deepEqual(await lint('src/extension/snippet.ts', code), []);
  });

  it('no-console in src/ except the CLI io; eqeqeq everywhere', async () => {
    const code = "export function f(a: unknown): void {\n  if (a == null) console.log('x');\n}\n";
    assert.deepEqual((await lint('src/tools/snippet.ts', code)).map((m) => m.split(':')[0]), ['eqeqeq', 'no-console']);
    assert.deepEqual((await lint('src/cli/io.ts', code)).map((m) => m.split(':')[0]), ['eqeqeq']);
  });
});
