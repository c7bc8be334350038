// Test-only server of the chat-like MCP Apps host (host.html + host.ts bundled with esbuild) on
// 127.0.0.1, and of views on http://localhost (another origin, as a host's sandbox is). Each view is served
// with the Content-Security-Policy a host builds from the resource's `_meta.ui.csp` (empty lists: no
// network, no outside resources, inline script and style only) plus a report-uri, so every violation is
// recorded in `violations`. Used by test/e2e/card-check.mjs and bench/card.mjs.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/** CSP of a view from its `_meta.ui.csp` (domains lists; empty or absent: nothing outside allowed). */
export function viewCsp(csp = {}, reportUri) {
  const list = (v) => (Array.isArray(v) && v.length ? v.join(' ') : '');
  const res = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${res}`.trim(),
    `style-src 'unsafe-inline' ${res}`.trim(),
    `img-src data: ${res}`.trim(),
    `font-src data: ${res}`.trim(),
    `connect-src ${list(csp.connectDomains) || "'none'"}`,
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    `base-uri ${list(csp.baseUriDomains) || "'none'"}`,
    "object-src 'none'",
    "form-action 'none'",
    `report-uri ${reportUri}`,
  ].join('; ');
}

/** Starts the host server. Returns { hostUrl, addView(html, csp) → url, violations, close() }. */
export async function startCardHost() {
  const bundle = await build({
    entryPoints: [join(here, 'host.ts')], bundle: true, write: false, format: 'iife', platform: 'browser', target: 'es2022', logLevel: 'warning',
  });
  const hostJs = bundle.outputFiles[0].text;
  const hostHtml = readFileSync(join(here, 'host.html'), 'utf8');
  const views = new Map();
  const violations = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/csp-report') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        try {
          violations.push(JSON.parse(body));
        } catch {
          violations.push({ raw: body });
        }
        res.writeHead(204).end();
      });
      return;
    }
    const view = url.pathname.startsWith('/view/') ? views.get(url.pathname.slice(6)) : undefined;
    if (view) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': view.csp, 'cache-control': 'no-store' });
      res.end(view.html);
      return;
    }
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
    if (url.pathname === '/host.html') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostHtml);
    if (url.pathname === '/host.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(hostJs);
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  return {
    hostUrl: `http://127.0.0.1:${port}/host.html`,
    addView(html, csp) {
      const id = randomUUID();
      views.set(id, { html, csp: viewCsp(csp, `http://localhost:${port}/csp-report`) });
      return `http://localhost:${port}/view/${id}`;
    },
    violations,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Style variables a host sends (MCP Apps host context `styles.variables`): light, dark and a high-contrast dark. */
export const HOST_VARIABLES = {
  light: {
    '--color-background-primary': '#ffffff',
    '--color-background-secondary': '#f0efeb',
    '--color-text-primary': '#1f1e1d',
    '--color-text-secondary': '#5e5d59',
    '--color-border-primary': '#dedcd5',
    '--color-text-success': '#1f7a3a',
    '--color-text-warning': '#8a5a00',
    '--color-text-danger': '#b42318',
    '--color-text-info': '#2a5bd7',
    '--font-sans': 'system-ui, -apple-system, "Segoe UI", sans-serif',
    '--font-mono': 'ui-monospace, "DejaVu Sans Mono", monospace',
    '--border-radius-md': '8px',
  },
  dark: {
    '--color-background-primary': '#262624',
    '--color-background-secondary': '#30302e',
    '--color-text-primary': '#f5f4ef',
    '--color-text-secondary': '#b7b5a9',
    '--color-border-primary': '#45443f',
    '--color-text-success': '#5fd38a',
    '--color-text-warning': '#f0b849',
    '--color-text-danger': '#ff7b72',
    '--color-text-info': '#8ab4ff',
    '--font-sans': 'system-ui, -apple-system, "Segoe UI", sans-serif',
    '--font-mono': 'ui-monospace, "DejaVu Sans Mono", monospace',
    '--border-radius-md': '8px',
  },
  'high-contrast': {
    '--color-background-primary': '#000000',
    '--color-background-secondary': '#000000',
    '--color-text-primary': '#ffffff',
    '--color-text-secondary': '#ffffff',
    '--color-border-primary': '#6fc3df',
    '--color-text-success': '#89d185',
    '--color-text-warning': '#ffd700',
    '--color-text-danger': '#ff6b6b',
    '--color-text-info': '#6fc3df',
    '--color-ring-primary': '#f38518',
    '--font-sans': 'system-ui, -apple-system, "Segoe UI", sans-serif',
    '--font-mono': 'ui-monospace, "DejaVu Sans Mono", monospace',
  },
};
