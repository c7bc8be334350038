import type { GateWording } from './request';

/**
 * The gate's notes and errors in editor terms: the Source Control input box and the
 * `jevPanel.gate.evidenceCommand` setting where the CLI names its flags (the CLI's wording is `cliGateWording`
 * in src/cli/commands/gate.ts).
 */
export const EDITOR_GATE_WORDING: GateWording = {
  errorPrefix: '',
  messageSource: 'in the Source Control input box',
  emptyMessageRemedy: 'write it there first: the gate judges the staged diff against it',
  messageOption: 'the Source Control input box',
  claimOption: 'claims typed',
  evidenceOption: 'setting jevPanel.gate.evidenceCommand',
};
