/**
 * `jevcp gate --staged` and `--hook`: jev_gate on the staged change of the repository containing the
 * working directory, the request built by gate/request.ts `buildGateRequest` (as in the editor). In hook
 * mode the message is read as git will commit it (message-rules.ts), an approval the editor left for
 * exactly this commit is honoured instead of judging again (gate/approval.ts), the editors open on the
 * repository judge first (cli/gate/judge.ts), and JEV_GATE_OVERRIDE lets a verdict that did not pass
 * through as a recorded override.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { commitBinding, takeApproval } from '../../gate/approval';
import { hookSource } from '../../channel/protocol';
import { runEvidenceCommand } from '../../gate/evidence-command';
import { stagedDiff, workTreeRoot, type GitOptions } from '../../gate/git';
import { editorUsedByGit, readMessageRules } from '../../gate/message-rules';
import { readOverrideReason } from '../../gate/override';
import { buildGateRequest, gateSubject, NOTHING_STAGED, nothingStaged } from '../../gate/request';
import { stateDir } from '../../gate/state-dir';
import { configError, invalidInput } from '../../judgment/errors';
import { fsReason } from '../fs-reason';
import { EXIT, type CliIO } from '../io';
import { interruptSignal } from '../outcome';
import { createRuntime } from '../runtime';
import { safeText } from '../safe-text';
import { judgeGate } from './judge';
import { cliGateWording, type GateOptions } from './options';
import { reportJudgment } from './report';

/** Options of the staged gate. */
export interface StagedGateOptions extends GateOptions {
  /** Run as the commit-msg hook. */
  hook: boolean;
  messageFile?: string;
}

/** Runs the staged (or hook) gate; resolves to the exit code. Throws JevError for input, configuration and git failures. */
export async function gateStaged(io: CliIO, o: StagedGateOptions): Promise<number> {
  const override = readOverrideReason(io.env);
  const wording = cliGateWording(o.messageFile, o.hook);
  const git: GitOptions = { env: io.env };
  // Configuration first: a bad setting fails fast, before git or the evidence command run.
  const runtime = createRuntime(io, { mockNotice: false });
  try {
    const root = await workTreeRoot(io.cwd, git);
    if (root === undefined) throw configError('gate: not inside a git work tree (git rev-parse --show-toplevel failed).');
    const staged = await stagedDiff(root, git);
    const out = o.hook ? io.stderr : io.stdout;
    if (nothingStaged(staged)) {
      if (o.json) io.stdout.write(`${JSON.stringify({ staged: false, note: NOTHING_STAGED })}\n`);
      io.stderr.write(`${o.hook ? 'jev gate: passed' : 'jevcp'}: ${NOTHING_STAGED}.\n`);
      return EXIT.OK;
    }

    let message: string | undefined;
    if (o.messageFile !== undefined) {
      try {
        message = await readFile(resolve(io.cwd, o.messageFile), 'utf8');
      } catch (err) {
        throw invalidInput(`gate: cannot read --message-file ${o.messageFile} (${fsReason(err)}).`);
      }
    }
    // The repository's own rules, in the hook or not: a message file outside the hook is an edited one.
    const messageRules = await readMessageRules(root, o.hook ? editorUsedByGit(io.env) : true, git);
    gateSubject({ message, messageRules, claims: o.claims }, wording); // refuses an empty message before anything costly

    const state = o.hook ? stateDir(io.env) : undefined;
    const notes: string[] = [];
    if (state && message !== undefined) {
      const taken = await takeApproval(state, await commitBinding(root, message, messageRules, git));
      if (taken.approval) {
        const a = taken.approval;
        const how = a.acceptedAs === 'approved' ? 'approved' : a.acceptedAs === 'accepted' ? 'accepted by you' : `overridden by you: "${a.reason ?? ''}"`;
        out.write(safeText(`jev gate: passed (${a.action}, ${how} in the editor) — decision ${a.recordId}; this exact commit was judged there, not again\n`));
        return EXIT.OK;
      }
      if (taken.expired) notes.push('the approval from the editor for this commit had expired; judging it again');
      if (taken.voided > 0) notes.push('the editor approved a different staged tree or message for this repository; that approval is void, judging this commit');
    }

    const evidence = o.evidenceCommand === undefined ? undefined : await runEvidenceCommand(o.evidenceCommand, root, o.evidenceTimeoutMs, io.env as NodeJS.ProcessEnv);
    const request = buildGateRequest({ message, messageRules, diff: staged, claims: o.claims, evidence }, wording);
    const interrupt = interruptSignal();
    try {
      const judgment = await judgeGate({
        input: request.input,
        runtime,
        root,
        allowMock: o.allowMock,
        signal: interrupt.signal,
        ...(state ? { stateDir: state, source: hookSource(io.env) } : {}),
        ...(override ? { override } : {}),
      });
      return reportJudgment(io, judgment, { hook: o.hook, json: o.json, failOpen: o.failOpen, notes: [...notes, ...request.notes], ...(override ? { override } : {}) });
    } finally {
      interrupt.dispose();
    }
  } finally {
    runtime.close();
  }
}
