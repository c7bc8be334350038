/**
 * Keeps the panel's Guard status current: where the guard's hook is installed (src/guard/install/overview.ts)
 * for the first workspace folder and the user's home. Re-read when a hook file in the workspace changes (the
 * editor's own Turn On / Turn Off commands included) and when the window regains focus (a `jevcp guard
 * install` in a terminal, or a user-scope file outside the workspace).
 */
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { stateDir } from '../../gate/state-dir';
import { guardPlaces, hookAgents } from '../../guard/install/overview';
import type { AgentView, GuardPlaceView } from '../../panel/protocol';

// The project-scope hook files of every host (src/guard/install/locations.ts).
const PROJECT_FILES = '{.github/hooks/jev-guard*.json,.claude/settings.json,.codex/hooks.json,.jev/config.json}';

/** The guard's places, read in the background; `places` is the last read (empty until the first). */
export class GuardWatch implements vscode.Disposable {
  private current: GuardPlaceView[] = [];
  private agentsNow: AgentView[] = [];
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.emitter];
  private reading: Promise<void> = Promise.resolve();
  /** The places or the hook agents changed. */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    const folder = this.folder();
    if (folder) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, PROJECT_FILES));
      const changed = () => void this.refresh();
      this.disposables.push(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed));
    }
    this.disposables.push(
      vscode.window.onDidChangeWindowState((s) => {
        if (s.focused) void this.refresh();
      }),
    );
    void this.refresh();
  }

  /** The agents the installed hooks run as (the Agents view), as last read. */
  get agents(): AgentView[] {
    return this.agentsNow;
  }

  /** Hosts and scopes with the guard on, as last read. */
  get places(): GuardPlaceView[] {
    return this.current;
  }

  /** Reads the places again; fires onDidChange when they differ. Never rejects. */
  refresh(): Promise<void> {
    this.reading = this.reading.then(async () => {
      try {
        const workspace = this.folder()?.uri.fsPath;
        const places = await guardPlaces(workspace, process.env, stateDir(process.env), homedir());
        const agents: AgentView[] = (await hookAgents(places, workspace)).map((a) => ({
          name: a.name,
          grants: a.grants ?? [],
          permissions: [],
          warnings: a.problem ? [a.problem] : [],
          hook: { hosts: a.hosts, granted: a.grants !== null, rules: a.rules, ...(a.problem ? { problem: a.problem } : {}) },
        }));
        if (JSON.stringify([places, agents]) === JSON.stringify([this.current, this.agentsNow])) return;
        this.current = places;
        this.agentsNow = agents;
        this.emitter.fire();
      } catch (err) {
        this.log.warn(`guard status not read: ${(err as Error)?.message ?? String(err)}`);
      }
    });
    return this.reading;
  }

  private folder(): vscode.WorkspaceFolder | undefined {
    return (vscode.workspace.workspaceFolders ?? []).find((f) => f.uri.scheme === 'file');
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
