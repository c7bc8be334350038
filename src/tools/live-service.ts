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

/**
 * Told when a call starts (tool name, agent as recorded: `mcp` when none is given); returns the function
 * to call once it has ended, however it ended. The panel shows the call as pending in between.
 */
export type CallStartObserver = (tool: string, agent: string) => () => void;

/** Delegates every call to `current()` (the service of the current configuration). */
export class LiveJudgmentService extends JudgmentService {
  constructor(
    private readonly current: () => JudgmentService,
    private readonly onCallStart?: CallStartObserver,
  ) {
    super({ provider: new MisconfiguredProvider('none', 'Jev Control Panel is still starting.'), tools: ALL_TOOLS, floors: DEFAULT_FLOORS, model: 'jev-latest' });
  }

  override get provider(): JudgmentProvider {
    return this.current().provider;
  }

  override get floors(): Floors {
    return this.current().floors;
  }

  override async call(name: string, args: unknown, opts: CallOptions = {}): Promise<CallOutcome> {
    const service = this.current();
    // Unknown tools throw before any judgment: nothing to show as pending.
    if (!this.onCallStart || !service.tools.has(name)) return service.call(name, args, opts);
    const ended = this.onCallStart(name, opts.agent ?? 'mcp');
    try {
      return await service.call(name, args, opts);
    } finally {
      ended();
    }
  }
}
