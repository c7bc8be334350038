/**
 * Entry of the runtime bundle `dist/extension-core.js` (scripts/build.mjs): everything heavy the activation
 * shell (`dist/extension.js`) needs only once something is used. Loaded by core-host.ts.
 */
export { JevRuntime } from './runtime';
export { PanelConnection } from './panel-connection';
export { importMcpJson, planImport } from '../registry/mcp-json';
export { createInlineAndGate } from './inline/inline-and-gate';
