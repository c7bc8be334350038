/**
 * A JudgmentService whose provider, floors, model, deadline and ledger follow the configuration of a
 * long-running host: every call goes to the service built from the current configuration, so MCP sessions
 * opened before a settings change judge with the new configuration too.
 */
import { MisconfiguredProvider } from '../providers/misconfigured';
import type { JudgmentProvider } from '../judgment/provider';
import { ALL_TOOLS } from './index';
import { JudgmentService, type CallOptions, type CallOutcome } from './judgment-service';
import { DEFAULT_FLOORS, type Floors } from '../policy/thresholds';

/** Delegates every call to `current()` (the service of the current configuration). */
export class LiveJudgmentService extends JudgmentService {
  constructor(private readonly current: () => JudgmentService) {
    super({ provider: new MisconfiguredProvider('none', 'Jev Control Panel is still starting.'), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest' });
  }

  override get provider(): JudgmentProvider {
    return this.current().provider;
  }

  override get floors(): Floors {
    return this.current().floors;
  }

  override call(name: string, args: unknown, opts: CallOptions = {}): Promise<CallOutcome> {
    return this.current().call(name, args, opts);
  }
}
