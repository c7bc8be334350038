/**
 * Ids shared by the activation shell (inline/register.ts) and the inline/gate implementation in the runtime
 * bundle: command ids, the decision-document scheme, and where the inline providers apply. No imports.
 */

/** Commands of the inline surfaces. */
export const INLINE_COMMANDS = {
  run: 'jevPanel.runRequestFile',
  chooseAgent: 'jevPanel.chooseRequestAgent',
  openDecision: 'jevPanel.openDecision',
  openDocument: 'jevPanel.openDecisionDocument',
  execute: 'jevPanel.executeDecisionCall',
} as const;

/** Commands of the commit gate. */
export const GATE_COMMANDS = {
  gate: 'jevPanel.gateStagedChanges',
  installHook: 'jevPanel.installCommitHook',
  uninstallHook: 'jevPanel.uninstallCommitHook',
  /** The permission guard's hook for VS Code's agent (src/extension/guard/install-guard-command.ts). */
  guardInstall: 'jevPanel.guard.install',
  guardUninstall: 'jevPanel.guard.uninstall',
} as const;

/** URI scheme of read-only recorded decisions (our own scheme, so our selectors never match user files). */
export const DECISION_SCHEME = 'jev-decision';

/** Where the inline providers apply: request files anywhere, and decision documents (a vscode.DocumentSelector). */
export const INLINE_SELECTOR = [{ pattern: '**/*.jev.json' }, { scheme: DECISION_SCHEME }];

/** Code action kind of "Execute call" (`jev.executeCall`). */
export const EXECUTE_KIND_VALUE = 'jev.executeCall';
