import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadLocalConfig } from '../../config/env';
import { configError, invalidInput, JevError } from '../../judgment/errors';
import { readLedger, type LedgerContents } from '../../ledger/jsonl';
import type { DecisionRecord } from '../../ledger/record';
import { replayRecord, type DecisionSummary } from '../../ledger/replay';
import { validateFloors, type FloorNames, type Floors } from '../../policy/thresholds';
import type { JudgmentProvider } from '../../judgment/provider';
import { ALL_TOOLS } from '../../tools';
import { JudgmentService } from '../../tools/judgment-service';
import { parseCommandArgs } from '../args';
import { modelLabel, num } from '../format';
import { EXIT, type CliCommand, type CliIO } from '../io';
import { errnoCode, fsReason } from '../fs-reason';
import { reportError, wantsJson } from '../report';
import { safeText } from '../safe-text';
import { exitCodeForError } from '../runtime';

/** Default provider of the replay service: refuses, so a replay can never reach a real backend. */
const NO_UPSTREAM: JudgmentProvider = {
  id: 'none',
  calibrated: false,
  systemOne: async () => {
    throw new JevError('CONFIG_ERROR', 'A replay makes no upstream requests.');
  },
};

/**
 * Reads the ledger named by --file (relative to the working directory) or JEV_LEDGER; skipped lines are
 * reported on stderr. A --file that does not exist, or any ledger that cannot be read (a directory, no
 * permission), is INVALID_INPUT naming the path and the reason (exit 2). A JEV_LEDGER file that does not
 * exist yet holds no decisions (`missing` true): it is created with the first one.
 */
