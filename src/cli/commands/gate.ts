import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { capStagedDiff } from '../../gate/diff-cap';
import { failOpenApplies, failOpenWarning, readGateFailOpen } from '../../gate/fail-open';
import { configError, invalidInput } from '../../judgment/errors';
import { parseCommandArgs } from '../args';
import { messageText, parseCommitMessage, type CommitMessage } from '../../gate/commit-message';
import { DEFAULT_EVIDENCE_TIMEOUT_MS, evidenceText, runEvidenceCommand } from '../../gate/evidence-command';
import { formatDecision } from '../format';
import { stagedDiff, stagedStat, workTreeRoot } from '../../gate/git';
import { EXIT, type CliCommand } from '../io';
import { errorHint, interruptSignal } from '../outcome';
import { fsReason } from '../fs-reason';
import { cliError, reportError, wantsJson } from '../report';
import { createRuntime, exitCodeForError } from '../runtime';
import { safeText } from '../safe-text';

/** Claim used when there is neither a --claim, a bullet line nor a subject line. */
export const FALLBACK_CLAIM = 'The staged change is complete and ready to commit.';

/** The jev_gate input built from the staged change, plus notes about fallbacks taken. */
export interface GateRequest {
  input: {
    request: string;
    diff: string;
    claims: string[];
    evidence: { id: string; text: string }[];
    tests?: string;
  };
  notes: string[];
}

/**
 * Chooses the claims: `--claim` values, then the message's bullet lines (exact duplicates dropped).
 * With none, the subject line stands in (or FALLBACK_CLAIM when there is no subject), with a note.
 */
export function chooseClaims(explicit: string[], message: CommitMessage): { claims: string[]; note?: string } {
  const claims = [...new Set([...explicit.map((c) => c.trim()), ...message.bullets].filter((c) => c !== ''))];
  if (claims.length > 0) return { claims };
  if (message.subject) {
    return { claims: [message.subject], note: 'no claims given (no --claim, no "- " or "* " lines in the message); judging the subject line as the claim' };
  }
  return { claims: [FALLBACK_CLAIM], note: `no claims and no commit message given; judging the generic claim "${FALLBACK_CLAIM}"` };
}

/**
 * `jevcp gate --staged [--message-file F] [--claim TEXT]... [--evidence-cmd CMD] [--evidence-timeout MS] [--json]`
 *
 * Runs jev_gate on the staged diff of the repository containing the working directory. request = the
 * commit message (comments stripped); claims = --claim values plus the message's bullet lines; evidence =
 * the staged diff stat plus the evidence command's output (run with a time limit in the repository root).
 * Exit: 0 auto (pass) or nothing staged; 1 review/escalate (not passed); 2 invalid input/config, and a
 * --message-file whose message is empty (only blank or `#` lines); 3 provider or operational failure —
 * fail-closed, a failure never passes. With JEV_GATE_FAIL_OPEN=1 a provider/operational failure exits 0
 * with a loud warning (the ledger still records the error). A diff longer than jev_gate's field limit is
 * cut (coverage incomplete ⇒ never auto) instead of refused.
 */
