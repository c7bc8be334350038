/**
 * Validation of the extension's settings (`jevPanel.*`), the editor's mirror of the environment that
 * config/env.ts reads. Host-independent so the rules are unit-testable: the editor passes `inspect`
 * (VS Code's `WorkspaceConfiguration.inspect`, read in src/extension/settings.ts).
 *
 * Workspace Trust: in an untrusted workspace every `jevPanel.*` value comes from the user (global) scope
 * only. A workspace could otherwise point the API key at its own base URL, lower the
 * thresholds, switch the judge to the mock, or spawn servers.
 */
import { assertFetchablePort, normalizeBaseUrl } from '../providers/base-url';
import { MOCK_MODEL_SUFFIX } from '../providers/mock/provider';
import { DEFAULT_FORWARD_MAX_BYTES, MAX_FORWARD_MAX_BYTES, MIN_FORWARD_MAX_BYTES } from '../mcp/forward-result';
import { parseManifest, type AgentManifest } from '../registry/manifest';
import { parseServerConfig, SERVER_NAME, type ServerConfig } from '../registry/servers';
import { DEFAULT_FLOORS, validateFloors, type FloorNames, type Floors } from '../policy/thresholds';

/** Provider choices of `jevPanel.provider`. */
export type ProviderSetting = 'auto' | 'systemone' | 'openai' | 'vscode-lm' | 'mock';
export const PROVIDER_SETTINGS: readonly ProviderSetting[] = ['auto', 'systemone', 'openai', 'vscode-lm', 'mock'];

