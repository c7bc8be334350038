import { createHash, randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { headCommit, stagedTree, type GitOptions } from './git';
import { cleanupMessage, type MessageRules } from './message-rules';
import { readPrivateFile, writePrivateFile } from './state-dir';

/**
 * One judgment per commit: when the user accepts a verdict in the editor ("Commit" after auto, "Commit
 * Anyway" after review, an override after escalate), the editor leaves an approval bound to the exact
 * commit — repository, HEAD, staged tree (`git write-tree`) and the message as git will commit it — and
 * the commit-msg hook honours it instead of judging again. An approval is a 0600 file in the user's state
 * directory (state-dir.ts), used at most once (taken by an atomic rename), valid for APPROVAL_TTL_MS, and
 * void as soon as anything it is bound to changes: the hook then judges, and removes every other
 * approval of the repository.
 */

/** How long an approval stays valid, ms (the editor commits right after writing it; hooks before ours may be slow). */
export const APPROVAL_TTL_MS = 5 * 60_000;
/** Subdirectory of the state directory. */
export const APPROVALS_DIR = 'approvals';

/** What an approval is bound to. */
export interface ApprovalBinding {
  /** Work tree root. */
  root: string;
  /** HEAD commit; undefined on an unborn branch. */
  head?: string;
  /** The staged tree (`git write-tree`). */
  tree: string;
  /** The message as git will commit it (message-rules.ts `cleanupMessage`). */
  message: string;
}

/** How the user accepted the verdict. */
export type AcceptedAs = 'approved' | 'accepted' | 'overridden';

/** The content of an approval file. */
export interface Approval {
  v: 1;
  /** The jev_gate decision that was accepted. */
  recordId: string;
  /** Its action: auto (approved), review (accepted) or escalate (overridden). */
  action: string;
  acceptedAs: AcceptedAs;
  /** The override record, when the user overrode the verdict. */
  overrideRecordId?: string;
  reason?: string;
  /** Epoch ms. */
  createdAt: number;
  expiresAt: number;
}

/** What the hook found. */
export interface TakenApproval {
  /** The approval bound to exactly this commit, when there was a valid one (now used up). */
  approval?: Approval;
  /** An approval for exactly this commit existed but had expired. */
  expired: boolean;
  /** Approvals of this repository for another tree, message or HEAD, now removed. */
  voided: number;
}

/**
 * The binding of the commit about to be made in `root` with message file text `message` under `rules`
 * (the index git's GIT_INDEX_FILE names inside a hook). Throws JevError CONFIG_ERROR when git fails.
 */
export async function commitBinding(root: string, message: string, rules: MessageRules, git: GitOptions = {}): Promise<ApprovalBinding> {
  const [head, tree] = await Promise.all([headCommit(root, git), stagedTree(root, git)]);
  return { root, ...(head ? { head } : {}), tree, message: cleanupMessage(message.replace(/\r\n?/g, '\n'), rules) };
}

function canonicalRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const rootKey = (root: string) => sha(`jev-approval-root\0${canonicalRoot(root)}`).slice(0, 16);
const bindingKey = (b: ApprovalBinding) => sha(JSON.stringify(['jev-approval', canonicalRoot(b.root), b.head ?? '', b.tree, b.message.replace(/\n+$/, '')]));
const fileName = (b: ApprovalBinding) => `${rootKey(b.root)}-${bindingKey(b)}.json`;

function isApproval(v: unknown): v is Approval {
  const a = v as Partial<Approval> | null;
  return (
    typeof a === 'object' && a !== null && a.v === 1 && typeof a.recordId === 'string' && typeof a.action === 'string' &&
    (a.acceptedAs === 'approved' || a.acceptedAs === 'accepted' || a.acceptedAs === 'overridden') &&
    typeof a.createdAt === 'number' && typeof a.expiresAt === 'number'
  );
}

/** Names of this repository's approval files in `dir` (none when the directory does not exist). */
async function repositoryApprovals(dir: string, root: string): Promise<string[]> {
  const prefix = `${rootKey(root)}-`;
  try {
    return (await readdir(dir)).filter((n) => n.startsWith(prefix) && n.endsWith('.json'));
  } catch {
    return [];
  }
}

/**
 * Leaves an approval for the commit `binding` describes, replacing any earlier approval of the same
 * repository (only the latest accepted verdict may be honoured). Returns the file's path. Throws JevError
 * CONFIG_ERROR when the state directory cannot be written.
 */
export async function writeApproval(state: string, binding: ApprovalBinding, fields: Omit<Approval, 'v' | 'createdAt' | 'expiresAt'>, now = Date.now()): Promise<string> {
  const dir = join(state, APPROVALS_DIR);
  for (const name of await repositoryApprovals(dir, binding.root)) await unlink(join(dir, name)).catch(() => undefined);
  const approval: Approval = { v: 1, ...fields, createdAt: now, expiresAt: now + APPROVAL_TTL_MS };
  return writePrivateFile(dir, fileName(binding), `${JSON.stringify(approval)}\n`);
}

/**
 * Takes (uses up) the approval of exactly this commit, and removes the repository's other approvals,
 * which no longer describe what is being committed. An approval file that another user owns or can read
 * is ignored. Never throws.
 */
export async function takeApproval(state: string, binding: ApprovalBinding, now = Date.now()): Promise<TakenApproval> {
  const dir = join(state, APPROVALS_DIR);
  const mine = fileName(binding);
  let approval: Approval | undefined;
  let expired = false;
  let voided = 0;
  for (const name of await repositoryApprovals(dir, binding.root)) {
    const path = join(dir, name);
    if (name !== mine) {
      await unlink(path).then(() => voided++, () => undefined);
      continue;
    }
    // A rename is atomic: of two hooks racing for one approval, only one gets it.
    const taken = `${path}.taken-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await rename(path, taken);
    } catch {
      continue;
    }
    const text = await readPrivateFile(taken);
    await unlink(taken).catch(() => undefined);
    let parsed: unknown;
    try {
      parsed = text === undefined ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isApproval(parsed)) continue;
    if (parsed.expiresAt <= now || parsed.createdAt > now + 60_000) expired = true;
    else approval = parsed;
  }
  return { ...(approval ? { approval } : {}), expired, voided };
}

/** Removes the approval of this commit if it is still there (the editor, after its commit). Never throws. */
export async function discardApproval(state: string, binding: ApprovalBinding): Promise<void> {
  await unlink(join(state, APPROVALS_DIR, fileName(binding))).catch(() => undefined);
}
