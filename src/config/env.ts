import { DEFAULT_MAX_RECORDED_BYTES, MAX_RECORDED_BYTES, MIN_RECORDED_BYTES } from '../ledger/bound';
import { DEFAULT_FORWARD_MAX_BYTES, MAX_FORWARD_MAX_BYTES, MIN_FORWARD_MAX_BYTES } from '../mcp/forward-result';
import { configError, type JevError } from '../judgment/errors';
import { MOCK_MODEL_SUFFIX } from '../providers/mock/provider';
import { DEFAULT_BASE_URL, assertFetchablePort, normalizeBaseUrl } from '../providers/base-url';
import { DEFAULT_FLOORS, THRESHOLD_ORDER_RULE, validateFloors, type FloorNames, type Floors, type FloorViolation } from '../policy/thresholds';

/** Provider ids selectable by configuration. */
export type ProviderId = 'systemone' | 'mock' | 'openai';

/**
 * Resolved configuration of the CLI and the stdio server (README "Configuration").
 * `apiKey` is held only in memory: never logged, never written to the ledger.
 */
export interface JevConfig {
  provider: ProviderId;
  /** Why this provider was chosen, for `doctor` and the mock notice. */
  providerReason: string;
  apiKey?: string;
  baseUrl: string;
  /** True when a base URL was configured (not the default). */
  baseUrlSet: boolean;
  model: string;
  floors: Floors;
  /** Total deadline of one tool call, ms (default 30 000). */
  timeoutMs: number;
  /** Maximum upstream attempts for the process lifetime; undefined = no cap. */
  spendCap?: number;
  ledgerPath?: string;
  /** Cap of one recorded or printed value (tool input, result), bytes of JSON (JEV_MAX_RECORDED_BYTES, default 65 536). */
  maxRecordedBytes?: number;
  /** Cap of one external result `serve --agent` forwards, bytes of JSON (JEV_GATEWAY_MAX_RESULT_BYTES, default 1 048 576). */
  gatewayMaxResultBytes?: number;
  mcpServers?: string;
  mcpOracle: boolean;
}

type Env = Record<string, string | undefined>;

/** Jev's own secret variables: the API key and its aliases, and the HTTP endpoint's bearer token. */
export const JEV_SECRET_VARIABLES: readonly string[] = ['JEV_API_KEY', 'TYPESAFE_API_KEY', 'JEV_API__KEY', 'JEV_HTTP_TOKEN'];

/**
 * True when variable `name` holds a secret that must not reach commands Jev runs for evidence: one of
 * JEV_SECRET_VARIABLES, any name ending in `_API_KEY` or `_TOKEN`, or any name with a part that says
 * secret (`AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`, `GCP_CREDENTIALS`, `SSH_PRIVATE_KEY`); any case.
 */
export function isSecretVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return (
    JEV_SECRET_VARIABLES.includes(upper) ||
    upper.endsWith('_API_KEY') ||
    upper.endsWith('_TOKEN') ||
    /(^|_)(SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|PRIVATE_KEY|ACCESS_KEY)(_|$)/.test(upper)
  );
}

/** Non-empty (trimmed) values of Jev's secret variables in `env`: what the JudgmentService and the ledger redact. */
export function secretValues(env: Env): string[] {
  return JEV_SECRET_VARIABLES.map((name) => env[name]?.trim() ?? '').filter((v) => v !== '');
}

/** First non-empty (trimmed) value among the canonical name and its aliases, with the name that supplied it. */
function pick(env: Env, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

const isProviderId = (v: string): v is ProviderId => v === 'systemone' || v === 'mock' || v === 'openai';

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);
const truthy = (v: string | undefined) => v !== undefined && TRUTHY.has(v.trim().toLowerCase());

// Plain decimal notation only: Number() would also take 0x1, 0b1, 1e0 or Infinity, which nobody means here.
const DECIMAL = /^\d+(\.\d+)?$|^\.\d+$/;
const INTEGER = /^\d+$/;

function probability(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = DECIMAL.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > 1) throw configError(`${name} must be a decimal number in [0, 1] such as 0.8; got ${JSON.stringify(raw)}.`);
  return n;
}

