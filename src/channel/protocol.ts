/**
 * The editor channel: how the commit hook (`jevcp gate --hook`) asks the running editor's Jev to judge a
 * commit with the editor's own judge (its provider, including the editor chat model, its key from
 * SecretStorage, its thresholds, its ledger and feed). One request, one answer, over loopback HTTP:
 * `POST /v1/gate` with `Authorization: Bearer <token>` and a JSON body. The token and port are in a file
 * only the user can read (session-file.ts). No host import.
 */
import { z } from 'zod';
import type { JevErrorDetails } from '../judgment/errors';
import type { GateInput } from '../gate/request';

/** Request path. */
export const CHANNEL_PATH = '/v1/gate';
/** Protocol version, in every request and answer. */
export const CHANNEL_VERSION = 1;
/** Largest request body, bytes (a diff at jev_gate's 1 000 000-character limit, in UTF-8, plus the rest). */
export const MAX_CHANNEL_BODY_BYTES = 16 * 1024 * 1024;

/** What the hook sends. */
export interface ChannelRequest {
  v: 1;
  /** Work tree root of the commit (the editor checks it is one it has open). */
  root: string;
  /** jev_gate arguments, built by the hook (gate/request.ts `buildGateRequest`). */
  input: GateInput;
  /** Where the commit comes from, in words (`commit hook, terminal`); shown with the verdict in the feed. */
  source: string;
  /** Judge with the editor's mock judge when that is all it has (the hook was installed with the mock on purpose). */
  allowMock: boolean;
  /** An override reason (JEV_GATE_OVERRIDE): recorded as an override when the verdict does not pass. */
  override?: string;
}

/** The request as checked by the editor (`input` is checked by jev_gate itself). */
export const channelRequestSchema = z
  .object({
    v: z.literal(CHANNEL_VERSION),
    root: z.string().min(1).max(4096),
    input: z.record(z.string(), z.unknown()),
    source: z.string().min(1).max(200),
    allowMock: z.boolean(),
    override: z.string().min(1).max(1000).optional(),
  })
  .strict();

/** The editor's judge, as the hook names it. */
export interface JudgeInfo {
  /** The editor, e.g. `Visual Studio Code`. */
  editor: string;
  /** Provider kind: systemone, openai, vscode-lm, mock. */
  provider: string;
  model: string;
  /** Why this provider (e.g. `API key set`, `editor chat model copilot/gpt-4o (allowed by you)`). */
  reason: string;
  /** The mock judge (not a real judgment). */
  mock: boolean;
  /** The mock was chosen on purpose (`jevPanel.provider` is mock). */
  explicitMock: boolean;
}

/** The outcome of the judgment: the jev_gate result or its error, and the decision record's id. */
export type ChannelOutcome = { ok: true; result: unknown; recordId: string } | { ok: false; error: JevErrorDetails; recordId: string };

/** What the editor answers. */
export type ChannelResponse =
  | { v: 1; status: 'judged'; judge: JudgeInfo; outcome: ChannelOutcome; override?: { recordId: string } }
  /** The editor has only the mock judge and the request did not allow it: the hook falls back to the CLI configuration. */
  | { v: 1; status: 'no-backend'; judge: JudgeInfo }
  /** The editor cannot judge this (not its repository, still starting): the hook falls back, saying why. */
  | { v: 1; status: 'refused'; message: string };

/**
 * Where a commit comes from, from the hook's environment: VS Code's Git extension runs git with
 * VSCODE_GIT_COMMAND set (its Source Control view, and the editor's own "Commit"); its integrated terminal
 * sets TERM_PROGRAM=vscode; anything else is a terminal.
 */
export function hookSource(env: Record<string, string | undefined>): string {
  if (env.VSCODE_GIT_COMMAND) return 'commit hook, Source Control';
  if (env.TERM_PROGRAM === 'vscode') return 'commit hook, editor terminal';
  return 'commit hook, terminal';
}
