import { invalidInput } from '../../judgment/errors';
import { DEFAULT_MAX_RECORDED_BYTES, capValue } from '../../ledger/bound';
import { execute, type ExecutionOutcome } from '../../registry/execute';
import { prepare, type CandidateFacts, type CandidateRequest } from '../../registry/prepare';
import { RETRY_LIMIT } from '../../tools/candidates';
import { openRegistry } from '../../registry/setup';
import { progressPrinter } from '../progress-line';
import { cliConnectionOptions } from '../mcp-client-options';
import { parseCommandArgs } from '../args';
import { formatDecision } from '../format';
import { readJsonInput } from '../input';
import { EXIT, type CliCommand, type CliIO } from '../io';
import { interruptSignal, printOutcome, printThresholdNotes } from '../outcome';
import { reportError, wantsJson } from '../report';
import { safeText } from '../safe-text';
import { createRuntime, type Runtime } from '../runtime';
import { splitRequestFile } from '../../request-files/read';

/** Tools whose candidates the registry can prepare and whose accepted call it can execute. */
const ROUTING_TOOLS = new Set(['jev_step', 'jev_tool_route']);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `jevcp step FILE --agent NAME [--execute] [--config F] [--json]`: loads the agent and
 * servers (config file, then MCP_SERVERS / MCP_ORACLE), lets the host set each candidate's trusted facts
 * (schema_valid from the tool's real inputSchema, authorized from the agent's grants, effect from
 * annotations), judges with jev_step (or jev_tool_route when the file says so), and with `--execute` runs
 * the accepted call through the registry, recording the execution in the ledger.
 * Exit: 0 decision made (and, with --execute, the call ran and succeeded); 1 --execute but the decision
 * did not accept a call, or the mock judge made it (its canned verdicts never run a tool); 2 invalid input/config; 3 provider failure or the executed call failed.
 */
export const stepAgentCommand: CliCommand = async (args, io) => {
  try {
    const { values, positionals } = parseCommandArgs(
      'step',
      args,
      { agent: { type: 'string' }, execute: { type: 'boolean' }, config: { type: 'string' }, json: { type: 'boolean' } },
      true,
    );
    if (positionals.length !== 1) throw invalidInput('step: give exactly one request file, e.g. `jevcp step turn.jev.json --agent coder`.');
    if (!values.agent) throw invalidInput('step: --agent NAME is required here.');
    const file = positionals[0]!;
    const { tool, input } = splitRequestFile(await readJsonInput(file, io, 'step: the request file argument'), file);
    if (!ROUTING_TOOLS.has(tool)) throw invalidInput(`${file}: tool: --agent works with jev_step or jev_tool_route, not ${JSON.stringify(tool)}.`);

    const runtime = createRuntime(io);
    try {
      return await judgeAndExecute(runtime, tool, input, { agent: values.agent, execute: values.execute === true, config: values.config, json: values.json === true }, io);
    } finally {
      runtime.close();
    }
  } catch (err) {
    return reportError(io, err, wantsJson(args));
  }
};

interface StepOptions {
  agent: string;
  execute: boolean;
  config?: string;
  json: boolean;
}

