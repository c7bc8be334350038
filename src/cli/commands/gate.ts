import { DEFAULT_EVIDENCE_TIMEOUT_MS, evidenceCommandProblem, evidenceTimeoutProblem } from '../../gate/evidence-command';
import { readGateFailOpen } from '../../gate/fail-open';
import { invalidInput } from '../../judgment/errors';
import { parseCommandArgs } from '../args';
import { cliError, wantsJson } from '../report';
import type { CliCommand } from '../io';
import { reportStopped } from '../gate/report';
import { gateRange } from '../gate/range-gate';
import { gateStaged } from '../gate/staged-gate';
import type { GateOptions } from '../gate/options';

export { cliGateWording } from '../gate/options';


/**
 * `jevcp gate --staged [--message-file F] [--claim TEXT]... [--evidence-cmd CMD] [--evidence-timeout MS] [--allow-mock] [--json]`
 * `jevcp gate --range BASE..HEAD [--claim TEXT]... [--evidence-cmd CMD] [--evidence-timeout MS] [--allow-mock] [--json | --format sarif]`
 * `jevcp gate --hook --message-file F [--allow-mock] [--evidence-cmd CMD]` (what the commit-msg hook runs)
 *
 * jev_gate on the staged change (cli/gate/staged-gate.ts) or on a range's combined diff with its commits'
 * claims (cli/gate/range-gate.ts). Exit: 0 auto (pass), nothing to gate, an override, an advisory mock
 * verdict; 1 review/escalate (not passed); 2 invalid input/config, "no judgment backend"; 3 provider or
 * operational failure — fail-closed; JEV_GATE_FAIL_OPEN=1 lets such a failure through with a warning.
 */
export const gateCommand: CliCommand = async (args, io) => {
  let failOpen = false;
  let hook = false;
  try {
    const { values } = parseCommandArgs('gate', args, {
      staged: { type: 'boolean' },
      range: { type: 'string' },
      hook: { type: 'boolean' },
      'message-file': { type: 'string', short: 'm' },
      claim: { type: 'string', multiple: true },
      'evidence-cmd': { type: 'string' },
      'evidence-timeout': { type: 'string' },
      'allow-mock': { type: 'boolean' },
      json: { type: 'boolean' },
      format: { type: 'string' },
    });
    hook = values.hook === true;
    failOpen = readGateFailOpen(io.env);
    const modes = [values.staged && '--staged', values.range !== undefined && '--range', hook && '--hook'].filter(Boolean);
    if (modes.length !== 1) {
      throw invalidInput(`gate: pass exactly one of --staged (the staged change), --range BASE..HEAD (a pull request, in CI) or --hook (the commit-msg hook)${modes.length ? `; got ${modes.join(' and ')}` : ''}.`);
    }
    let evidenceTimeoutMs = DEFAULT_EVIDENCE_TIMEOUT_MS;
    if (values['evidence-timeout'] !== undefined) {
      evidenceTimeoutMs = Number(values['evidence-timeout']);
      const problem = evidenceTimeoutProblem(evidenceTimeoutMs);
      if (problem) throw invalidInput(`gate: --evidence-timeout: ${problem}.`);
    }
    const evidenceCommand = values['evidence-cmd'];
    const commandProblem = evidenceCommand === undefined ? undefined : evidenceCommandProblem(evidenceCommand);
    if (commandProblem) throw invalidInput(`gate: --evidence-cmd: ${commandProblem}.`);
    if (values.range !== undefined && values['message-file'] !== undefined) throw invalidInput('gate: --message-file applies to --staged and --hook; a range is judged against its commit messages.');
    if (hook && values['message-file'] === undefined) throw invalidInput('gate: --hook needs --message-file (git passes the message file to the commit-msg hook).');
    if (values.format !== undefined && values.format !== 'sarif') throw invalidInput(`gate: --format: only "sarif" is known; got ${JSON.stringify(values.format)}.`);
    const sarif = values.format === 'sarif';
    if (sarif && values.range === undefined) throw invalidInput('gate: --format sarif applies to --range (code scanning of a pull request).');
    if (sarif && values.json === true) throw invalidInput('gate: pass either --json or --format sarif: both write stdout.');
    const options: GateOptions = { sarif, json: values.json === true, failOpen, allowMock: values['allow-mock'] === true, claims: values.claim ?? [], evidenceCommand, evidenceTimeoutMs };
    if (values.range !== undefined) return await gateRange(io, values.range, options);
    return await gateStaged(io, { ...options, hook, messageFile: values['message-file'] });
  } catch (err) {
    return reportStopped(io, cliError(err), { hook, json: wantsJson(args), failOpen });
  }
};