/** Setting keys, relative to the `jevPanel` section. */
export const SETTING_KEYS = [
  'provider',
  'baseUrl',
  'model',
  'chatModel',
  'thresholds.autoAccept',
  'thresholds.reviewAt',
  'thresholds.blockAt',
  'timeoutMs',
  'spendCap',
  'gatewayMaxResultBytes',
  'mcpServers',
  'disabledServers',
  'serverStart',
  'agents',
  'ledger',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/** The agent that calls from the editor's own chat run as. */
export const EDITOR_AGENT = 'editor';

/** One value of `WorkspaceConfiguration.inspect(key)` (the scopes we read). */
export interface InspectedValue {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * When configured servers start: `onDemand` when an agent first needs one of the server's tools (a call,
 * or a tool listing while its tools are not known from an earlier run); `onConnect` all of them as soon as
 * the editor connects to the endpoint.
 */
export type ServerStart = 'onDemand' | 'onConnect';
export const SERVER_START_SETTINGS: readonly ServerStart[] = ['onDemand', 'onConnect'];

/** A configured MCP server from `jevPanel.mcpServers`, with the scope it came from. */
export interface ConfiguredServer {
  name: string;
  config: ServerConfig;
  /** 'user' for the global scope; 'workspace' for workspace or folder settings. */
  scope: 'user' | 'workspace';
}

/** Validated settings. Invalid values fall back to their defaults and are listed in `problems`. */
export interface PanelSettings {
  provider: ProviderSetting;
  /** Normalized System One / OpenAI base URL; undefined when unset (the provider's default applies). */
  baseUrl?: string;
  /** System One model name (default `jev-latest`). */
  model: string;
  /** Editor chat model as `vendor/family` (or `vendor/id`); undefined = the first available. */
  chatModel?: string;
  floors: Floors;
  /** Deadline of one tool call, ms. */
  timeoutMs: number;
  /** Upstream attempts for this window's lifetime; undefined = no cap. */
  spendCap?: number;
  /** Cap of one external result forwarded to the editor's agent, bytes of JSON (src/mcp/forward-result.ts). */
  gatewayMaxResultBytes: number;
  servers: ConfiguredServer[];
  /** Names of configured servers turned off (`jevPanel.disabledServers`): never started, tools not offered. */
  disabledServers: string[];
  serverStart: ServerStart;
  /** Agent manifests; always includes `editor` (default grants: the judgment tools). */
  agents: AgentManifest[];
  /** Ledger path from settings; undefined = the default file in global storage. */
  ledgerPath?: string;
  /** One line per invalid value: `jevPanel.<key>: <rule>; using <fallback>`. */
  problems: string[];
  /** Keys whose workspace values were ignored because the workspace is not trusted. */
  ignoredWorkspaceKeys: SettingKey[];
  trusted: boolean;
}

/** Options of `readPanelSettings`. */
export interface ReadOptions {
  /** `vscode.workspace.isTrusted`. */
  trusted: boolean;
  /** Names of the judgment tools (the default grants of `editor`). */
  judgmentTools: readonly string[];
  /** Expands `~/` in the ledger path. */
  homeDir?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads every `jevPanel.*` setting through `inspect` (key relative to `jevPanel`) and validates it.
 * Never throws: a bad value is reported in `problems` and replaced by its default (thresholds keep the
 * defaults' safe order; a bad base URL leaves `baseUrl` unset and the provider choice reports it).
 */
export function readPanelSettings(inspect: (key: SettingKey) => InspectedValue | undefined, options: ReadOptions): PanelSettings {
  const problems: string[] = [];
  const ignored: SettingKey[] = [];
  const scopeOf = new Map<SettingKey, 'user' | 'workspace' | 'default'>();

  const get = (key: SettingKey): unknown => {
    const v = inspect(key) ?? {};
    const hasWorkspace = v.workspaceFolderValue !== undefined || v.workspaceValue !== undefined;
    if (options.trusted && hasWorkspace) {
      scopeOf.set(key, 'workspace');
      return v.workspaceFolderValue !== undefined ? v.workspaceFolderValue : v.workspaceValue;
    }
    if (!options.trusted && hasWorkspace) ignored.push(key);
    if (v.globalValue !== undefined) {
      scopeOf.set(key, 'user');
      return v.globalValue;
    }
    scopeOf.set(key, 'default');
    return v.defaultValue;
  };
  const bad = (key: SettingKey, rule: string, fallback: string) => problems.push(`jevPanel.${key}: ${rule}; using ${fallback}`);

  const providerRaw = get('provider');
  let provider: ProviderSetting = 'auto';
  if (providerRaw !== undefined && providerRaw !== null && providerRaw !== '') {
    if (typeof providerRaw === 'string' && (PROVIDER_SETTINGS as readonly string[]).includes(providerRaw)) provider = providerRaw as ProviderSetting;
    else bad('provider', `must be one of ${PROVIDER_SETTINGS.join(', ')}`, 'auto');
  }

  let baseUrl: string | undefined;
  const baseRaw = get('baseUrl');
  if (typeof baseRaw === 'string' && baseRaw.trim() !== '') {
    try {
      const normalized = normalizeBaseUrl(baseRaw, 'jevPanel.baseUrl');
      assertFetchablePort(normalized, 'jevPanel.baseUrl');
      baseUrl = normalized;
    } catch (err) {
      problems.push(`${(err as Error).message} The base URL is ignored.`);
    }
  } else if (baseRaw !== undefined && baseRaw !== null && baseRaw !== '') {
    bad('baseUrl', 'must be a string URL', 'no base URL');
  }

  let model = nonEmptyString(get('model')) ?? 'jev-latest';
  if (model.endsWith(MOCK_MODEL_SUFFIX)) {
    bad('model', `must not end in "${MOCK_MODEL_SUFFIX}" (that suffix marks the mock judge's answers)`, 'jev-latest');
    model = 'jev-latest';
  }
  const chatModel = nonEmptyString(get('chatModel'));

  const floors = readFloors(get, bad);

  const timeoutRaw = get('timeoutMs');
  let timeoutMs = integerIn(timeoutRaw, 1, 2_147_483_647) ?? 30_000;
  if (timeoutRaw !== undefined && timeoutRaw !== null && integerIn(timeoutRaw, 1, 2_147_483_647) === undefined) {
    bad('timeoutMs', 'must be an integer number of ms from 1', '30000');
    timeoutMs = 30_000;
  }
  const capRaw = get('spendCap');
  let spendCap: number | undefined;
  if (capRaw !== undefined && capRaw !== null && capRaw !== 0) {
    spendCap = integerIn(capRaw, 1, Number.MAX_SAFE_INTEGER);
    if (spendCap === undefined) bad('spendCap', 'must be a positive integer number of attempts (0 or null = no cap)', 'no cap');
  }

  const forwardRaw = get('gatewayMaxResultBytes');
  let gatewayMaxResultBytes = DEFAULT_FORWARD_MAX_BYTES;
  if (forwardRaw !== undefined && forwardRaw !== null) {
    const n = integerIn(forwardRaw, MIN_FORWARD_MAX_BYTES, MAX_FORWARD_MAX_BYTES);
    if (n === undefined) bad('gatewayMaxResultBytes', `must be an integer number of bytes from ${MIN_FORWARD_MAX_BYTES} to ${MAX_FORWARD_MAX_BYTES}`, String(DEFAULT_FORWARD_MAX_BYTES));
    else gatewayMaxResultBytes = n;
  }

  const servers: ConfiguredServer[] = [];
  const serversRaw = get('mcpServers');
  if (serversRaw !== undefined && serversRaw !== null) {
    if (!isObject(serversRaw)) bad('mcpServers', 'must be an object of server name → server', 'no servers');
    else {
      const scope = scopeOf.get('mcpServers') === 'workspace' ? 'workspace' : 'user';
      for (const [name, raw] of Object.entries(serversRaw)) {
        if (!SERVER_NAME.test(name)) {
          problems.push(`jevPanel.mcpServers.${name}: server names may hold only letters, digits, _ . - (max 64); server skipped`);
          continue;
        }
        try {
          servers.push({ name, config: parseServerConfig(raw, `jevPanel.mcpServers.${name}`), scope });
        } catch (err) {
          problems.push(`${(err as Error).message}; server skipped`);
        }
      }
    }
  }

  const disabledServers: string[] = [];
  const disabledRaw = get('disabledServers');
  if (disabledRaw !== undefined && disabledRaw !== null) {
    if (!Array.isArray(disabledRaw) || !disabledRaw.every((n) => typeof n === 'string')) bad('disabledServers', 'must be an array of server names', 'every server enabled');
    else disabledServers.push(...new Set(disabledRaw as string[]));
  }
  const startRaw = get('serverStart');
  let serverStart: ServerStart = 'onDemand';
  if (startRaw !== undefined && startRaw !== null) {
    if ((SERVER_START_SETTINGS as readonly unknown[]).includes(startRaw)) serverStart = startRaw as ServerStart;
    else bad('serverStart', `must be one of ${SERVER_START_SETTINGS.join(', ')}`, 'onDemand');
  }

  const agents: AgentManifest[] = [];
  const agentsRaw = get('agents');
  if (agentsRaw !== undefined && agentsRaw !== null) {
    if (!Array.isArray(agentsRaw)) bad('agents', 'must be an array of {name, tools} manifests', 'the default editor agent');
    else {
      agentsRaw.forEach((raw, i) => {
        try {
          const manifest = parseManifest(raw, `jevPanel.agents[${i}]`);
          if (agents.some((a) => a.name === manifest.name)) problems.push(`jevPanel.agents[${i}].name: duplicate agent ${JSON.stringify(manifest.name)}; skipped`);
          else agents.push(manifest);
        } catch (err) {
          problems.push(`${(err as Error).message}; agent skipped`);
        }
      });
    }
  }
  if (!agents.some((a) => a.name === EDITOR_AGENT)) agents.unshift({ name: EDITOR_AGENT, tools: [...options.judgmentTools] });

  let ledgerPath: string | undefined;
  const ledgerRaw = get('ledger');
  if (typeof ledgerRaw === 'string' && ledgerRaw.trim() !== '') {
    const text = ledgerRaw.trim();
    const expanded = text.startsWith('~/') && options.homeDir ? `${options.homeDir}/${text.slice(2)}` : text;
    if (isAbsolutePath(expanded)) ledgerPath = expanded;
    else bad('ledger', 'must be an absolute path (or start with ~/)', 'the default ledger in global storage');
  }

  return {
    provider,
    baseUrl,
    model,
    chatModel,
    floors,
    timeoutMs,
    spendCap,
    gatewayMaxResultBytes,
    servers,
    disabledServers,
    serverStart,
    agents,
    ledgerPath,
    problems,
    ignoredWorkspaceKeys: ignored,
    trusted: options.trusted,
  };
}

/** The setting of each floor (relative to `jevPanel`), as the floor rules name them. */
const FLOOR_SETTINGS = { auto_accept: 'thresholds.autoAccept', review_at: 'thresholds.reviewAt', block_at: 'thresholds.blockAt' } as const satisfies FloorNames;

function readFloors(get: (key: SettingKey) => unknown, bad: (key: SettingKey, rule: string, fallback: string) => void): Floors {
  const prob = (key: SettingKey, fallback: number): number => {
    const raw = get(key);
    if (raw === undefined || raw === null) return fallback;
    if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 && raw <= 1) return raw;
    bad(key, 'must be a number in [0, 1]', String(fallback));
    return fallback;
  };
  const floors: Floors = {
    auto_accept: prob('thresholds.autoAccept', DEFAULT_FLOORS.auto_accept),
    review_at: prob('thresholds.reviewAt', DEFAULT_FLOORS.review_at),
    block_at: prob('thresholds.blockAt', DEFAULT_FLOORS.block_at),
  };
  for (const broken of validateFloors(floors, FLOOR_SETTINGS)) {
    // Each floor falls back so the defaults' safe order holds: review_at to at most auto_accept.
    const fallback = broken.floor === 'review_at' ? Math.min(DEFAULT_FLOORS.review_at, floors.auto_accept) : DEFAULT_FLOORS[broken.floor];
    bad(FLOOR_SETTINGS[broken.floor], broken.rule, String(fallback));
    floors[broken.floor] = fallback;
  }
  return floors;
}

function nonEmptyString(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function integerIn(v: unknown, min: number, max: number): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max ? v : undefined;
}

function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}