function positiveInt(env: Env, name: string, max: number): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const n = INTEGER.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw configError(`${name} must be a whole number (digits only) from 1 to ${max}; got ${JSON.stringify(raw)}.`);
  return n;
}

/** The environment variable of each floor, as the floor rules name them. */
const FLOOR_VARIABLES: FloorNames = { auto_accept: 'JEV_AUTO_ACCEPT', review_at: 'JEV_REVIEW_AT', block_at: 'JEV_BLOCK_AT' };

/**
 * The error for the first broken floor rule (validateFloors). For review_at > auto_accept with only one
 * of the two variables set, it says which value was the default and what to set.
 */
function floorError(env: Env, floors: Floors, violation: FloorViolation): JevError {
  const name = FLOOR_VARIABLES[violation.floor];
  if (violation.kind !== 'order') return configError(`${name} ${violation.rule}.`);
  const autoSet = Boolean(env.JEV_AUTO_ACCEPT?.trim());
  const reviewSet = Boolean(env.JEV_REVIEW_AT?.trim());
  const rule = `rule: ${THRESHOLD_ORDER_RULE}`;
  if (autoSet && !reviewSet) {
    return configError(
      `JEV_AUTO_ACCEPT=${floors.auto_accept} is below JEV_REVIEW_AT (default ${DEFAULT_FLOORS.review_at}), which must not exceed it (${rule}). ` +
        `Set JEV_REVIEW_AT too, e.g. JEV_REVIEW_AT=${floors.auto_accept}, or raise JEV_AUTO_ACCEPT.`,
    );
  }
  if (reviewSet && !autoSet) {
    return configError(
      `JEV_REVIEW_AT=${floors.review_at} exceeds JEV_AUTO_ACCEPT (default ${DEFAULT_FLOORS.auto_accept}) (${rule}). ` +
        `Lower JEV_REVIEW_AT, or set JEV_AUTO_ACCEPT too, e.g. JEV_AUTO_ACCEPT=${floors.review_at}.`,
    );
  }
  return configError(`${name} (${floors[violation.floor]}) ${violation.rule}.`);
}

/** The part of the configuration that needs no judgment backend: what reading and replaying the ledger use. */
export type LocalConfig = Pick<JevConfig, 'model' | 'floors' | 'timeoutMs' | 'ledgerPath'>;

/**
 * Reads model, floors, timeout and ledger path only; provider, key and base URL are not looked at, so
 * `jevcp ledger show` / `replay` work whatever the provider configuration. Throws CONFIG_ERROR like loadConfig.
 */
export function loadLocalConfig(env: Env = process.env): LocalConfig {
  const picked = pick(env, ['JEV_MODEL', 'JEV_MCP_MODEL', 'JEV_API__DEFAULT_MODEL']);
  const model = picked?.value ?? 'jev-latest';
  // Every face reads the suffix as "the mock answered"; a real judge must never carry it.
  if (model.endsWith(MOCK_MODEL_SUFFIX)) throw configError(`${picked!.name} must not end in "${MOCK_MODEL_SUFFIX}": that suffix marks the mock judge's answers; got ${JSON.stringify(model)}.`);
  const floors: Floors = {
    auto_accept: probability(env, 'JEV_AUTO_ACCEPT', DEFAULT_FLOORS.auto_accept),
    review_at: probability(env, 'JEV_REVIEW_AT', DEFAULT_FLOORS.review_at),
    block_at: probability(env, 'JEV_BLOCK_AT', DEFAULT_FLOORS.block_at),
  };
  const [broken] = validateFloors(floors, FLOOR_VARIABLES);
  if (broken) throw floorError(env, floors, broken);
  const timeoutMs = positiveInt(env, 'JEV_TIMEOUT_MS', 2_147_483_647) ?? 30_000;
  const ledger = pick(env, ['JEV_LEDGER', 'JEV_API__AUDIT_PATH']);
  return { model, floors, timeoutMs, ledgerPath: ledger?.value };
}

/**
 * Reads configuration from the environment (canonical names first, then aliases).
 * Throws JevError CONFIG_ERROR naming the variable and the rule.
 */