export const gateCommand: CliCommand = async (args, io) => {
  let failOpen = false;
  try {
    failOpen = readGateFailOpen(io.env);
    const { values } = parseCommandArgs('gate', args, {
      staged: { type: 'boolean' },
      'message-file': { type: 'string', short: 'm' },
      claim: { type: 'string', multiple: true },
      'evidence-cmd': { type: 'string' },
      'evidence-timeout': { type: 'string' },
      json: { type: 'boolean' },
    });
    if (!values.staged) throw invalidInput('gate: pass --staged (the gate judges the staged change; nothing else is supported yet).');
    let evidenceTimeout = DEFAULT_EVIDENCE_TIMEOUT_MS;
    if (values['evidence-timeout'] !== undefined) {
      evidenceTimeout = Number(values['evidence-timeout']);
      if (!Number.isSafeInteger(evidenceTimeout) || evidenceTimeout < 1) throw invalidInput('gate: --evidence-timeout must be a positive whole number of milliseconds.');
    }
    if (values['evidence-cmd'] !== undefined && values['evidence-cmd'].trim() === '') throw invalidInput('gate: --evidence-cmd: must not be empty (give the command whose output is the evidence, e.g. "npm test").');

    // Configuration first: a bad setting fails fast, before git or the evidence command run.
    const runtime = createRuntime(io);
    try {
      const root = await workTreeRoot(io.cwd, { env: io.env });
      if (root === undefined) throw configError('gate: not inside a git work tree (git rev-parse --show-toplevel failed).');
      const staged = await stagedDiff(root, { env: io.env });
      if (staged.trim() === '') {
        if (values.json) io.stdout.write(`${JSON.stringify({ staged: false, note: 'nothing staged; nothing to gate' })}\n`);
        io.stderr.write('jevcp: nothing staged; nothing to gate.\n');
        return EXIT.OK;
      }

      let message: CommitMessage = { subject: '', body: '', bullets: [] };
      if (values['message-file'] !== undefined) {
        const file = resolve(io.cwd, values['message-file']);
        let text: string;
        try {
          text = await readFile(file, 'utf8');
        } catch (err) {
          throw invalidInput(`gate: cannot read --message-file ${values['message-file']} (${fsReason(err)}).`);
        }
        message = parseCommitMessage(text);
        // git aborts an empty message only after commit-msg ran, so the hook does see one: refuse it
        // here rather than judge nothing.
        if (message.subject === '') {
          throw invalidInput(`gate: the commit message in ${values['message-file']} is empty (only blank or # comment lines); write a message, or commit with --no-verify to skip the gate.`);
        }
      }
      const { claims, note } = chooseClaims(values.claim ?? [], message);
      const notes: string[] = note ? [note] : [];
      const { diff, cut, originalChars } = capStagedDiff(staged);
      if (cut) notes.push(`the staged diff has ${originalChars} characters; only the first ${diff.length} are sent and the judge's budget covers fewer, so coverage is incomplete and the gate cannot pass automatically`);

      const evidence = [{ id: 'diff-stat', text: `git diff --cached --stat\n${await stagedStat(root, { env: io.env })}` }];
      let tests: string | undefined;
      if (values['evidence-cmd'] !== undefined) {
        const run = await runEvidenceCommand(values['evidence-cmd'], root, evidenceTimeout, io.env as NodeJS.ProcessEnv);
        tests = evidenceText(run);
        evidence.push({ id: 'evidence-cmd', text: tests });
        if (run.timedOut) notes.push(`the evidence command timed out after ${evidenceTimeout} ms; its partial output is the evidence`);
      } else {
        notes.push('no --evidence-cmd given; the only evidence is the diff stat, so claims will rarely be verified');
      }
      const request = messageText(message) || claims.join('\n');
      const input: GateRequest['input'] = { request, diff, claims, evidence, ...(tests !== undefined ? { tests } : {}) };
      for (const n of notes) io.stderr.write(safeText(`jevcp: ${n}.\n`));

      const interrupt = interruptSignal();
      try {
        const outcome = await runtime.service.call('jev_gate', input, { agent: 'cli', signal: interrupt.signal });
        if (!outcome.ok) {
          const open = failOpen && failOpenApplies(outcome.error);
          if (values.json) io.stdout.write(`${JSON.stringify({ error: outcome.error.toJSON(), ...(open ? { fail_open: true } : {}) }, null, 2)}\n`);
          if (!open) {
            io.stderr.write(safeText(`jevcp: gate failed closed: ${outcome.error.code}: ${outcome.error.message}\n${errorHint(outcome.error)}`));
            return exitCodeForError(outcome.error);
          }
          io.stderr.write(safeText(`jevcp: gate failed: ${outcome.error.code}: ${outcome.error.message}\n${errorHint(outcome.error)}${failOpenWarning(outcome.error)}`));
          return EXIT.OK;
        }
        const action = (outcome.result as { action?: unknown }).action;
        const passed = action === 'auto';
        if (values.json) io.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`);
        else {
          io.stdout.write(formatDecision('jev_gate', outcome.result));
          io.stdout.write(passed ? 'gate: passed (action auto)\n' : `gate: NOT passed (action ${String(action)}) — review before committing, or commit with --no-verify to bypass\n`);
        }
        return passed ? EXIT.OK : EXIT.GATE_NOT_PASSED;
      } finally {
        interrupt.dispose();
      }
    } finally {
      runtime.close();
    }
  } catch (err) {
    const error = cliError(err);
    const open = failOpen && exitCodeForError(error) === EXIT.OPERATIONAL && failOpenApplies(error);
    if (wantsJson(args)) io.stdout.write(`${JSON.stringify({ error: error.toJSON(), ...(open ? { fail_open: true } : {}) }, null, 2)}\n`);
    const code = reportError(io, error);
    if (open) {
      io.stderr.write(safeText(failOpenWarning(error)));
      return EXIT.OK;
    }
    return code;
  }
};
