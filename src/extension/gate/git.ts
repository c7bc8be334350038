/**
 * Reaching VS Code's built-in Git extension (`vscode.git`, API version 1) and choosing the repository a
 * command acts on.
 */
import * as vscode from 'vscode';
import { configError } from '../../judgment/errors';
import type { GitAPI, GitExtension, Repository } from './git-api';

/**
 * The Git API (version 1). Throws JevError CONFIG_ERROR with a sentence the user can act on when the
 * built-in Git extension is missing or disabled (`git.enabled: false`, or a restricted-mode window).
 */
export async function gitApi(): Promise<GitAPI> {
  const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!ext) throw configError('The built-in Git extension (vscode.git) is not available in this editor.');
  const exports = ext.isActive ? ext.exports : await ext.activate();
  if (!exports?.enabled) throw configError('The Git extension is disabled (setting git.enabled, or the workspace is not trusted).');
  const api = exports.getAPI(1);
  if (api.state !== 'initialized') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        sub.dispose();
        resolve();
      }, 10_000);
      const sub = api.onDidChangeState((s) => {
        if (s === 'initialized') {
          clearTimeout(timer);
          sub.dispose();
          resolve();
        }
      });
    });
  }
  return api;
}

/** A folder-like command argument: a Uri, an SCM source control (`rootUri`), or `{repository: Uri}`. */
function uriOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'object' && arg !== null) {
    const o = arg as { rootUri?: unknown; repository?: unknown };
    if (o.rootUri instanceof vscode.Uri) return o.rootUri;
    if (o.repository instanceof vscode.Uri) return o.repository;
  }
  return undefined;
}

/**
 * The repository a command acts on: the one `arg` names (the SCM title passes its source control; tests
 * pass a Uri, opened in the Git extension when needed), else the only open repository, else a quick pick.
 * Undefined when there is none or the pick was dismissed.
 */
export async function pickRepository(api: GitAPI, arg: unknown, placeHolder: string): Promise<Repository | undefined> {
  const uri = uriOf(arg);
  if (uri) return api.getRepository(uri) ?? (await api.openRepository(uri)) ?? undefined;
  const repos = api.repositories;
  if (repos.length <= 1) return repos[0];
  const pick = await vscode.window.showQuickPick(
    repos.map((r) => ({ label: vscode.workspace.asRelativePath(r.rootUri, true) || r.rootUri.fsPath, description: r.rootUri.fsPath, repo: r })),
    { placeHolder },
  );
  return pick?.repo;
}
