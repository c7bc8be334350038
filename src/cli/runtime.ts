import { loadConfig, secretValues, type JevConfig } from '../config/env';
import type { JevError } from '../judgment/errors';
import { JsonlLedger } from '../ledger/jsonl';
import { createProvider, providerLabel } from '../providers/factory';
import type { JudgmentProvider } from '../judgment/provider';
import { SpendCap } from '../providers/spend-cap';
import { ALL_TOOLS } from '../tools';
import { JudgmentService } from '../tools/judgment-service';
import { EXIT, type CliIO } from './io';
import { ReportingLedger } from './ledger-sink';

/** Everything a judging command needs, built once per invocation from the environment. */
export interface Runtime {
  config: JevConfig;
  provider: JudgmentProvider;
  spendCap: SpendCap;
  service: JudgmentService;
  /** Open ledger sink when JEV_LEDGER is set (write failures reported on stderr). */
  ledger?: ReportingLedger;
  /** Human label of the provider, e.g. `mock (no backend configured)`. */
  label: string;
  close(): void;
}

/** Options of `createRuntime`. */
export interface RuntimeOptions {
  /** Open the JEV_LEDGER sink (default true). */
  ledger?: boolean;
  /** Print the one-line mock notice on stderr when the mock judge is in use (default true). */
  mockNotice?: boolean;
}

/**
 * Loads configuration (throws JevError CONFIG_ERROR), builds the provider (one process-wide spend cap),
 * opens the ledger when configured, and says on stderr — in one line — when the mock judge answers.
 */
export function createRuntime(io: CliIO, options: RuntimeOptions = {}): Runtime {
  const config = loadConfig(io.env);
  const spendCap = new SpendCap(config.spendCap);
  const provider = createProvider(config, spendCap);
  const secrets = secretValues(io.env); // the API key (config.apiKey among them) and HTTP token: redacted from inputs and ledger lines
  const file = options.ledger !== false && config.ledgerPath ? JsonlLedger.open(config.ledgerPath, { secrets, maxRecordedBytes: config.maxRecordedBytes }) : undefined;
  const ledger = file && new ReportingLedger(file, io.stderr); // a failed write is said on stderr, not lost silently
  const service = new JudgmentService({
    secrets,
    provider,
    tools: ALL_TOOLS,
    floors: config.floors,
    model: config.model,
    timeoutMs: config.timeoutMs,
    ledger,
  });
  if (options.mockNotice !== false && config.provider === 'mock') io.stderr.write(`${mockNotice(config)}\n`);
  return { config, provider, spendCap, service, ledger, label: providerLabel(config), close: () => ledger?.close() };
}

/** The one-line stderr notice shown whenever the mock judge is used. */
export function mockNotice(config: JevConfig): string {
  const why = config.providerReason === 'JEV_PROVIDER' ? 'JEV_PROVIDER=mock' : config.providerReason; // e.g. `JEV_MOCK=1, overriding JEV_PROVIDER=openai`
  return `jevcp: ${why} — using the mock judge (deterministic, not a real judgment)`;
}

/**
 * Exit code of a failed judgment (README "The CLI"): invalid input or configuration → 2; provider or
 * operational failure (timeout, cancellation, API error, invalid response) → 3.
 */
export function exitCodeForError(error: JevError): number {
  switch (error.code) {
    case 'INVALID_INPUT':
    case 'INPUT_TOO_LARGE':
    case 'CONFIG_ERROR':
      return EXIT.INVALID;
    default:
      return EXIT.OPERATIONAL;
  }
}
