import type { JevConfig } from '../config/env';
import type { JudgmentProvider } from '../judgment/provider';
import { SpendCap } from './spend-cap';
import { MockProvider } from './mock/provider';
import { SystemOneProvider } from './systemone';
import { OpenAiProvider } from './openai/provider';

/**
 * Builds the configured judgment provider (README "Configuration"). One SpendCap is shared
 * by every provider of the process, so the cap never resets across tool calls.
 */
export function createProvider(config: JevConfig, spendCap: SpendCap = new SpendCap(config.spendCap)): JudgmentProvider {
  switch (config.provider) {
    case 'mock':
      return new MockProvider();
    case 'openai':
      return new OpenAiProvider({ baseUrl: config.baseUrl, apiKey: config.apiKey, spendCap });
    case 'systemone':
      return new SystemOneProvider({ baseUrl: config.baseUrl, apiKey: config.apiKey, spendCap });
  }
}

/** One-line, secret-free description of the provider, e.g. `mock (no backend configured)`. */
export function providerLabel(config: JevConfig): string {
  const where = config.provider === 'mock' ? '' : ` at ${new URL(config.baseUrl).origin}`;
  return `${config.provider}${where} (${config.providerReason})`;
}
