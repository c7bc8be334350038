import * as vscode from 'vscode';
import type { Root } from '@modelcontextprotocol/sdk/types.js';
import type { RootsSource } from '../../registry/client-features';

/**
 * The roots the editor announces to MCP servers: the workspace folders, only in a trusted workspace
 * (an untrusted one announces none). Folder changes and a granted trust fire `roots/list_changed`.
 */
export class WorkspaceRoots implements RootsSource, vscode.Disposable {
  private readonly listeners = new Set<() => void>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    const fire = () => {
      for (const l of [...this.listeners]) l();
    };
    this.subscriptions = [vscode.workspace.onDidChangeWorkspaceFolders(fire), vscode.workspace.onDidGrantWorkspaceTrust(fire)];
  }

  roots(): Root[] {
    if (!vscode.workspace.isTrusted) return [];
    return (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name }));
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.listeners.clear();
  }
}
