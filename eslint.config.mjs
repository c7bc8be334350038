// @ts-check
// ESLint for the whole repository (`npm run lint`, run first by `npm test`). TypeScript gets
// typescript-eslint's type-checked recommended set plus the few project rules below; the plain
// JavaScript scripts get ESLint's recommended set. The layering between folders is checked by
// dependency-cruiser (.dependency-cruiser.cjs), not here, except the one rule ESLint states best:
// `vscode` is imported only under src/extension/.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Only the editor adapter may import VS Code's API (every other folder runs in the CLI too). */
const NO_VSCODE = {
  paths: [{ name: 'vscode', message: 'Only src/extension/ may import vscode: put editor-free code in the core and pass it what it needs.' }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'bench/results/**', 'test-results/**'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Project rules.
      eqeqeq: ['error', 'always'],
      'no-restricted-imports': ['error', NO_VSCODE],
      // A leading underscore marks a binding that is unused on purpose (rest-omit, drained iterators).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // node:test's describe/it/test return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      // An AbortSignal's reason is passed on as the caller gave it (it is typed any).
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],

      // Rules that fight a deliberate style of this codebase.
      // Indexed reads carry `!` on purpose, so the code reads the same under noUncheckedIndexedAccess.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Async implementations of promise-returning ports (Provider.systemOne, MCP handlers) turn a throw into
      // a rejection on purpose, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      // Display code stringifies untrusted wire values (typed unknown) on purpose; `unknown ?? '?'` reads as `{}`.
      '@typescript-eslint/no-base-to-string': 'off',
      // Redaction, safe terminal text and the token estimate match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // The CLI writes through its io (src/cli/io.ts); the extension logs to its output channel.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/io.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['src/extension/**/*.ts', 'test/host/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Tests read parsed JSON (wire results, recorded requests) by path; the assertions are the type check.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: { eqeqeq: ['error', 'always'], 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] },
  },
  {
    files: ['**/*.cjs', 'test/host/fixtures/**/*.js', 'test/agent/scripted-agent/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // Browser code: the e2e harness's fake host, and the functions the Playwright drivers hand to page.evaluate.
    files: ['test/e2e/**', 'test/agent/**/*.mjs', 'bench/panel.mjs', 'scripts/screenshots-inline.mjs', 'scripts/test-e2e.mjs', 'scripts/test-agent.mjs', 'scripts/vscode-host/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
