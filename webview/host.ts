import type { HostToWebview, WebviewToHost } from '../src/panel/protocol';

/**
 * The webview's side of the host connection. `acquireVsCodeApi()` may be called only once per page and
 * its result stays private to this module (never put on window), as the webview guidance asks.
 */

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Typed access to the host: messages out, persisted UI state, and messages in. */
export interface HostPort {
  post(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
  onMessage(handler: (message: HostToWebview) => void): void;
}

let port: HostPort | undefined;

/** Connects once; later calls return the same port. Throws when the page is not a webview (no API). */
export function connectHost(): HostPort {
  if (port) return port;
  if (typeof acquireVsCodeApi !== 'function') throw new Error('acquireVsCodeApi is not available: this page is not running in a webview');
  const api = acquireVsCodeApi();
  port = {
    post: (message) => api.postMessage(message),
    getState: () => api.getState(),
    setState: (state) => api.setState(state),
    onMessage(handler) {
      window.addEventListener('message', (ev: MessageEvent) => {
        const data = ev.data as { type?: unknown } | null;
        // Only the host posts to this window; anything without a known type is ignored.
        if (data && typeof data === 'object' && typeof data.type === 'string') handler(data as HostToWebview);
      });
    },
  };
  return port;
}
