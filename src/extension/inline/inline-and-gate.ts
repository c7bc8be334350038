/**
 * The implementation behind inline/register.ts, built in the runtime bundle once the runtime loads: the
 * inline surfaces of request files and recorded decisions (CodeLens, decorations, hovers, the "Execute call"
 * code action, `jev-decision:` documents) and the commit gate with its hook commands.
 */
import * as vscode from 'vscode';
import type { DecisionRecord } from '../../ledger/record';
import type { CoreHost } from '../core-host';
import { CommitGate } from '../gate/gate-command';
import { HookChannel } from '../gate/hook-channel';
import { installCommitHook, uninstallCommitHook } from '../gate/install-hook-command';
import { installVsCodeGuard, uninstallVsCodeGuard } from '../guard/install-guard-command';
import { refreshLauncher } from '../gate/launcher-refresh';
import { InlineCodeActions } from './code-actions';
import { InlineCodeLenses } from './codelens';
import { DecisionDocuments } from './decision-document';
import { InlineDecisions } from './decisions';
import { InlineDecorations } from './decorations';
import { InlineHovers } from './hovers';
import { GATE_COMMANDS, INLINE_COMMANDS } from './ids';
import { RequestRunner } from './run-request';

/** Everything the shell forwards to. */
export interface InlineAndGate extends vscode.Disposable {
  decisions: InlineDecisions;
  lenses: InlineCodeLenses;
  hovers: InlineHovers;
  codeActions: InlineCodeActions;
  documents: DecisionDocuments;
  decorations: InlineDecorations;
  runner: RequestRunner;
  gate: CommitGate;
  /** The channel through which commit hooks judge with this editor (started once the runtime loads). */
  channel: () => HookChannel | undefined;
  /** Command id → handler, for every inline and gate command. */
  commands: Record<string, (...args: unknown[]) => unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Builds the inline surfaces and the gate on the loaded runtime (`core.loaded`). */
export function createInlineAndGate(context: vscode.ExtensionContext, core: CoreHost): InlineAndGate {
  const decisions = new InlineDecisions(
    (id) => core.loaded?.feed.getRecord(id),
    () => (core.loaded ? [...core.loaded.service.tools.keys()] : undefined),
  );
  const runner = new RequestRunner(context, core, decisions);
  const executable = (record: DecisionRecord) => runner.executable(record);
  const lenses = new InlineCodeLenses({ decisions, agentLabel: () => runner.agentLabel(), executable, deniedCall: (record) => runner.deniedCall(record) });
  const decorations = new InlineDecorations(decisions);
  const gate = new CommitGate(core);
  const documents = new DecisionDocuments(async (id) => {
    const runtime = await core.get();
    await runtime.ready;
    return runtime.feed.getRecord(id);
  });
  const subs: vscode.Disposable[] = [decisions, lenses, decorations, decisions.onDidChange(() => lenses.refresh())];
  let channel: HookChannel | undefined;
  // A new record (this window's runs, executions, the gate) may be the one a view waits for.
  core.onLoaded((runtime) => {
    const unsubscribe = runtime.feed.onAppend(() => decisions.changed());
    subs.push({ dispose: unsubscribe });
    // Grants and server tool lists decide whether Execute is offered.
    subs.push(runtime.onDidChangeAgents(() => decisions.changed()), runtime.onDidChangeServers(() => decisions.changed()));
    // Commit hooks: the launcher they run follows this extension; the channel lets them judge here.
    void refreshLauncher(context, runtime.log);
    channel = new HookChannel(runtime);
    subs.push(channel);
    void runtime.ready.then(() => channel?.start());
  });
  return {
    decisions,
    lenses,
    hovers: new InlineHovers(decisions, executable),
    codeActions: new InlineCodeActions(decisions, executable),
    documents,
    decorations,
    runner,
    gate,
    channel: () => channel,
    commands: {
      [INLINE_COMMANDS.run]: (uri, opts) => runner.run(uri, isObject(opts) && typeof opts.agent === 'string' ? { agent: opts.agent } : {}),
      [INLINE_COMMANDS.chooseAgent]: () => runner.chooseAgent(),
      [INLINE_COMMANDS.execute]: (id) => runner.execute(id),
      [INLINE_COMMANDS.openDocument]: (id) => runner.openDocument(id),
      [GATE_COMMANDS.gate]: (arg) => gate.run(arg),
      [GATE_COMMANDS.installHook]: (arg) => installCommitHook(context, core, arg, gate.hooks),
      [GATE_COMMANDS.uninstallHook]: (arg) => uninstallCommitHook(arg),
      // The panel's Guard row follows at once (the file watcher may not see a folder created just now).
      [GATE_COMMANDS.guardInstall]: async (arg) => {
        const result = await installVsCodeGuard(context, core, arg);
        await core.loaded?.guard.refresh();
        return result;
      },
      [GATE_COMMANDS.guardUninstall]: async (arg) => {
        const result = await uninstallVsCodeGuard(arg);
        await core.loaded?.guard.refresh();
        return result;
      },
    },
    dispose: () => {
      for (const s of subs) s.dispose();
    },
  };
}
