/**
 * Loads the runtime (tools, zod schemas, the MCP SDK, the registry: most of the extension's code) on first
 * need instead of during activation. It is a separate bundle, `dist/extension-core.js`, next to the
 * activation shell `dist/extension.js`, so activation parses only the shell.
 */
import type * as vscode from 'vscode';
import type * as Core from './core';
import type { JevRuntime } from './runtime';

/** The runtime bundle's exports. */
export type CoreModule = typeof Core;

/** Requires dist/extension-core.js (the path is built at run time so the shell bundle does not inline it). */
function requireCore(): CoreModule {
  const file = ['.', 'extension-core.js'].join('/');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a run-time require keeps the core out of the shell bundle
  return require(file) as CoreModule;
}

export class CoreHost implements vscode.Disposable {
  private promise?: Promise<JevRuntime>;
  private runtime?: JevRuntime;
  private mod?: CoreModule;
  private readonly listeners: ((runtime: JevRuntime) => void)[] = [];
  /** Every onLoaded listener, called again for a runtime built by `reload`. */
  private readonly allListeners: ((runtime: JevRuntime) => void)[] = [];
  private disposed = false;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The runtime bundle's exports (loaded once). */
  async module(): Promise<CoreModule> {
    this.mod ??= requireCore();
    return this.mod;
  }

  /** The runtime, loading it the first time (settings, key and provider are read by `runtime.ready`). */
  get(): Promise<JevRuntime> {
    this.promise ??= this.module().then(({ JevRuntime }) => {
      const runtime = new JevRuntime(this.context, this.log);
      if (this.disposed) void runtime.shutdown();
      this.runtime = runtime;
      for (const listener of this.listeners.splice(0)) listener(runtime);
      return runtime;
    });
    return this.promise;
  }

  /** The runtime if already loaded. */
  get loaded(): JevRuntime | undefined {
    return this.runtime;
  }

  /** The loaded runtime; throws Error when it is not loaded yet (test API after `ready`). */
  required(): JevRuntime {
    if (!this.runtime) throw new Error('Jev Control Panel is still starting; await api.ready first.');
    return this.runtime;
  }

  /** Calls `listener` once the runtime exists (at once when it already does). */
  onLoaded(listener: (runtime: JevRuntime) => void): void {
    this.allListeners.push(listener);
    if (this.runtime) listener(this.runtime);
    else this.listeners.push(listener);
  }

  /**
   * Shuts the runtime down and builds a new one, as a window reload would (test API: the host tests cannot
   * reload the window they run in), also after `shutdown()`. Every onLoaded listener sees the new runtime.
   */
  async reload(): Promise<JevRuntime> {
    const old = await this.get();
    await old.shutdown();
    this.disposed = false;
    this.runtime = undefined;
    this.promise = undefined;
    this.listeners.splice(0, this.listeners.length, ...this.allListeners);
    const runtime = await this.get();
    await runtime.ready;
    return runtime;
  }

  /**
   * Stops the runtime for good (JevRuntime.shutdown: endpoint, every MCP server's process tree, ledger);
   * a runtime still loading is stopped once it exists. Resolves when the loaded one has stopped.
   */
  shutdown(): Promise<void> {
    this.disposed = true;
    return this.runtime?.shutdown() ?? Promise.resolve();
  }

  /** `shutdown()` without waiting (context.subscriptions). */
  dispose(): void {
    void this.shutdown();
  }
}
