// Test-only extension for scripts/test-agent.mjs: a chat model (vendor "jev-scripted") that VS Code's agent mode
// can select with no account and no network, whose answers follow a script. VS Code's real agent loop then runs:
// Copilot Chat's tool validation, VS Code's MCP client, hooks, confirmations and MCP Apps rendering.
//
// The script is the JSON file named by $JEV_AGENT_SCRIPT, read at every model request (the harness may rewrite
// it between turns): { "query": "…", "steps": [ { "call": "<tool name suffix>", "input": {…} } | { "text": "…" } ],
// "theme"?: "<colour theme id>" }; a change of `theme` is applied at once (the harness switches themes this way).
// The answer to a request is steps[k], k = the number of tool results in the conversation so far; past the end
// the model answers "done.". Every request and answer is appended as one JSON line to $JEV_AGENT_LOG.
const vscode = require('vscode');
const fs = require('fs');

const JEV_EXTENSION = 'jevcp.jev-control-panel';
const JEV_SERVER = `${JEV_EXTENSION}/Jev Control Panel`;

function log(event, data = {}) {
  const file = process.env.JEV_AGENT_LOG;
  if (!file) return;
  try {
    fs.appendFileSync(file, JSON.stringify({ t: Date.now(), event, ...data }) + '\n');
  } catch {
    /* the log is best effort: a test then fails on what it does not find */
  }
}

function readScript() {
  try {
    return JSON.parse(fs.readFileSync(process.env.JEV_AGENT_SCRIPT, 'utf8'));
  } catch (err) {
    log('script-error', { message: String(err) });
    return { steps: [] };
  }
}

function resultText(part) {
  return (part.content || []).map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : typeof c?.value === 'string' ? c.value : '')).join('');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Applies the script's `theme` (a colour theme id) when it differs from the current one: the harness's control. */
async function followTheme() {
  const theme = readScript().theme;
  const config = vscode.workspace.getConfiguration('workbench');
  if (typeof theme === 'string' && config.get('colorTheme') !== theme) {
    await config.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
    log('theme', { theme });
  }
}

exports.activate = (context) => {
  log('activate');
  if (process.env.JEV_AGENT_SCRIPT) {
    fs.watchFile(process.env.JEV_AGENT_SCRIPT, { interval: 250 }, () => void followTheme().catch((err) => log('theme-error', { message: String(err) })));
    context.subscriptions.push({ dispose: () => fs.unwatchFile(process.env.JEV_AGENT_SCRIPT) });
  }
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('jev-scripted', {
      provideLanguageModelChatInformation() {
        return [
          {
            id: 'scripted-agent',
            name: 'Jev Scripted Agent',
            family: 'jev-scripted',
            version: '1',
            detail: 'test only',
            tooltip: 'answers from a script (scripts/test-agent.mjs)',
            maxInputTokens: 200000,
            maxOutputTokens: 8000,
            isUserSelectable: true,
            capabilities: { toolCalling: true, imageInput: false },
          },
        ];
      },
      async provideLanguageModelChatResponse(model, messages, options, progress) {
        const tools = (options.tools || []).map((t) => t.name);
        const results = messages.flatMap((m) => (m.content || []).filter((p) => p instanceof vscode.LanguageModelToolResultPart));
        const last = results[results.length - 1];
        log('request', { tools, toolResults: results.length, lastResult: last ? resultText(last).slice(0, 4000) : undefined });
        const step = (readScript().steps || [])[results.length];
        if (step && step.call) {
          const name = tools.find((n) => n === step.call || n.endsWith(step.call));
          if (!name) {
            log('no-tool', { wanted: step.call });
            progress.report(new vscode.LanguageModelTextPart(`No tool named ${step.call} is offered.`));
            return;
          }
          const callId = `call_${results.length}_${Date.now()}`;
          log('call', { name, callId });
          progress.report(new vscode.LanguageModelToolCallPart(callId, name, step.input || {}));
          return;
        }
        const text = step && step.text ? step.text : 'done.';
        log('text', { text });
        progress.report(new vscode.LanguageModelTextPart(text));
      },
      async provideTokenCount(model, text) {
        return Math.ceil((typeof text === 'string' ? text.length : JSON.stringify(text).length) / 4);
      },
    }),
  );

  // Activates Jev, starts its MCP server in VS Code's MCP client, waits for its tools, then opens a new chat in
  // agent mode with this model and sends the script's query.
  context.subscriptions.push(
    vscode.commands.registerCommand('jevAgentTest.runTurn', async () => {
      try {
        await vscode.extensions.getExtension(JEV_EXTENSION)?.activate();
        for (let i = 0; i < 60 && !vscode.lm.tools.some((t) => /jev_step$/.test(t.name)); i++) {
          try {
            await vscode.commands.executeCommand('workbench.mcp.startServer', JEV_SERVER, { waitForLiveTools: true });
          } catch (err) {
            log('start-server-error', { message: String(err) });
          }
          await sleep(1000);
        }
        log('lm-tools', { tools: vscode.lm.tools.map((t) => t.name) });
        const script = readScript();
        // Each turn starts a new chat: the script's step index counts the tool results of this conversation only.
        await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, (err) => log('new-chat-error', { message: String(err) }));
        await vscode.commands.executeCommand('workbench.action.chat.open', {
          query: script.query || 'Judge the next step.',
          mode: 'agent',
          modelSelector: { vendor: 'jev-scripted', id: 'scripted-agent' },
        });
        log('chat-opened');
      } catch (err) {
        log('run-error', { message: String((err && err.stack) || err) });
      }
    }),
  );
};

exports.deactivate = () => {};
