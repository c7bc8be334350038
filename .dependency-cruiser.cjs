// The layering of ARCHITECTURE.md as rules (`npm run lint`, run first by `npm test`). Each rule names the
// arrow it forbids; a violation prints the rule's name, the importing file and the imported one.
// Type-only imports count: a type is part of what a layer knows about.

/** The core: folders that run the same under the CLI, the editor and the MCP servers. */
const CORE = '^src/(judgment|providers|policy|tools|registry|mcp|ledger|gate|guard|channel|screen|panel|config|request-files)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'vscode-only-in-extension',
      comment: 'VS Code API only in the editor adapter (src/extension/); the core and the CLI run without an editor.',
      severity: 'error',
      from: { path: '^(src|webview)/', pathNot: '^src/extension/' },
      to: { path: '^vscode$|node_modules/@types/vscode/' },
    },
    {
      name: 'core-not-to-faces',
      comment: 'The core never imports a face (src/cli/, src/extension/) or the browser bundle (webview/): the faces depend on the core, not back.',
      severity: 'error',
      from: { path: CORE },
      to: { path: '^src/(cli|extension)/|^webview/' },
    },
    {
      name: 'cli-not-to-extension',
      comment: 'The two faces are siblings: what both need belongs in the core.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/extension/' },
    },
    {
      name: 'extension-not-to-cli',
      comment: 'The two faces are siblings: what both need belongs in the core.',
      severity: 'error',
      from: { path: '^src/extension/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'src-not-to-webview',
      comment: 'webview/ is the browser bundle; content the host shares with it lives in src/panel/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^webview/' },
    },
    {
      name: 'webview-only-to-panel-policy-tools',
      comment: 'The browser bundle imports from src/ only the panel content, the policies (what-if) and tool types.',
      severity: 'error',
      from: { path: '^webview/' },
      to: { path: '^src/', pathNot: '^src/(panel|policy|tools)/' },
    },
    {
      name: 'src-not-to-test',
      comment: 'Shipped code never imports test code.',
      severity: 'error',
      from: { path: '^(src|webview)/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      comment:
        'No runtime import cycles: each module can be evaluated after the ones it imports. A type-only import ' +
        'may close a loop (core-host.ts types the lazily required core bundle): it is erased when built.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|out)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.d.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
