/**
 * `jevcp gate --range BASE..HEAD`: the same gate in CI, on a pull request's combined diff (merge base to
 * HEAD) with its commits' claims (gate/range.ts), the same exit codes and `--json`. On GitHub Actions
 * (GITHUB_ACTIONS=true) the verdict and the notes are also workflow-command annotations, and with
 * GITHUB_STEP_SUMMARY set a Markdown summary is appended to that file. With `--format sarif` stdout is a
 * SARIF 2.1.0 log (gate/sarif.ts) and the human report goes to stderr.
 */
import { appendFile } from 'node:fs/promises';
import { gateAnnotations, gateSummaryMarkdown, annotation, type GateReportOutcome } from '../../gate/ci-report';
import { diffFiles } from '../../gate/diff-stat';
import { gateSarif } from '../../gate/sarif';
import { PACKAGE_VERSION } from '../../mcp/identity';
import { runEvidenceCommand } from '../../gate/evidence-command';
import { workTreeRoot, type GitOptions } from '../../gate/git';
import { parseRange, rangeSubject, readRange } from '../../gate/range';
import { buildGateRequest, gateSubject, nothingStaged, type GateWording } from '../../gate/request';
import { configError, type JevError } from '../../judgment/errors';
import { fsReason } from '../fs-reason';
import { EXIT, type CliIO } from '../io';
import { interruptSignal } from '../outcome';
import { cliError } from '../report';
import { createRuntime } from '../runtime';
import { safeText } from '../safe-text';
import { judgeGate } from './judge';
import type { GateOptions } from './options';
import { reportJudgment, reportStopped } from './report';

/** The range gate's notes and errors in CLI terms. */
export const RANGE_WORDING: GateWording = {
  errorPrefix: 'gate: ',
  messageSource: "of the range's commits",
  emptyMessageRemedy: 'give the commits messages, or claims with --claim',
  messageOption: '--range with commits that have messages',
  claimOption: '--claim',
  evidenceOption: '--evidence-cmd',
};

/** Writes the GitHub Actions annotations (stdout; stderr with --json) and the step summary, when on GitHub Actions. */
async function reportToGitHub(io: CliIO, json: boolean, report: { range: string; outcome: GateReportOutcome; judge: string; notes: string[]; commits: number; advisory?: boolean }): Promise<void> {
  if (io.env.GITHUB_ACTIONS === 'true') {
    const lines = gateAnnotations(report.outcome, report.notes, report.judge, report.advisory);
    (json ? io.stderr : io.stdout).write(`${lines.join('\n')}\n`);
  }
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (summary) {
    await appendFile(summary, gateSummaryMarkdown(report), 'utf8').catch((err) => {
      io.stderr.write(safeText(`jevcp: could not write GITHUB_STEP_SUMMARY (${summary}): ${fsReason(err)}\n`));
    });
  }
}

/** Runs the range gate; resolves to the exit code. */
export async function gateRange(io: CliIO, rangeText: string, o: GateOptions): Promise<number> {
  if (o.sarif) return gateRangeSarif(io, rangeText, o);
  return gateRangeTo(io, rangeText, o);
}

/** `--format sarif`: the human report on stderr, the SARIF log (also for a failure or nothing to gate) on stdout. */
async function gateRangeSarif(io: CliIO, rangeText: string, o: GateOptions): Promise<number> {
  let written = false;
  const sarifOut = (log: unknown) => {
    io.stdout.write(`${JSON.stringify(log, null, 2)}\n`);
    written = true;
  };
  let code: number;
  try {
    code = await gateRangeTo({ ...io, stdout: io.stderr }, rangeText, { ...o, json: false }, (r) => sarifOut(gateSarif({ ...r, version: PACKAGE_VERSION })));
  } catch (err) {
    // Stopped before judging (bad range, no backend): the log says so, the error itself goes to stderr.
    if (!written) sarifOut(gateSarif({ range: rangeText, outcome: { ok: false, error: cliError(err).toJSON() }, judge: 'none', files: [], version: PACKAGE_VERSION }));
    throw err;
  }
  // Nothing to gate: an empty log, so the upload step always has a file.
  if (!written) sarifOut(gateSarif({ range: rangeText, outcome: { ok: true, result: {} }, judge: 'none', files: [], version: PACKAGE_VERSION }));
  return code;
}

