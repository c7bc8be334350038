/**
 * The few members of VS Code's built-in Git extension API (`vscode.git`, `getAPI(1)`, its `git.d.ts`) the
 * commit gate uses, written by hand (the extension ships no types package). Only what we call is declared.
 */
import type { Event, Uri } from 'vscode';

/** `vscode.extensions.getExtension<GitExtension>('vscode.git').exports`. */
export interface GitExtension {
  readonly enabled: boolean;
  readonly onDidChangeEnablement: Event<boolean>;
  /** Throws while the Git extension is disabled. */
  getAPI(version: 1): GitAPI;
}

export interface GitAPI {
  /** The git executable the Git extension found (setting `git.path`, or PATH). */
  readonly git: { readonly path: string };
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: Event<'uninitialized' | 'initialized'>;
  readonly repositories: Repository[];
  readonly onDidOpenRepository: Event<Repository>;
  readonly onDidCloseRepository: Event<Repository>;
  /** The repository containing `uri`, if open. */
  getRepository(uri: Uri): Repository | null;
  /** Opens the repository at `root` (a work tree root). */
  openRepository(root: Uri): Promise<Repository | null>;
}

export interface InputBox {
  value: string;
}

export interface CommitOptions {
  /** Skip the commit-msg and pre-commit hooks (`git commit --no-verify`). */
  noVerify?: boolean;
}

export interface RepositoryState {
  readonly onDidChange: Event<void>;
}

export interface Repository {
  readonly rootUri: Uri;
  readonly inputBox: InputBox;
  readonly state: RepositoryState;
  /** Unified diff of the index against HEAD with `cached` true (`git diff --cached`). */
  diff(cached?: boolean): Promise<string>;
  /** `git commit` with `message`. Rejects with the git error (a failing hook included). */
  commit(message: string, opts?: CommitOptions): Promise<void>;
  /** Refreshes the repository state. */
  status(): Promise<void>;
}
