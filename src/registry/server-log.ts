/**
 * Text of an MCP server's stderr log as the editor shows it (a read-only `jev-server-log:` document): the
 * kept stderr lines with a header line before each start attempt, so restarts read apart. stdout lines that
 * are not JSON-RPC are skipped by the client and logged here too, marked with STRAY_LOG_PREFIX and the name.
 */

/** A header placed before absolute stderr line `at` (0 = the first line the connection ever wrote). */
export interface LogMark {
  at: number;
  header: string;
}

/** Most start headers kept per connection (older ones are dropped with their lines). */
export const MAX_LOG_MARKS = 100;

/**
 * The log text of server `name`: `lines` are the ring's kept lines, oldest first, after `dropped` older
 * lines were discarded; `marks` are the start headers in order. Headers of dropped lines collapse into the
 * latest one, shown first.
 */
export function renderServerLog(name: string, lines: readonly string[], dropped: number, marks: readonly LogMark[]): string {
  const out = [`# stderr of MCP server ${name} (read-only; last ${lines.length} lines${dropped ? `, ${dropped} earlier lines dropped` : ''})`];
  const early = marks.filter((m) => m.at <= dropped);
  const later = marks.filter((m) => m.at > dropped);
  if (early.length) out.push(early[early.length - 1]!.header);
  let next = 0;
  lines.forEach((line, i) => {
    const at = dropped + i;
    while (next < later.length && later[next]!.at <= at) out.push(later[next++]!.header);
    out.push(line);
  });
  while (next < later.length) out.push(later[next++]!.header);
  if (lines.length === 0) out.push('(no stderr output yet)');
  return `${out.join('\n')}\n`;
}

/** Header of a start attempt: `--- 2026-01-01T00:00:00.000Z start (restart 2) ---`. */
export function startHeader(time: number, restarts: number): string {
  return `--- ${new Date(time).toISOString()} start${restarts ? ` (restart ${restarts})` : ''} ---`;
}

/**
 * Records a start attempt of a connection whose stderr ring has seen `at` lines so far (dropped + kept):
 * appends its header to `marks` (in place; the oldest beyond MAX_LOG_MARKS are dropped). The same first
 * start reported twice at the same line adds nothing.
 */
export function markStart(marks: LogMark[], at: number, time: number, restarts: number): void {
  if (marks.length > 0 && marks.at(-1)!.at === at && restarts === 0) return;
  marks.push({ at, header: startHeader(time, restarts) });
  if (marks.length > MAX_LOG_MARKS) marks.splice(0, marks.length - MAX_LOG_MARKS);
}

/**
 * Records a status line (a failure to start, an exit, a crash) at stderr line `at`: a spawn error writes
 * nothing to stderr, so without this line the log would not say why the server is down. The same text at
 * the same line is added once.
 */
export function markStatus(marks: LogMark[], at: number, time: number, text: string): void {
  const header = `--- ${new Date(time).toISOString()} ${text} ---`;
  if (marks.some((m) => m.at === at && m.header.endsWith(` ${text} ---`))) return;
  marks.push({ at, header });
  if (marks.length > MAX_LOG_MARKS) marks.splice(0, marks.length - MAX_LOG_MARKS);
}

/** Start of every log line that records a skipped stdout line (so stderr tails can leave them out). */
export const STRAY_LOG_PREFIX = '[stdout skipped] ';

/**
 * The log line for a stdout line of server `name` that is not JSON-RPC and was skipped, e.g.
 * `[stdout skipped] files: starting up...`; it goes into the server's log beside its stderr lines.
 */
export function strayStdoutLogLine(name: string, line: string): string {
  return `${STRAY_LOG_PREFIX}${name}: ${line}`;
}