function load(io: CliIO, file: string | undefined): { path: string; contents: LedgerContents; missing: boolean } {
  const configured = file === undefined ? loadLocalConfig(io.env).ledgerPath : undefined;
  const path = file ?? configured;
  if (!path) throw configError('ledger: set JEV_LEDGER to the ledger file (or pass --file FILE).');
  const where = file !== undefined ? `--file ${path}` : `JEV_LEDGER ${path}`;
  const refuse = file !== undefined ? invalidInput : configError;
  const full = resolve(io.cwd, path);
  let missing = false;
  try {
    // readFile would say EISDIR too, but without naming the path; a pipe (`--file <(…)`) is fine.
    if (statSync(full).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT' || file !== undefined) throw refuse(`ledger: cannot read ${where} (${fsReason(err)}).`);
    missing = true;
  }
  let contents: LedgerContents;
  try {
    contents = missing ? { records: [], skipped: [] } : readLedger(full);
  } catch (err) {
    throw refuse(`ledger: cannot read ${where} (${fsReason(err)}).`);
  }
  for (const s of contents.skipped) io.stderr.write(`jevcp: ledger line ${s.line} skipped (${s.reason}).\n`);
  return { path, contents, missing };
}

function count(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw invalidInput(`ledger: ${name} must be a positive whole number.`);
  return n;
}

function probability(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw invalidInput(`ledger replay: ${name} must be a number in [0, 1].`);
  return n;
}

function outcomeOf(r: DecisionRecord): string {
  if (r.error) return `error ${r.error.code}`;
  const s = r.result as { action?: unknown; handoff?: unknown; policy?: { result?: unknown } } | undefined;
  const parts = [typeof s?.action === 'string' ? s.action : typeof s?.policy?.result === 'string' ? `policy ${s.policy.result}` : 'ok'];
  if (typeof s?.handoff === 'string') parts.push(`→ ${s.handoff}`);
  return parts.join(' ');
}

/** One line per record: time, short id, agent, tool, outcome, model, latency. */
function showLine(r: DecisionRecord): string {
  const model = (r.result as { model?: unknown } | undefined)?.model ?? r.response?.model ?? '-';
  return `${r.time}  ${r.id.slice(0, 8)}  ${r.agent.padEnd(6)} ${r.tool.padEnd(16)} ${outcomeOf(r).padEnd(28)} ${String(model)}  ${r.latency_ms} ms`;
}

async function show(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('ledger show', args, { json: { type: 'boolean' }, last: { type: 'string', short: 'n' }, file: { type: 'string' } });
  const last = count(values.last, '--last');
  const { path, contents, missing } = load(io, values.file);
  const records = last === undefined ? contents.records : contents.records.slice(-last);
  if (values.json) {
    io.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
  } else if (missing) {
    io.stdout.write(safeText(`no decisions recorded yet: ${path} does not exist (it is created with the first decision)\n`));
  } else if (records.length === 0) {
    io.stdout.write(safeText(`no decisions recorded in ${path}\n`));
  } else {
    for (const r of records) io.stdout.write(safeText(`${showLine(r)}\n`));
  }
  return EXIT.OK;
}

function summaryLines(label: string, s: DecisionSummary): string[] {
  if (!s.ok) return [`  ${label.padEnd(7)} error ${s.error?.code}: ${s.error?.message}`];
  const parts = [`action ${s.action ?? '-'}`];
  if (s.decision) parts.unshift(`decision ${s.decision}`);
  if (s.handoff) parts.push(`handoff ${s.handoff}`);
  if (s.reason_codes) parts.push(`reasons ${s.reason_codes.join(', ') || '-'}`);
  const lines = [`  ${label.padEnd(7)} ${parts.join(' · ')}`];
  if (s.thresholds) lines.push(`  ${''.padEnd(7)} thresholds ${Object.entries(s.thresholds).map(([k, v]) => `${k} ${num(v)}`).join(', ')}`);
  return lines;
}

/** Picks the record: `--id` (full id or unique prefix) or the last one. */
function pick(records: DecisionRecord[], id: string | undefined): DecisionRecord {
  const decisions = records.filter((r) => r.kind === 'decision');
  if (id === undefined) {
    const last = decisions.at(-1);
    if (!last) throw invalidInput('ledger replay: the ledger holds no decisions.');
    return last;
  }
  const hits = decisions.filter((r) => r.id === id || r.id.startsWith(id));
  if (hits.length === 0) throw invalidInput(`ledger replay: no decision with id ${JSON.stringify(id)}.`);
  if (hits.length > 1 && !hits.some((r) => r.id === id)) throw invalidInput(`ledger replay: id prefix ${JSON.stringify(id)} matches ${hits.length} decisions; give more characters.`);
  return hits.find((r) => r.id === id) ?? hits[0]!;
}

async function replay(args: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs('ledger replay', args, {
    id: { type: 'string' },
    last: { type: 'boolean' },
    'auto-accept': { type: 'string' },
    'review-at': { type: 'string' },
    'block-at': { type: 'string' },
    file: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.id !== undefined && values.last) throw invalidInput('ledger replay: give either --id or --last, not both.');
  // Thresholds and model only: a replay asks no provider, so an incomplete provider setup must not stop it.
  const config = loadLocalConfig(io.env);
  const floors: Floors = {
    auto_accept: probability(values['auto-accept'], '--auto-accept') ?? config.floors.auto_accept,
    review_at: probability(values['review-at'], '--review-at') ?? config.floors.review_at,
    block_at: probability(values['block-at'], '--block-at') ?? config.floors.block_at,
  };
  // The same rules as the environment floors, so a replay shows what a real setting would do. A floor is
  // named by its flag when given, else by the variable it came from.
  const names: FloorNames = {
    auto_accept: values['auto-accept'] !== undefined ? '--auto-accept' : 'JEV_AUTO_ACCEPT',
    review_at: values['review-at'] !== undefined ? '--review-at' : 'JEV_REVIEW_AT',
    block_at: values['block-at'] !== undefined ? '--block-at' : 'JEV_BLOCK_AT',
  };
  const [broken] = validateFloors(floors, names);
  if (broken) throw invalidInput(`ledger replay: ${names[broken.floor]} ${broken.rule}; got ${num(floors[broken.floor])}.`);
  const { contents } = load(io, values.file);
  const record = pick(contents.records, values.id);
  if (record.error && (record.exchanges ?? []).length === 0) {
    throw invalidInput(`ledger replay: ${record.id} is a call that failed before any judgment (${record.error.code}: ${record.error.message}); there are no answers to replay.`);
  }

  // No ledger on this service: a replay is a what-if, not a new decision. The real provider is never asked.
  const service = new JudgmentService({
    provider: NO_UPSTREAM,
    tools: ALL_TOOLS,
    floors,
    model: config.model,
    timeoutMs: config.timeoutMs,
  });
  const result = await replayRecord(record, floors, service);
  // The recorded request was valid, but not with these thresholds: a bad argument, not a changed decision.
  if (!result.outcome.ok && result.before.ok && exitCodeForError(result.outcome.error) === EXIT.INVALID) {
    throw invalidInput(`ledger replay: these thresholds make the recorded ${record.tool} request invalid (${result.outcome.error.message})`);
  }
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify(
        {
          id: record.id,
          tool: record.tool,
          floors,
          before: result.before,
          after: result.after,
          upstream_requests: 0,
          exchanges_replayed: result.exchangesReplayed,
          result: result.outcome.ok ? result.outcome.result : undefined,
        },
        null,
        2,
      )}\n`,
    );
  } else {
    const model = (record.result as { model?: unknown } | undefined)?.model ?? record.response?.model;
    const lines = [
      `replay ${record.id} — ${record.tool} from ${record.time}${model !== undefined ? `, model ${modelLabel(model)}` : ''}`,
      `  floors  auto_accept ${num(floors.auto_accept)}, review_at ${num(floors.review_at)}, block_at ${num(floors.block_at)}`,
      ...summaryLines('before', result.before),
      ...summaryLines('after', result.after),
      `  ${result.exchangesReplayed} recorded exchange(s) replayed, 0 upstream requests${result.exchangesUnused ? `, ${result.exchangesUnused} unused` : ''}`,
    ];
    const changed = JSON.stringify({ ...result.before, thresholds: undefined }) !== JSON.stringify({ ...result.after, thresholds: undefined });
    lines.push(changed ? '  the decision CHANGES with these thresholds' : '  the decision is the same with these thresholds');
    const perCall = ['auto_accept', 'review_at', 'block_at'].filter((k) => typeof (record.input as Record<string, unknown> | null)?.[k] === 'number');
    if (perCall.length) lines.push(`  note: the request itself sets ${perCall.join(', ')}; per-call values can only tighten the floors`);
    io.stdout.write(safeText(`${lines.join('\n')}\n`));
  }
  if (!result.outcome.ok && result.outcome.error.code === 'INVALID_RESPONSE' && result.outcome.error.message.startsWith('Replay')) return EXIT.OPERATIONAL;
  return EXIT.OK;
}

/** `jevcp ledger show [--json] [--last N] [--file F]` and `jevcp ledger replay [--id ID|--last] [--auto-accept X] [--review-at Y] [--block-at Z] [--json] [--file F]`. */
export const ledgerCommand: CliCommand = async (args, io) => {
  try {
    const [sub, ...rest] = args;
    if (sub === 'show') return await show(rest, io);
    if (sub === 'replay') return await replay(rest, io);
    throw invalidInput(`ledger: expected \`show\` or \`replay\`${sub ? `, got ${JSON.stringify(sub)}` : ''}.`);
  } catch (err) {
    return reportError(io, err, wantsJson(args));
  }
};
