import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { interceptMessages } from './message-intercept';

/**
 * Keeps the raw `tools/call` arguments that the SDK would alter before our handler sees them.
 *
 * Why: the SDK re-parses every `tools/call` request with a zod record schema, and assigning an own
 * `__proto__` key onto the new object sets its prototype instead (or drops a primitive value), so a
 * top-level `__proto__` argument would vanish silently. Our tools reject `__proto__` at any depth,
 * so the handler must see the arguments exactly as they arrived. Nested keys
 * survive the SDK parse; only the top level needs this. Only requests whose raw arguments carry an
 * own top-level `__proto__` key are kept, so the map stays empty in normal use.
 */
export class RawArgumentsTap {
  private readonly kept = new Map<RequestId, Record<string, unknown>>();
  /** Upper bound on retained entries (requests the SDK rejected never reach the handler to take theirs). */
  private static readonly MAX_KEPT = 256;

  /**
   * Installs the tap on `transport`: the handler already set (when attached after a Protocol connected)
   * and every later assignment to `transport.onmessage` are wrapped so raw messages pass through
   * `observe` first. Taps stack: a tap attached over another one sees every message too.
   */
  attach(transport: Transport): void {
    interceptMessages(transport, (message, extra, next) => {
      // A tap underneath another one observes twice; observe is idempotent per request id.
      this.observe(message);
      next(message, extra);
    });
  }

  /** Records the raw arguments of a `tools/call` request that has an own top-level `__proto__` key. */
  observe(message: JSONRPCMessage): void {
    const msg = message as { method?: unknown; id?: unknown; params?: { arguments?: unknown } };
    if (msg.method !== 'tools/call' || (typeof msg.id !== 'string' && typeof msg.id !== 'number')) return;
    const args = msg.params?.arguments;
    if (typeof args !== 'object' || args === null || !Object.hasOwn(args, '__proto__')) return;
    if (this.kept.size >= RawArgumentsTap.MAX_KEPT) this.kept.clear();
    this.kept.set(msg.id, args as Record<string, unknown>);
  }

  /** The raw arguments kept for request `id`, removed on read; undefined when the SDK copy is faithful. */
  take(id: RequestId): Record<string, unknown> | undefined {
    const args = this.kept.get(id);
    this.kept.delete(id);
    return args;
  }
}