/** Loads the agent and servers, prepares candidates, judges, and executes when asked and accepted. */
async function judgeAndExecute(runtime: Runtime, tool: string, input: Record<string, unknown>, values: StepOptions, io: CliIO): Promise<number> {
  const opened = await openRegistry({ cwd: io.cwd, env: io.env, configPath: values.config, connection: cliConnectionOptions(io) });
  const { registry } = opened;
  try {
    const agent = opened.agents.find((a) => a.name === values.agent);
    if (!agent) {
      const known = opened.agents.map((a) => a.name);
      throw invalidInput(`step: --agent: no agent ${JSON.stringify(values.agent)} in ${opened.configFound ? opened.configPath : '.jev/config.json (not found)'}${known.length ? `; agents: ${known.join(', ')}` : ''}.`);
    }
    const views = await registry.start();
    const notes = [
      ...opened.warnings,
      ...views.filter((v) => v.status.state !== 'ready').map((v) => `server ${v.name} is ${v.status.state}: ${v.status.reason ?? 'no reason given'}`),
      ...registry.grantWarnings([agent]),
    ];
    for (const n of notes) io.stderr.write(safeText(`jevcp: warning: ${n}\n`));

    // Host facts replace the agent's claims; anything malformed is left for the tool to reject by field.
    let facts: CandidateFacts[] = [];
    let judged: Record<string, unknown> = input;
    if (Array.isArray(input.candidates) && input.candidates.every(isPlainObject)) {
      const prepared = prepare(registry, agent, input.candidates as unknown as CandidateRequest[]);
      facts = prepared.facts;
      judged = { ...input, candidates: prepared.candidates };
    }

    const interrupt = interruptSignal();
    try {
      const outcome = await runtime.service.call(tool, judged, { agent: agent.name, signal: interrupt.signal });
      if (!outcome.ok) return printOutcome(io, tool, outcome, values.json);
      let execution: ExecutionOutcome | undefined;
      if (values.execute && outcome.record.provider === 'mock') {
        // --execute runs what a judge accepted; the mock's verdicts are canned, so they never run a tool.
        execution = { executed: false, reason: 'the mock judge decided (a canned verdict, not a judgment), so nothing runs; configure a backend (JEV_API_KEY and JEV_BASE_URL, or JEV_PROVIDER) to execute' };
      } else if (values.execute) {
        const accepted = (outcome.result as { call?: { name?: unknown } }).call?.name;
        const onProgress = progressPrinter(io.stderr, typeof accepted === 'string' ? accepted : tool);
        execution = await execute({ registry, ledger: runtime.ledger, signal: interrupt.signal, onProgress }, agent, outcome.record);
      }
      if (values.json) {
        io.stdout.write(`${JSON.stringify({ decision_id: outcome.record.id, agent: agent.name, result: outcome.result, facts, ...(execution ? { execution: executionJson(execution, runtime.config.maxRecordedBytes ?? DEFAULT_MAX_RECORDED_BYTES) } : {}) }, null, 2)}\n`);
        printThresholdNotes(io, input, outcome.result);
      } else {
        io.stdout.write(formatDecision(tool, outcome.result, input));
        io.stdout.write(safeText(formatFacts(agent.name, facts)));
        if (execution) io.stdout.write(safeText(formatExecution(execution)));
      }
      if (!execution) return EXIT.OK;
      if (!execution.executed) return EXIT.GATE_NOT_PASSED;
      return execution.ok ? EXIT.OK : EXIT.OPERATIONAL;
    } finally {
      interrupt.dispose();
    }
  } finally {
    await registry.shutdown();
  }
}

/** The `execution` of `--json` output; a result above `maxBytes` is printed as its cut marker (src/ledger/bound.ts). */
function executionJson(e: ExecutionOutcome, maxBytes: number): Record<string, unknown> {
  if (!e.executed) return { executed: false, reason: e.reason };
  return e.ok
    ? { executed: true, ok: true, tool: e.tool, result: capValue(e.result, maxBytes), record_id: e.record.id }
    : { executed: true, ok: false, tool: e.tool, error: e.error, record_id: e.record.id };
}

/** Printout of the host facts behind each candidate. */
export function formatFacts(agent: string, facts: readonly CandidateFacts[]): string {
  if (facts.length === 0) return '';
  const mark = (v: boolean) => (v ? 'yes' : 'NO');
  const lines = [`host facts for agent ${agent}:`];
  for (const f of facts) {
    lines.push(`  ${f.id}: ${f.tool ?? '(unknown tool)'}`);
    lines.push(`    schema_valid ${mark(f.schema_valid.value)} — ${f.schema_valid.detail}${f.schema_valid.caller === true && !f.schema_valid.host ? ' (the caller claimed true)' : ''}`);
    lines.push(`    authorized   ${mark(f.authorized.value)} — ${f.authorized.detail}${f.authorized.caller === true && !f.authorized.host ? ' (the caller claimed true)' : ''}`);
    lines.push(`    effect       ${f.effect.value} — ${f.effect.detail}`);
    // The request's own facts decide eligibility as much as the host's; a call blocked by them must show why.
    lines.push(`    preconditions_met ${mark(f.preconditions_met.value)} — ${f.preconditions_met.detail}`);
    if (f.failed_attempts > 0) lines.push(`    failed_attempts ${String(f.failed_attempts)} — from the request (a call is blocked at ${String(RETRY_LIMIT)})`);
  }
  return `${lines.join('\n')}\n`;
}

/** Printout of what `--execute` did. */
export function formatExecution(e: ExecutionOutcome): string {
  if (!e.executed) return `not executed: ${e.reason}\n`;
  if (e.ok) {
    const text = JSON.stringify(e.result);
    return `executed ${e.tool}: ok ${text.length > 400 ? `${text.slice(0, 400)}…` : text} (ledger ${e.record.id}, decision ${e.record.decision_id})\n`;
  }
  return `executed ${e.tool}: FAILED ${e.error.code}: ${e.error.message} (ledger ${e.record.id}, decision ${e.record.decision_id})\n`;
}
