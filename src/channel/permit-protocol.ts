/**
 * The permit route of the editor channel (protocol.ts, server.ts): how the permission guard's hook
 * (`jevcp guard --host H`) asks the running editor's Jev to judge one agent tool call with jev_permit on
 * the editor's own judge, or (`tool: "jev_screen"`) to screen one chunk of a tool result the agent is about
 * to read. `POST /v1/permit` with the same bearer token and session file as the gate. No host import.
 */
import { z } from 'zod';
import type { PermitInput } from '../guard/types';
import { CHANNEL_VERSION, type ChannelOutcome, type JudgeInfo } from './protocol';
import type { RecordedResponse, SettledCall } from './permit-route';

export { PERMIT_PATH } from './permit-route';
/** Largest permit request body, bytes (the guard reads at most 1 MiB of hook event; its input is smaller). */
export const MAX_PERMIT_BODY_BYTES = 2 * 1024 * 1024;

/** What the guard hook sends. */
export interface PermitChannelRequest {
  v: 1;
  /** The workspace of the call (the editor checks it is one it has open). */
  root: string;
  /** The tool to run: jev_permit when absent; jev_screen for a PostToolUse result (src/guard/run.ts `screenResult`). */
  tool?: 'jev_screen';
  /**
   * jev_permit arguments, built and redacted by the guard (src/guard/run.ts), or jev_screen's `{text,
   * purpose}`; checked by the tool's own schema.
   */
  input: PermitInput | ScreenChannelInput;
  /** The agent host (`claude-code`, `vscode`, `codex`, `copilot-cli`). */
  host: string;
  /** The agent the call is judged as (ledger `agent`). */
  agent: string;
  /** Where the call comes from, in words (`guard hook, claude-code · session 1a2b3c4d`); shown with the decision in the feed. */
  source: string;
  /** Present when the guard settled the call itself (a rule or a grant): the editor only records it. */
  settled?: SettledCall;
}

/** jev_screen's arguments as the guard sends them: one chunk of the result, and the user's request as purpose. */
export interface ScreenChannelInput {
  text: string;
  purpose?: string;
}

/** The request as checked by the editor (`input` is checked by jev_permit's own schema). */
export const permitRequestSchema = z
  .object({
    v: z.literal(CHANNEL_VERSION),
    tool: z.literal('jev_screen').optional(),
    root: z.string().min(1).max(4096),
    input: z.record(z.string(), z.unknown()),
    host: z.string().min(1).max(100),
    agent: z.string().min(1).max(200),
    source: z.string().min(1).max(200),
    settled: z
      .object({
        decision: z.enum(['allow', 'ask', 'deny']),
        reason_codes: z.array(z.enum(['RULE_ALLOW', 'RULE_ASK', 'RULE_DENY', 'CAPABILITY_VIOLATION'])).length(1),
        settled_by: z.enum(['rule', 'grant']),
        rule: z.string().min(1).max(1000).optional(),
        reason: z.string().min(1).max(2000),
      })
      .strict()
      .optional(),
  })
  .strict();

/** What the editor answers on the permit route. */
export type PermitChannelResponse =
  | { v: 1; status: 'judged'; judge: JudgeInfo; outcome: ChannelOutcome }
  /** The editor has only the mock judge: the mock never decides a permission, the hook tries the CLI configuration. */
  | { v: 1; status: 'no-backend'; judge: JudgeInfo }
  /** The editor cannot judge this (not a workspace it has open): the hook tries the CLI configuration. */
  | { v: 1; status: 'refused'; message: string }
  /** A settled call was recorded (ledger and feed); nothing was judged. */
  | RecordedResponse;

/** Whether `v` is an answer of the permit route (shape only; the hook checks the result itself). */
export function isPermitResponse(v: unknown): v is PermitChannelResponse {
  const r = v as { v?: unknown; status?: unknown; judge?: unknown; outcome?: unknown; message?: unknown } | null;
  if (typeof r !== 'object' || r === null || r.v !== CHANNEL_VERSION) return false;
  if (r.status === 'refused') return typeof r.message === 'string';
  const judgeOk = typeof r.judge === 'object' && r.judge !== null;
  if (r.status === 'no-backend') return judgeOk;
  if (r.status !== 'judged' || !judgeOk) return false;
  const o = r.outcome as { ok?: unknown; recordId?: unknown } | null;
  return typeof o === 'object' && o !== null && typeof o.ok === 'boolean' && typeof o.recordId === 'string';
}
