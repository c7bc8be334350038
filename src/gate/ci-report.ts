import type { JevErrorDetails } from '../judgment/errors';
import { prob, summarizeGate } from './verdict-line';

/**
 * The gate's verdict in the forms a CI system shows: GitHub Actions workflow commands (`::error`,
 * `::warning`, `::notice` lines on stdout, shown as annotations on the run and the pull request) and a
 * Markdown summary for the file `$GITHUB_STEP_SUMMARY` names. Pure; the CLI writes them.
 */

/** What the gate decided, as the reports need it. */
export type GateReportOutcome = { ok: true; result: unknown; recordId?: string } | { ok: false; error: JevErrorDetails; recordId?: string };

/** Escapes a workflow command's message (`%`, CR, LF). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value (also `:` and `,`). */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One GitHub Actions workflow command line (`::warning title=Jev gate::text`). */
export function annotation(level: 'error' | 'warning' | 'notice', title: string, message: string): string {
  return `::${level} title=${escapeProperty(title)}::${escapeData(message)}`;
}

/**
 * The annotations of one gate run: the verdict (error for escalate or a failure, warning for review,
 * notice for a pass; a warning saying "advisory only" for the mock judge's verdict, which never passes or
 * blocks), then one warning per note (fallbacks the user should know about).
 */
export function gateAnnotations(outcome: GateReportOutcome, notes: readonly string[], judge: string, advisory = false): string[] {
  const lines: string[] = [];
  if (!outcome.ok) {
    lines.push(annotation('error', 'Jev gate', `failed closed: ${outcome.error.code}: ${outcome.error.message} (judge: ${judge}). Nothing was approved.`));
  } else {
    const s = summarizeGate(outcome.result);
    const head = advisory ? `advisory only (mock judge, not a real judgment): it says ${s.action}` : `${s.passed ? 'passed' : 'NOT passed'} (${s.action})`;
    const text = `${head} — ${s.reasons.join('; ')}${s.counts ? ` · ${s.counts}` : ''} (judge: ${judge})`;
    lines.push(annotation(advisory ? 'warning' : s.action === 'auto' ? 'notice' : s.action === 'review' ? 'warning' : 'error', 'Jev gate', text));
  }
  for (const note of notes) lines.push(annotation('warning', 'Jev gate note', note));
  return lines;
}

/** Markdown text safe inside a table cell or a line: pipes, backticks and line breaks neutralised. */
function md(text: unknown): string {
  return String(text).replace(/\s+/g, ' ').replace(/([\\`*_[\]|<>#])/g, '\\$1').trim();
}

const MARK: Record<string, string> = { verified: '✅', contradicted: '❌', unsupported: '❔' };

/**
 * The step summary: a heading with the verdict, its reasons, a table of the claims with their verdicts,
 * the diff review's numbers, the notes, and who judged. `range` is the range as given; `advisory` marks
 * the mock judge's verdict.
 */
export function gateSummaryMarkdown(o: { range: string; outcome: GateReportOutcome; judge: string; notes: readonly string[]; commits: number; advisory?: boolean }): string {
  const out: string[] = [];
  if (!o.outcome.ok) {
    out.push(`## Jev gate: failed closed (${o.outcome.error.code})`, '', md(o.outcome.error.message), '', 'Nothing was approved.');
  } else {
    const r = o.outcome.result as Record<string, unknown>;
    const s = summarizeGate(r, 4);
    out.push(o.advisory ? `## Jev gate: advisory only — the mock judge says ${s.action} (not a real judgment)` : `## Jev gate: ${s.passed ? 'passed' : 'NOT passed'} (${s.action})`, '');
    for (const reason of s.reasons) out.push(`- ${md(reason)}`);
    const v = (r.verification ?? {}) as { results?: { claim: unknown; verdict: unknown; confidence: unknown; action: unknown }[] };
    if (Array.isArray(v.results) && v.results.length) {
      out.push('', '| | claim | verdict | confidence | action |', '|---|---|---|---|---|');
      for (const c of v.results) out.push(`| ${MARK[String(c.verdict)] ?? '❔'} | ${md(c.claim)} | ${md(c.verdict)} | ${prob(c.confidence)} | ${md(c.action)} |`);
    }
    const review = (r.review ?? {}) as Record<string, unknown>;
    if (typeof review.action === 'string') {
      out.push('', `**Diff review:** ${md(review.action)} (composite ${prob(review.composite)}, safe to apply ${prob(review.safe_to_apply)})`);
    }
    if (Array.isArray(r.reason_codes)) out.push('', `Reason codes: ${r.reason_codes.map((c) => `\`${String(c).replace(/`/g, '')}\``).join(', ')}`);
  }
  if (o.notes.length) {
    out.push('', '**Notes**', '');
    for (const n of o.notes) out.push(`- ${md(n)}`);
  }
  out.push('', `<sub>${md(o.range)} · ${o.commits} commit${o.commits === 1 ? '' : 's'} · judged by ${md(o.judge)}${o.outcome.recordId ? ` · decision ${md(o.outcome.recordId)}` : ''}</sub>`, '');
  return out.join('\n');
}
