/**
 * Entry of the MCP Apps decision card (built into dist/decision-card.html by scripts/build.mjs and served
 * as a `ui://` resource by src/mcp/app-card.ts). It connects to the host with ext-apps' App, takes the
 * tool input and result the host delivers, follows the host's theme (CSS variables, fonts, light/dark)
 * and renders the card. The what-if replays the decision in this page with the panel's engine
 * (src/panel/whatif.ts): no server round trip, no upstream request.
 */
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { h } from '../dom';
import { CARD_ZOD_GLOBAL, floorsUsed, WHAT_IF_GLOBAL, type WhatIfApi } from '../whatif-model';
import { WhatIfView } from '../whatif-view';
import { cardModel, DECISION_META_KEY, type CardModel } from './card-model';
import { renderCard } from './card-view';

// Timing marks for bench/card.mjs (ms since the view's navigation start): bundleStart (the build's banner,
// before any module runs), scriptStart (modules initialised), initSent (ui/initialize), connected (the
// host's answer handled), resultAt, rendered, and painted (the frame after the decision was drawn).
const mark = (name: string): void => void (document.documentElement.dataset[name] = String(performance.now()));
mark('scriptStart');
const root = document.getElementById('app')!;
const app = new App({ name: 'jev-decision-card', version: '1' }, {}, { autoResize: true });
let input: unknown;
let expanded = false;

function applyContext(ctx: McpUiHostContext | undefined): void {
  if (!ctx) return;
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
}

// The what-if engine (tool and policy code, ~64 kB) sits in the page as inert text (scripts/build.mjs):
// it is compiled and run only when the details are built, after the verdict is painted. It uses this zod.
(globalThis as Record<string, unknown>)[CARD_ZOD_GLOBAL] = z;
function loadWhatIf(): Promise<WhatIfApi> {
  const g = globalThis as Record<string, unknown>;
  const code = document.getElementById('jev-whatif');
  if (!g[WHAT_IF_GLOBAL] && code) {
    const script = document.createElement('script');
    script.textContent = code.textContent;
    document.head.append(script); // an inline script runs as it is inserted
  }
  const api = g[WHAT_IF_GLOBAL] as WhatIfApi | undefined;
  return api ? Promise.resolve(api) : Promise.reject(new Error('the card’s what-if code did not load'));
}

function whatIfFor(model: CardModel): HTMLElement | null {
  // floorsUsed lists exactly the tools the what-if engine replays (src/panel/whatif.ts).
  if (!model.record || floorsUsed(model.record.tool).length === 0 || model.failed) return null;
  const view = new WhatIfView({ record: model.record, onFloors: () => undefined, load: loadWhatIf });
  return h(
    'div',
    null,
    h(
      'p',
      { class: 'whatif-banner', id: 'whatif-banner' },
      'What-if only: moving a slider recomputes this decision here, with the same policy code the server ran, from its recorded answers. ' +
        'Nothing is sent anywhere, and the agent’s decision stands as returned.',
    ),
    view.el,
  );
}

function copyText(text: string): void {
  const done = () => document.getElementById('copy-json')?.replaceChildren('Copied');
  if (navigator.clipboard?.writeText) {
    navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text, done));
  } else fallbackCopy(text, done);
}

function fallbackCopy(text: string, done: () => void): void {
  const area = h('textarea', { class: 'copy-area', readonly: true, props: { value: text } });
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (ok) done();
}

/**
 * "Open in Jev panel": the server's app-only tool (src/mcp/app-tools.ts) opens the decision in the editor. VS Code's
 * app host refuses `ui/open-link` for non-http(s) URIs, but lets a view call its own server's app-only tools.
 */
function openInPanel(tool: string, id: string): void {
  const button = document.getElementById('open-panel');
  const say = (text: string) => button?.replaceChildren(text);
  app.callServerTool({ name: tool, arguments: { id } }).then(
    (r) => say(r.isError ? `Could not open: ${r.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ').slice(0, 120)}` : 'Opened in Jev panel'),
    (err: unknown) => say(`Could not open: ${err instanceof Error ? err.message : String(err)}`),
  );
}

function show(result: CallToolResult): void {
  const ctx = app.getHostContext();
  const decision = result._meta?.[DECISION_META_KEY] as { tool?: unknown } | undefined;
  const tool = ctx?.toolInfo?.tool.name ?? (typeof decision?.tool === 'string' ? decision.tool : 'tool');
  const errorText = result.isError ? result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') : undefined;
  const model = cardModel({ tool, input, result: result.structuredContent, ...(errorText !== undefined ? { errorText } : {}), decision });
  const openTool = model.openTool;
  const card = renderCard(
    root,
    model,
    {
      ...(openTool ? { openInPanel: (id: string) => openInPanel(openTool, id) } : {}),
      copyJson: () => copyText(JSON.stringify({ tool, input, result: result.structuredContent ?? null, decision: decision ?? null }, null, 2)),
    },
    () => whatIfFor(model),
    expanded,
  );
  document.getElementById('toggle')?.addEventListener('click', () => (expanded = !expanded));
  mark('rendered');
  // Once the verdict is on screen, build the hidden details (candidates, bars, what-if) so "Details" opens at once.
  requestAnimationFrame(() =>
    setTimeout(() => {
      mark('painted');
      setTimeout(() => card.fillDetails());
    }),
  );
}

app.ontoolinput = (params) => {
  input = params.arguments;
};
app.ontoolresult = (result) => {
  mark('resultAt');
  show(result as CallToolResult);
};
app.onhostcontextchanged = () => applyContext(app.getHostContext());
// The page's HTML already shows 'Waiting for the decision…' (scripts/build.mjs), painted without this script.
mark('initSent');
app.connect().then(
  () => {
    mark('connected');
    applyContext(app.getHostContext());
  },
  (err: unknown) => {
    root.textContent = `The card could not connect to its host: ${err instanceof Error ? err.message : String(err)}`;
  },
);
