// ensure-tools.mjs: installs the official MCP conformance suite and the Node 22 it needs, on first use,
// into $JEV_CONFORMANCE_DIR (default ~/.cache/jev-conformance), the way scripts/vscode-host/ setup.sh
// installs the VS Code host: from the npm registry only, without touching the system Node (the npm
// package `node` ships a prebuilt binary). Not devDependencies: `node@22` there would put a second
// `node` on every npm script's PATH.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The suite's version; its scenarios and checks change between versions. */
export const CONFORMANCE_VERSION = '0.1.16';
const NODE_MAJOR = '22';

/** The tools folder. */
export function conformanceDir() {
  return process.env.JEV_CONFORMANCE_DIR || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'jev-conformance');
}

/** Paths of the Node 22 binary and the suite's CLI script inside `dir`. */
export function conformanceTools(dir = conformanceDir()) {
  return {
    node: path.join(dir, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node'),
    suite: path.join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
  };
}

function installedVersion(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** Installs the tools when missing (or at another version). Returns the paths, or null when the install failed. */
export function ensureConformanceTools(say = (m) => console.log(m)) {
  const dir = conformanceDir();
  const tools = conformanceTools(dir);
  if (fs.existsSync(tools.node) && installedVersion(dir) === CONFORMANCE_VERSION) return tools;
  say(`installing node@${NODE_MAJOR} and @modelcontextprotocol/conformance@${CONFORMANCE_VERSION} into ${dir}`);
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, 'package.json'))) fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "jev-conformance-tools", "private": true }\n');
  // Inside `npm test` the outer npm exports its settings as npm_config_*; they must not steer this install.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|init_cwd$)/i.test(k)));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', `node@${NODE_MAJOR}`, `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`], { cwd: dir, env, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0 || !fs.existsSync(tools.node) || !fs.existsSync(tools.suite)) return null;
  return tools;
}
