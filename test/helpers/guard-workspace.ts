/**
 * Throwaway workspaces for guard install tests: each case gets a workspace, a home folder (the user scope)
 * and a state directory under one temporary root, removed after the file's tests.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/** One case's folders and the environment that points HOME at its home folder. */
export interface GuardCase {
  workspace: string;
  home: string;
  env: { HOME: string };
  state: string;
}

/** Returns `setup()`, which makes a fresh case under a root named after `prefix`; the root goes after the tests. */
export function guardCases(prefix: string): () => GuardCase {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(tmp, { recursive: true, force: true }));
  return () => {
    const root = mkdtempSync(join(tmp, 'case-'));
    const workspace = join(root, 'ws');
    const home = join(root, 'home');
    mkdirSync(workspace);
    mkdirSync(home);
    return { workspace, home, env: { HOME: home }, state: join(root, 'state') };
  };
}

/**
 * Returns `workspace(config?)`: a fresh folder under a root named after `prefix` (removed after the file's
 * tests), with `config` written as its `.jev/config.json` when given.
 */
export function configWorkspaces(prefix: string): (config?: unknown) => string {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(tmp, { recursive: true, force: true }));
  return (config) => {
    const dir = mkdtempSync(join(tmp, 'ws-'));
    if (config !== undefined) {
      mkdirSync(join(dir, '.jev'));
      writeFileSync(join(dir, '.jev', 'config.json'), JSON.stringify(config));
    }
    return dir;
  };
}
