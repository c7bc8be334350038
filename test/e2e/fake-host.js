// Fake extension host for the static harness page (test-only, plain browser JS). It stands in for
// VS Code's `acquireVsCodeApi()` and for src/extension's PanelConnection: it answers `ready` with a
// snapshot built from real ledger records (window.__JEV_FIXTURES__, written by harness-server.mjs from
// `jevcp` runs with the mock judge), optionally padded with synthetic feed rows (?rows=N), answers
// getRecord / toggleGrant / runSampleStep, and keeps setState in sessionStorage so a reload restores it.
// Every message from the webview is logged in window.__hostLog; CSP violations in window.__cspViolations.
(function () {
  'use strict';
  const fixtures = window.__JEV_FIXTURES__ || { records: [] };
  const params = new URLSearchParams(location.search);
  // ?rows=N: pad the feed with synthetic rows up to N rows in total.
  const synthetic = Math.max(0, Number(params.get('rows') || 0) - fixtures.records.length);
  const STATE_KEY = 'jev-harness-state';
  const log = (window.__hostLog = []);
  const violations = (window.__cspViolations = []);
  document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  window.__perf = {};

  // Mirrors callSummary in src/panel/call-summary.ts (jev_screen's injection, and the command case of jev_permit).
  function subjectOf(record) {
    const injection = record.tool === 'jev_screen' && record.result && record.result.probabilities ? record.result.probabilities.injection : undefined;
    if (typeof injection === 'number') return `injection ${injection.toFixed(2)}`;
    const call = record.tool === 'jev_permit' && record.input ? record.input.call : undefined;
    if (!call || typeof call.tool !== 'string') return undefined;
    const command = call.input && typeof call.input.command === 'string' ? call.input.command.replace(/\s+/g, ' ').trim() : '';
    return command ? `${call.tool}: ${command}` : call.tool;
  }

  // Mirrors feedRowOf in src/panel/protocol.ts.
  function feedRowOf(record) {
    const result = record.result || {};
    const reasons = Array.isArray(result.reason_codes) ? result.reason_codes : [];
    return {
      id: record.id,
      time: record.time,
      tool: record.tool,
      agent: record.agent,
      subject: subjectOf(record),
      handoff:
        typeof result.handoff === 'string'
          ? result.handoff
          : typeof result.decision === 'string'
            ? result.decision
            : result.recommendation && typeof result.recommendation.action === 'string'
              ? result.recommendation.action
              : undefined,
      action: typeof result.action === 'string' ? result.action : undefined,
      topReason: record.error ? record.error.code : typeof reasons[0] === 'string' ? reasons[0] : undefined,
      latency_ms: record.latency_ms,
      error: record.error ? record.error.code : undefined,
      model: typeof result.model === 'string' ? result.model : record.response ? record.response.model : undefined,
      kind: record.kind,
    };
  }

  const records = new Map(fixtures.records.map((r) => [r.id, r]));
  // Deterministic pseudo-random rows (xorshift), spread over the fixture tools, agents and outcomes.
  let seed = 12345;
  const rnd = () => ((seed ^= seed << 13), (seed ^= seed >>> 17), (seed ^= seed << 5), (seed >>> 0) / 4294967296);
  const agents = ['editor', 'cli', 'claude-code', 'ci'];
  const base = Date.parse('2026-11-30T08:00:00Z');
  const synthRows = [];
  for (let i = 0; i < synthetic; i++) {
    const proto = fixtures.records[i % fixtures.records.length];
    const row = feedRowOf(proto);
    row.id = `syn-${String(i).padStart(5, '0')}`;
    row.time = new Date(base + i * 1500).toISOString();
    row.agent = agents[Math.floor(rnd() * agents.length)];
    row.latency_ms = Math.round(20 + rnd() * 400);
    synthRows.push(row);
  }
  const protoOf = (id) => fixtures.records[Number(id.slice(4)) % fixtures.records.length];

  let spent = fixtures.records.length;
  const status = () => ({
    provider: 'mock',
    model: 'jev-latest+mock',
    reason: 'no API key, base URL or editor chat model configured',
    health: 'warning',
    message: 'Mock judge: answers come from deterministic keyword heuristics, not a model. Set an API key or a base URL to get real judgments.',
    calibrated: false,
    spend: { used: spent, cap: 200 },
    thresholds: { auto_accept: 0.8, review_at: 0.5, block_at: 0.75 },
    endpoint: 'http://127.0.0.1:41873/mcp',
    guard: guardOn ? [{ host: 'vscode', label: "VS Code's agent", scope: 'project', file: '.github/hooks/jev-guard.json', agent: 'vscode' }] : [],
  });
  // Guard on for VS Code's agent until the panel's "Turn off" link asks for it (then the status follows).
  let guardOn = true;
  const servers = [
    {
      name: 'everything',
      transport: 'stdio',
      status: 'ready',
      tools: ['echo', 'add', 'longRunningOperation', 'printEnv', 'sampleLLM', 'getTinyImage', 'annotatedMessage', 'getResourceReference'],
    },
    {
      name: 'filesystem',
      transport: 'stdio',
      status: 'ready',
      tools: ['read_file', 'list_directory', 'search_files', 'write_file', 'edit_file'],
      warning: '2 non-JSON-RPC lines skipped on stdout (last: "Secure MCP Filesystem Server running on stdio")',
    },
    {
      name: 'flaky',
      transport: 'stdio',
      status: 'error',
      reason: "exited with code 1 after 0.4 s (restart 3 of 3)\nlast stderr:\nError: Cannot find module '/opt/tools/flaky-server.js'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)",
      tools: [],
      enabled: true,
    },
    { name: 'lazy', transport: 'stdio', status: 'not-started', reason: 'not started yet: starts when an agent first needs one of its tools, or with Restart', tools: ['lazy/echo'], enabled: true },
    { name: 'off', transport: 'http', status: 'disabled', reason: 'disabled: not started, and its tools are not offered to agents', tools: [], enabled: false },
  ];
  const agentDefs = {
    editor: ['jev_*', 'everything/echo', 'filesystem/*', '!filesystem/write_file'],
    ci: ['jev_gate', 'jev_verify'],
  };
  const known = ['jev_step', 'jev_gate', 'jev_verify', 'everything/echo', 'everything/add', 'filesystem/read_file', 'filesystem/write_file', 'filesystem/edit_file'];
  // Tools whose annotations say readOnlyHint (the "Grant read-only" shortcut grants these).
  const readOnly = new Set(['everything/echo', 'filesystem/read_file']);
  function permission(grants, tool) {
    const match = (g, t) => (g.endsWith('*') ? t.startsWith(g.slice(0, -1)) : g === t);
    const ro = readOnly.has(tool) ? { readOnly: true } : {};
    const deny = grants.find((g) => g.startsWith('!') && match(g.slice(1), tool));
    if (deny) return { tool, allowed: false, why: `denied by "${deny}"`, ...ro };
    const allow = grants.find((g) => !g.startsWith('!') && match(g, tool));
    if (allow) return { tool, allowed: true, why: `allowed by "${allow}"`, ...ro };
    return { tool, allowed: false, why: `no grant matches ${tool} (grants: ${grants.join(', ') || 'none'})`, ...ro };
  }
  const hookAgent = {
    name: 'vscode',
    grants: [],
    permissions: [],
    warnings: [],
    hook: { hosts: ["VS Code's agent"], granted: false, rules: { allow: ['Bash(git status*)', 'Read(./**)'], ask: ['Read(./**/.env)', 'Read(./**/.env.*)'], deny: ['Bash(git push --force*)'] } },
  };
  const agentsView = () =>
    Object.entries(agentDefs)
      .map(([name, grants]) => ({
        name,
        grants: [...grants],
        permissions: known.map((t) => permission(grants, t)),
        warnings: name === 'ci' ? ['grant "jev_gate" is the only write path for commits; consider also "jev_review"'] : [],
      }))
      .concat(guardOn ? [hookAgent] : []);

  const toWebview = (message) => window.postMessage(message, '*');
  function snapshot() {
    const feed = synthRows.concat(fixtures.records.map(feedRowOf));
    return { status: status(), feed, servers, agents: agentsView() };
  }

  function handle(message) {
    log.push(message);
    switch (message.type) {
      case 'ready': {
        const snap = snapshot();
        window.__perf.snapshotPosted = performance.now();
        toWebview({ type: 'snapshot', snapshot: snap });
        // bench/panel.mjs: the first frame that starts after feed rows exist, i.e. after they were painted.
        const watch = () => {
          if (document.querySelector('#feed-list .feed-row')) requestAnimationFrame(() => (window.__perf.listPainted = performance.now()));
          else requestAnimationFrame(watch);
        };
        requestAnimationFrame(watch);
        break;
      }
      case 'getRecord': {
        const r = records.get(message.id) || (message.id.startsWith('syn-') ? { ...protoOf(message.id), id: message.id } : undefined);
        if (r) toWebview({ type: 'record', record: r });
        else toWebview({ type: 'recordMissing', id: message.id, reason: 'not in the harness fixtures' });
        break;
      }
      case 'toggleGrant': {
        const grants = agentDefs[message.agent];
        if (!grants) break;
        const g = message.grant;
        const at = grants.indexOf(g);
        if (message.enabled) {
          const deny = grants.indexOf(`!${g}`);
          if (deny >= 0) grants.splice(deny, 1);
          if (at < 0 && !permission(grants, g).allowed) grants.push(g);
        } else if (at >= 0) grants.splice(at, 1);
        else if (!g.startsWith('!')) grants.push(`!${g}`);
        toWebview({ type: 'agents', agents: agentsView() });
        break;
      }
      case 'setServerEnabled': {
        const server = servers.find((x) => x.name === message.name);
        if (!server) break;
        Object.assign(server, message.enabled
          ? { enabled: true, status: 'not-started', reason: 'not started yet: starts when an agent first needs one of its tools, or with Restart' }
          : { enabled: false, status: 'disabled', reason: 'disabled: not started, and its tools are not offered to agents' });
        toWebview({ type: 'servers', servers });
        break;
      }
      case 'grantServer': {
        const grants = agentDefs[message.agent];
        if (!grants) break;
        const mine = known.filter((t) => t.startsWith(`${message.server}/`));
        const keep = grants.filter((g) => !g.replace(/^!/, '').startsWith(`${message.server}/`));
        const next = message.mode === 'all' ? [...keep, `${message.server}/*`] : [...keep, ...mine.filter((t) => readOnly.has(t))];
        grants.splice(0, grants.length, ...next);
        toWebview({ type: 'agents', agents: agentsView() });
        break;
      }
      case 'command': {
        // The real host runs the editor's command, which asks first; the fake one just applies it.
        if (message.command === 'guardOff' || message.command === 'guardOn') {
          guardOn = message.command === 'guardOn';
          toWebview({ type: 'status', status: status() });
          toWebview({ type: 'agents', agents: agentsView() });
        }
        break;
      }
      case 'runSampleStep': {
        const proto = fixtures.records.find((r) => r.tool === 'jev_step') || fixtures.records[0];
        const r = { ...proto, id: `sample-${log.length}`, time: new Date().toISOString() };
        records.set(r.id, r);
        spent++;
        toWebview({ type: 'feedAppend', rows: [feedRowOf(r)] });
        toWebview({ type: 'status', status: status() });
        break;
      }
      default:
        break;
    }
  }

  let acquired = false;
  window.acquireVsCodeApi = function () {
    if (acquired) throw new Error('acquireVsCodeApi may only be called once');
    acquired = true;
    return {
      postMessage: (m) => setTimeout(() => handle(JSON.parse(JSON.stringify(m))), 0),
      getState: () => {
        const s = sessionStorage.getItem(STATE_KEY);
        return s ? JSON.parse(s) : undefined;
      },
      setState: (s) => sessionStorage.setItem(STATE_KEY, JSON.stringify(s)),
    };
  };
  window.__harness = { toWebview, feedRowOf, fixtures };
})();
