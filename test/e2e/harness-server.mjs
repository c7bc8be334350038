// Static harness for fast browser checks of the panel webview (test-only). Serves, on 127.0.0.1 only:
//   /harness.html?view=sidebar|decision&id=ID&rows=N&theme=light|dark|hc  the page (fresh CSP nonce per load)
//   /dist/*                                           the built webview files (webview.js, .css, codicons)
//   /fake-host.js, /theme.css                         the stand-in host and theme variables
//   /fixtures.js                                      real DecisionRecords from `jevcp` runs (mock judge)
// Used by scripts/test-e2e.mjs (harness checks) and bench/panel.mjs.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { chromiumPath } from '../../scripts/vscode-host/ensure-host.mjs';

/** Harness themes (test/e2e/theme.css) and the body class VS Code gives a webview in each. */
export const THEMES = { light: 'vscode-light', dark: 'vscode-dark', hc: 'vscode-high-contrast' };

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.map': 'application/json' };

/**
 * Runs every example request file (examples/*.jev.json) and the e2e fixtures through `dist/cli.js step`
 * with the mock judge and a throwaway ledger, and returns the ledger's DecisionRecords.
 * Requires a build (dist/cli.js). Throws when the CLI cannot run at all.
 */
export function makeFixtureRecords(root, dist = join(root, 'dist')) {
  const cli = join(dist, 'cli.js');
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run node scripts/build.mjs first');
  const dir = mkdtempSync(join(tmpdir(), 'jev-harness-'));
  const ledger = join(dir, 'ledger.jsonl');
  const env = { PATH: process.env.PATH, HOME: dir, JEV_MOCK: '1', JEV_LEDGER: ledger };
  const files = [
    ...readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.jev.json')).map((f) => join(root, 'examples', f)),
    ...readdirSync(join(root, 'test/e2e/fixtures')).filter((f) => f.endsWith('.jev.json')).map((f) => join(root, 'test/e2e/fixtures', f)),
  ];
  try {
    for (const f of files) {
      try {
        execFileSync(process.execPath, [cli, 'step', f, '--json'], { env, stdio: ['ignore', 'ignore', 'ignore'] });
      } catch {
        // Exit 1 (gate not passed) and 2 (invalid input) still write their record: that is the point.
      }
    }
    const records = readFileSync(ledger, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    if (records.length === 0) throw new Error('the CLI wrote no ledger records');
    return records;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts the harness server on a random 127.0.0.1 port. Returns { origin, url(params), close() }.
 * `dist` is the build to serve (default root/dist); `records` defaults to makeFixtureRecords(root, dist).
 */
export async function startHarness({ root, dist = join(root, 'dist'), records = makeFixtureRecords(root, dist) }) {
  const fixtures = `window.__JEV_FIXTURES__ = ${JSON.stringify({ records }).replace(/</g, '\\u003c')};\n`;
  const template = readFileSync(join(root, 'test/e2e/harness.html'), 'utf8');
  const files = {
    '/fake-host.js': join(root, 'test/e2e/fake-host.js'),
    '/theme.css': join(root, 'test/e2e/theme.css'),
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status, type, body) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === '/harness.html') {
      const nonce = randomBytes(16).toString('base64');
      const view = url.searchParams.get('view') === 'decision' ? 'decision' : 'sidebar';
      const id = url.searchParams.get('id');
      const theme = Object.hasOwn(THEMES, url.searchParams.get('theme') ?? '') ? url.searchParams.get('theme') : 'dark';
      const html = template
        .replace('{{THEME}}', theme)
        .replaceAll('{{THEME_CLASS}}', THEMES[theme])
        .replaceAll('{{NONCE}}', nonce)
        .replace('{{VIEW}}', view)
        .replace('{{DECISION}}', id ? ` data-decision-id="${id.replace(/[^\w.-]/g, '')}"` : '');
      return send(200, TYPES['.html'], html);
    }
    if (url.pathname === '/fixtures.js') return send(200, TYPES['.js'], fixtures);
    if (url.pathname === '/favicon.ico') return send(204, 'image/x-icon', '');
    let file = files[url.pathname];
    if (!file && url.pathname.startsWith('/dist/')) {
      const candidate = normalize(join(dist, url.pathname.slice('/dist/'.length)));
      if (candidate.startsWith(normalize(dist) + sep)) file = candidate;
    }
    if (!file || !existsSync(file)) return send(404, 'text/plain', 'not found');
    return send(200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    records,
    url: (params = {}) => `${origin}/harness.html?${new URLSearchParams(params)}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Chromium for playwright-core: $CHROMIUM, else the VS Code host's, installed first when missing (scripts/vscode-host/ensure-host.mjs). */
export { chromiumPath };

/** Flags for headless Chromium here: no sandbox (root), no GPU, nothing that phones home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
