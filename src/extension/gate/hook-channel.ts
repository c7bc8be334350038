/**
 * Offers this editor's judge to commit hooks and guard hooks while the editor runs (src/channel/): a loopback server
 * with a token made for this session, and the session file naming its port, the token and the folders and
 * git repositories open here, in the user's state directory (0600). A commit from any terminal in one of
 * those repositories is then judged here, with this editor's provider, key, thresholds and ledger, and
 * shows in the feed with its source; so does an agent's tool call that the guard hook (`jevcp guard`) asks
 * about in one of those folders (jev_permit). Started only in a trusted workspace; the file is rewritten when the
 * open folders, repositories or the judge change, and removed when the editor stops.
 */
import * as vscode from 'vscode';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { GateChannelServer } from '../../channel/server';
import { newSessionSecrets, SESSIONS_DIR, writeSessionFile, type EditorSession } from '../../channel/session-file';
import { stateDir } from '../../gate/state-dir';
import type { JevRuntime } from '../runtime';
import { gitApi } from './git';
import { answerHook, judgeInfo, type HookJudgeDeps } from '../../channel/gate-answer';
import { answerPermit } from '../../channel/permit-answer';

export class HookChannel implements vscode.Disposable {
  private server?: GateChannelServer;
  private session?: EditorSession;
  private state?: string;
  private repositories: string[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private writing: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(private readonly runtime: JevRuntime) {}

  /** Where the channel listens and its session file, once started (for the host tests; never the token). */
  get info(): { port: number; sessionFile: string } | undefined {
    return this.server?.info && this.session && this.state ? { port: this.server.info.port, sessionFile: this.sessionPath() } : undefined;
  }

  private sessionPath(): string {
    return join(this.state!, SESSIONS_DIR, `${this.session!.id}.json`);
  }

  /** Starts now in a trusted workspace, else once the workspace is trusted. Never rejects (failures are logged). */
  async start(): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      this.runtime.log.info('commit hook channel: waits until this workspace is trusted');
      this.disposables.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void this.start()));
      return;
    }
    if (this.server || this.disposed) return;
    try {
      this.state = stateDir(process.env);
      const { id, token } = newSessionSecrets();
      const deps: HookJudgeDeps = {
        service: this.runtime.service,
        choice: () => this.runtime.backend.choice,
        model: () => this.runtime.status().model,
        roots: () => this.roots(),
        editor: vscode.env.appName,
        record: (record) => this.runtime.recordOutside(record),
      };
      this.server = new GateChannelServer({
        token,
        handler: (request, signal) => answerHook(deps, request, signal),
        // The guard hook's tool calls (`jevcp guard`), judged with jev_permit here; the mock never decides one.
        permit: (request, signal) => answerPermit(deps, request, signal),
        log: (level, m) => this.runtime.log[level](m),
      });
      const { port } = await this.server.start();
      this.session = { v: 1, id, pid: process.pid, port, token, roots: [], editor: vscode.env.appName, started: new Date().toISOString() };
      await this.watchRepositories();
      this.disposables.push(
        vscode.workspace.onDidChangeWorkspaceFolders(() => this.publish()),
        this.runtime.onDidChangeStatus(() => this.publish()),
      );
      await this.publish();
      this.runtime.log.info(`commit hook channel: listening on 127.0.0.1:${port}; commit hooks in the repositories open here judge with this editor`);
    } catch (err) {
      this.runtime.log.warn(`commit hook channel not started (hooks judge with the CLI configuration): ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** Workspace folders and git repositories open in this window. */
  private roots(): string[] {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    return [...new Set([...folders, ...this.repositories])];
  }

  private async watchRepositories(): Promise<void> {
    try {
      const api = await gitApi();
      const sync = () => {
        this.repositories = api.repositories.map((r) => r.rootUri.fsPath);
        void this.publish();
      };
      this.disposables.push(api.onDidOpenRepository(sync), api.onDidCloseRepository(sync));
      this.repositories = api.repositories.map((r) => r.rootUri.fsPath);
    } catch {
      // No Git extension: the workspace folders alone name what is open.
    }
  }

  /** Rewrites the session file (serialized); never rejects. */
  private publish(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (!this.session || !this.state || this.disposed) return;
      const judge = judgeInfo({ choice: () => this.runtime.backend.choice, model: () => this.runtime.status().model, editor: this.session.editor });
      this.session = { ...this.session, roots: this.roots(), judge: { provider: judge.provider, mock: judge.mock } };
      try {
        await writeSessionFile(this.state, this.session);
      } catch (err) {
        this.runtime.log.warn(`commit hook channel: ${(err as Error)?.message ?? String(err)}`);
      }
    });
    return this.writing;
  }

  dispose(): void {
    this.disposed = true;
    for (const d of this.disposables) d.dispose();
    void this.server?.stop();
    // Synchronously: the extension host may exit right after dispose.
    if (this.session && this.state) rmSync(this.sessionPath(), { force: true });
  }
}
