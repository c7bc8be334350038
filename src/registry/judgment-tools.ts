import type { JudgmentService } from '../tools/judgment-service';
import type { ToolRegistry } from './registry';

/**
 * Registers every judgment tool of `service` in-process (no MCP hop between an agent and the judgment
 * tools). Each wraps `JudgmentService.call`, so parsing, the shared deadline and the ledger record
 * stay the service's; a failed judgment is thrown (as the JevError), never returned as a result.
 * The tools parse their own input (messages naming the field), so host-side schema checks are off.
 */
export function registerJudgmentTools(registry: ToolRegistry, service: JudgmentService): void {
  for (const tool of service.tools.values()) {
    registry.register({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputJsonSchema,
      annotations: tool.annotations,
      validateParams: false,
      run: async (params, ctx) => {
        const outcome = await service.call(tool.name, params, { agent: ctx.agent, signal: ctx.signal });
        if (!outcome.ok) throw outcome.error;
        return outcome.result;
      },
    });
  }
}
