/**
 * A JudgmentService whose provider, floors, model, deadline and ledger follow the settings: every call
 * goes to the service built from the current configuration, so MCP sessions opened before a settings
 * change judge with the new configuration too. No `vscode` import.
 */
import { configError } from '../judgment/errors';
import type { JudgmentProvider } from '../judgment/provider';
import { ALL_TOOLS } from '../tools';
import { JudgmentService, type CallOptions, type CallOutcome } from '../tools/judgment-service';
import { DEFAULT_FLOORS, type Floors } from '../policy/thresholds';

/** A provider that cannot work as configured: every request fails with CONFIG_ERROR `message`. */
export class MisconfiguredProvider implements JudgmentProvider {
  readonly calibrated = false;

  constructor(
    readonly id: string,
    private readonly message: string,
  ) {}

  async systemOne(): Promise<never> {
    throw configError(this.message);
  }
}

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
