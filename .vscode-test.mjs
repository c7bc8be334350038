// @vscode/test-cli configuration for machines that can download VS Code (@vscode/test-electron). It runs
// the same bundled suites as the offline launcher (scripts/test-host.mjs, which uses code-server here):
//   node scripts/test-host.mjs --bundle-only && npx vscode-test --label host
// test-electron always starts VS Code with --disable-workspace-trust, so the untrusted-workspace suite
// (test/host/untrusted) runs only through scripts/test-host.mjs.
import { defineConfig } from '@vscode/test-cli';

export default defineConfig([
  {
    label: 'host',
    files: 'out/test/host/suites/*.test.js',
    version: process.env.VSCODE_TEST_VERSION ?? 'stable',
    // The extension under test plus the test-only chat model provider (vendor "jev-test").
    extensionDevelopmentPath: ['.', 'test/host/fixtures/chat-model'],
    workspaceFolder: 'out/test/host/workspace',
    launchArgs: ['--disable-extensions'],
    mocha: { ui: 'bdd', timeout: 30_000, color: false },
    ...(process.env.VSCODE_EXECUTABLE ? { useInstallation: { fromPath: process.env.VSCODE_EXECUTABLE } } : {}),
  },
]);
