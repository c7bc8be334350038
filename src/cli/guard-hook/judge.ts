import { loadConfig } from '../../config/env';
import { hasPermitTool, servicePermitJudge } from '../../guard/judge';
import type { JudgeAvailability } from '../../guard/run';
import type { CliIO } from '../io';
import { createRuntime, type Runtime } from '../runtime';

/**
 * The guard's judge from the CLI configuration (JEV_*): jev_permit through this process's JudgmentService
 * (its ledger, spend cap and provider). None when only the mock or nothing is configured. The runtime is
 * kept in `hold` so the caller closes its ledger. Part of the full CLI bundle only: the lean guard entry
 * (src/cli/guard-main.ts) loads it from dist/cli.js when a call needs judging.
 */
export function cliGuardJudge(io: CliIO, host: string, hold: { runtime?: Runtime }): () => Promise<JudgeAvailability> {
  return async () => {
    const config = loadConfig(io.env);
    if (config.provider === 'mock') {
      return config.providerReason === 'no backend configured'
        ? { kind: 'none', reason: 'no judgment backend: JEV_API_KEY and JEV_BASE_URL are not set (and no provider is chosen)' }
        : { kind: 'none', code: 'MOCK_ONLY', reason: `only the mock judge is configured (${config.providerReason}); the mock never decides a permission` };
    }
    const runtime = createRuntime(io, { mockNotice: false });
    hold.runtime = runtime;
    if (!hasPermitTool(runtime.service)) return { kind: 'none', code: 'NO_PERMIT_TOOL', reason: 'jev_permit is not available in this build of jevcp' };
    return { kind: 'judge', judge: servicePermitJudge(runtime.service, 'guard', `guard hook, ${host}`), label: runtime.label };
  };
}