/** What the SARIF writer needs of one run. */
type SarifReport = { range: string; outcome: GateReportOutcome; judge: string; files: string[]; advisory?: boolean };

async function gateRangeTo(io: CliIO, rangeText: string, o: GateOptions, sarif?: (r: SarifReport) => void): Promise<number> {
  const spec = parseRange(rangeText);
  const git: GitOptions = { env: io.env };
  const runtime = createRuntime(io, { mockNotice: false });
  try {
    const root = await workTreeRoot(io.cwd, git);
    if (root === undefined) throw configError('gate: not inside a git work tree (git rev-parse --show-toplevel failed).');
    const change = await readRange(root, spec, git);
    if (change.commits.length === 0 || nothingStaged(change.diff)) {
      const note = `nothing to gate: ${spec.text} ${change.commits.length === 0 ? 'has no commits (merges aside)' : 'changes no file'}`;
      if (o.json) io.stdout.write(`${JSON.stringify({ changed: false, note })}\n`);
      io.stderr.write(safeText(`jevcp: ${note}.\n`));
      if (io.env.GITHUB_ACTIONS === 'true') (o.json ? io.stderr : io.stdout).write(`${annotation('notice', 'Jev gate', note)}\n`);
      return EXIT.OK;
    }
    const files = diffFiles(change.diff).map((f) => f.path);
    const subject = rangeSubject(change.commits);
    const parts = { message: subject.message, messageRules: { comment: '#', cleanup: 'whitespace' as const }, claims: [...o.claims, ...subject.claims] };
    gateSubject(parts, RANGE_WORDING); // refuses a range with nothing to judge against before anything costly
    const evidence = o.evidenceCommand === undefined ? undefined : await runEvidenceCommand(o.evidenceCommand, root, o.evidenceTimeoutMs, io.env as NodeJS.ProcessEnv);
    const request = buildGateRequest({ ...parts, diff: change.diff, diffLabel: `files changed in ${spec.text}`, evidence }, RANGE_WORDING);
    const notes = [...(subject.note ? [subject.note] : []), ...request.notes];
    const interrupt = interruptSignal();
    try {
      const report = { range: spec.text, notes, commits: change.commits.length };
      let judgment;
      try {
        judgment = await judgeGate({ input: request.input, runtime, root, allowMock: o.allowMock, signal: interrupt.signal, source: `range gate ${spec.text}` });
      } catch (err) {
        const error = cliError(err);
        await reportToGitHub(io, o.json, { ...report, outcome: { ok: false, error: error.toJSON() }, judge: 'none' });
        sarif?.({ range: spec.text, outcome: { ok: false, error: error.toJSON() }, judge: 'none', files });
        return reportStopped(io, error, { hook: false, json: o.json, failOpen: o.failOpen });
      }
      const outcome: GateReportOutcome = judgment.outcome.ok
        ? judgment.outcome
        : { ok: false, error: (judgment.outcome.error as JevError).toJSON(), ...(judgment.outcome.recordId ? { recordId: judgment.outcome.recordId } : {}) };
      const code = reportJudgment(io, judgment, { hook: false, json: o.json, failOpen: o.failOpen, notes });
      await reportToGitHub(io, o.json, { ...report, outcome, judge: judgment.judge, advisory: judgment.mock });
      sarif?.({ range: spec.text, outcome, judge: judgment.judge, files, advisory: judgment.mock });
      return code;
    } finally {
      interrupt.dispose();
    }
  } finally {
    runtime.close();
  }
}
