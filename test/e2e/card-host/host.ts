/**
 * A chat-like MCP Apps host page for the card's browser test and bench (test-only). It renders a view
 * the way real hosts do: ext-apps' AppBridge over PostMessageTransport to a sandboxed iframe (opaque
 * origin, served by host-server.mjs with the CSP built from the resource's `_meta.ui.csp`), a host
 * context with theme, style variables and width, then the tool input and the real tools/call result.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

interface StartOptions {
  viewUrl: string;
  tool: string;
  prompt: string;
  input: Record<string, unknown>;
  result: CallToolResult;
  theme: 'light' | 'dark';
  variables: Record<string, string>;
  width: number;
  hostName: string;
}

declare global {
  interface Window {
    __startCard(o: StartOptions): Promise<void>;
    __setTheme(theme: 'light' | 'dark', variables: Record<string, string>): void;
    __openedLinks: string[];
    __calledTools: { name: string; arguments?: Record<string, unknown> }[];
    __delivered: number;
    __sizes?: number;
  }
}

let bridge: AppBridge | undefined;
let context: McpUiHostContext = {};
window.__openedLinks = [];
window.__calledTools = [];

window.__startCard = async (o) => {
  document.documentElement.dataset.theme = o.theme;
  const chat = document.getElementById('chat')!;
  chat.style.width = `${o.width}px`;
  const user = document.createElement('div');
  user.className = 'msg user';
  user.textContent = o.prompt;
  const call = document.createElement('div');
  call.className = 'msg tool';
  call.textContent = `Ran ${o.tool} · jev-control-panel`;
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('allow', 'clipboard-write');
  frame.title = `${o.tool} result`;
  frame.id = 'view';
  call.append(frame);
  chat.append(user, call);
  const hostContext: McpUiHostContext = {
    theme: o.theme,
    styles: { variables: o.variables as NonNullable<McpUiHostContext['styles']>['variables'] },
    displayMode: 'inline',
    containerDimensions: { maxWidth: o.width - 24 },
    platform: 'web',
    toolInfo: { tool: { name: o.tool, inputSchema: { type: 'object' } } },
  };
  bridge = new AppBridge(null, { name: o.hostName, version: '1.0.0' }, { openLinks: {}, serverTools: {} }, { hostContext });
  // Stands in for the server behind the host: records what the view calls (the editor opens the decision).
  bridge.oncalltool = async ({ name, arguments: args }) => {
    window.__calledTools.push({ name, ...(args ? { arguments: args } : {}) });
    return { content: [{ type: 'text', text: 'opened' }] };
  };
  bridge.onopenlink = async ({ url }) => {
    window.__openedLinks.push(url);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
    window.__sizes = (window.__sizes ?? 0) + 1;
  };
  bridge.oninitialized = () => {
    void bridge!.sendToolInput({ arguments: o.input });
    void bridge!.sendToolResult(o.result).then(() => (window.__delivered = performance.now()));
  };
  context = hostContext;
  // Listen before the view loads: its ui/initialize comes as soon as its script runs.
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.src = o.viewUrl;
};

window.__setTheme = (theme, variables) => {
  document.documentElement.dataset.theme = theme;
  context = { ...context, theme, styles: { variables: variables as NonNullable<McpUiHostContext['styles']>['variables'] } };
  bridge?.setHostContext(context);
};
