/**
 * The inline surfaces and the commit gate in one call for `activate()`: inline inspection of `*.jev.json` request files and
 * recorded decisions (CodeLens, after-line decorations, hovers, the "Execute call" code action, the
 * `jev-decision:` documents) and the commit gate (Source Control button, commit hook commands).
 * Activation stays light (extension.ts): this registers the commands and thin providers only; the
 * implementation (inline-and-gate.ts) lives in the runtime bundle and is built when the runtime loads,
 * which activation starts right away. Until then the providers answer nothing and the commands wait.
 */
import * as vscode from 'vscode';
import type { CoreHost } from '../core-host';
import type { GateHooks } from '../gate/gate-command';
import type { AppliedMark } from './decorations';
import { DECISION_SCHEME, EXECUTE_KIND_VALUE, GATE_COMMANDS, INLINE_COMMANDS, INLINE_SELECTOR } from './ids';
import type { InlineAndGate } from './inline-and-gate';

/** What the host tests read and steer (exported by `activate()` outside Production mode only). */
export interface InlineGateApi {
  /** Resolves once the implementation is built (the runtime loaded). */
  ready(): Promise<void>;
  /** Decision id of the last run of request file `uri`. */
  runOf(uri: vscode.Uri): string | undefined;
  /** The after-line decorations last applied to `uri` (empty when none). */
  decorationsFor(uri: vscode.Uri): AppliedMark[];
  /** Replaces the gate's prompts (a test cannot click a notification); `{}` restores them. */
  setGateHooks(hooks: GateHooks): void;
  /** Where the commit hook channel listens and its session file, once started. */
  hookChannel(): { port: number; sessionFile: string } | undefined;
}

/** Registers the inline and gate commands and providers, pushing every disposable into `context.subscriptions`. */
export function registerInlineAndGate(context: vscode.ExtensionContext, core: CoreHost): InlineGateApi {
  let impl: InlineAndGate | undefined;
  let loading: Promise<InlineAndGate> | undefined;
  let hooks: GateHooks = {};
  const lensesChanged = new vscode.EventEmitter<void>();
  const load = (): Promise<InlineAndGate> =>
    (loading ??= core.get().then(async () => {
      const built = (await core.module()).createInlineAndGate(context, core);
      built.gate.hooks = hooks;
      context.subscriptions.push(built, built.lenses.onDidChangeCodeLenses(() => lensesChanged.fire()));
      impl = built;
      lensesChanged.fire();
      return built;
    }));
  core.onLoaded(() => void load());
  const forward = (id: string) => vscode.commands.registerCommand(id, async (...args: unknown[]) => (await load()).commands[id]!(...args));

  context.subscriptions.push(
    lensesChanged,
    // jevPanel.openDecision belongs to the panel (commands.ts); the lenses only call it.
    ...[INLINE_COMMANDS.run, INLINE_COMMANDS.chooseAgent, INLINE_COMMANDS.execute, INLINE_COMMANDS.openDocument].map(forward),
    ...Object.values(GATE_COMMANDS).map(forward),
    vscode.workspace.registerTextDocumentContentProvider(DECISION_SCHEME, {
      provideTextDocumentContent: async (uri) => (await load()).documents.provideTextDocumentContent(uri),
    }),
    vscode.languages.registerCodeLensProvider(INLINE_SELECTOR, {
      onDidChangeCodeLenses: lensesChanged.event,
      provideCodeLenses: (doc) => impl?.lenses.provideCodeLenses(doc) ?? [],
    }),
    vscode.languages.registerHoverProvider(INLINE_SELECTOR, { provideHover: (doc, position) => impl?.hovers.provideHover(doc, position) }),
    vscode.languages.registerCodeActionsProvider(
      INLINE_SELECTOR,
      { provideCodeActions: (doc, range) => impl?.codeActions.provideCodeActions(doc, range) ?? [] },
      { providedCodeActionKinds: [vscode.CodeActionKind.Empty.append(EXECUTE_KIND_VALUE)] },
    ),
  );

  return {
    ready: async () => {
      await load();
    },
    runOf: (uri) => impl?.decisions.runOf(uri),
    decorationsFor: (uri) => impl?.decorations.appliedFor(uri) ?? [],
    hookChannel: () => impl?.channel()?.info,
    setGateHooks: (next) => {
      hooks = next;
      if (impl) impl.gate.hooks = next;
    },
  };
}