export function loadConfig(env: Env = process.env): JevConfig {
  const key = pick(env, ['JEV_API_KEY', 'TYPESAFE_API_KEY', 'JEV_API__KEY']);
  const base = pick(env, ['JEV_BASE_URL', 'TYPESAFE_BASE_URL', 'JEV_API__BASE_URL']);
  // The variable that asked for the mock judge (it wins over JEV_PROVIDER: README "Mock").
  const mockVar = ['JEV_MOCK', 'JEV_MCP_MOCK'].find((name) => truthy(env[name]));
  const explicit = env.JEV_PROVIDER?.trim().toLowerCase();

  const { model, floors, timeoutMs, ledgerPath } = loadLocalConfig(env);
  const spendCap = positiveInt(env, 'JEV_SPEND_CAP', Number.MAX_SAFE_INTEGER);
  const baseUrl = base ? normalizeBaseUrl(base.value, base.name) : DEFAULT_BASE_URL;
  if (base) assertFetchablePort(baseUrl, base.name);

  let provider: ProviderId;
  let providerReason: string;
  const chosen = explicit && explicit !== 'auto' ? explicit : undefined;
  if (chosen !== undefined && !isProviderId(chosen)) {
    throw configError(`JEV_PROVIDER must be one of auto, systemone, openai, mock; got ${JSON.stringify(explicit)}.`);
  }
  if (mockVar) {
    provider = 'mock';
    const set = `${mockVar}=${env[mockVar]!.trim()}`;
    providerReason = chosen && chosen !== 'mock' ? `${set}, overriding JEV_PROVIDER=${chosen}` : set;
  } else if (chosen) {
    provider = chosen;
    providerReason = 'JEV_PROVIDER';
  } else if (key) {
    provider = 'systemone';
    providerReason = `${key.name} is set`;
  } else if (base) {
    provider = 'systemone';
    providerReason = `${base.name} is set`;
  } else {
    provider = 'mock';
    providerReason = 'no backend configured';
  }
  if (provider === 'systemone' && !key && !base) {
    throw configError('JEV_PROVIDER=systemone needs JEV_API_KEY (or TYPESAFE_API_KEY) or a JEV_BASE_URL; or set JEV_MOCK=1.');
  }

  // An OpenAI-compatible host gets only JEV_API_KEY: a TypeSafe key must never travel to another vendor.
  const apiKey = provider === 'openai' ? env.JEV_API_KEY?.trim() || undefined : key?.value;
  if (provider === 'openai' && !base) {
    throw configError('JEV_PROVIDER=openai needs JEV_BASE_URL (the OpenAI-compatible server, e.g. http://127.0.0.1:8080).');
  }

  const maxRecordedBytes = positiveInt(env, 'JEV_MAX_RECORDED_BYTES', MAX_RECORDED_BYTES) ?? DEFAULT_MAX_RECORDED_BYTES;
  if (maxRecordedBytes < MIN_RECORDED_BYTES) {
    throw configError(`JEV_MAX_RECORDED_BYTES must be from ${MIN_RECORDED_BYTES} to ${MAX_RECORDED_BYTES} bytes; got ${maxRecordedBytes}.`);
  }
  const gatewayMaxResultBytes = positiveInt(env, 'JEV_GATEWAY_MAX_RESULT_BYTES', MAX_FORWARD_MAX_BYTES) ?? DEFAULT_FORWARD_MAX_BYTES;
  if (gatewayMaxResultBytes < MIN_FORWARD_MAX_BYTES) {
    throw configError(`JEV_GATEWAY_MAX_RESULT_BYTES must be from ${MIN_FORWARD_MAX_BYTES} to ${MAX_FORWARD_MAX_BYTES} bytes; got ${gatewayMaxResultBytes}.`);
  }
  return {
    provider,
    providerReason,
    apiKey,
    baseUrl,
    baseUrlSet: base !== undefined,
    model,
    floors,
    timeoutMs,
    spendCap,
    ledgerPath,
    maxRecordedBytes,
    gatewayMaxResultBytes,
    mcpServers: env.MCP_SERVERS,
    mcpOracle: ['1', 'true', 'True'].includes(env.MCP_ORACLE?.trim() ?? ''),
  };
}
