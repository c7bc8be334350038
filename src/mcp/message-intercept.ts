import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Called with each message the transport receives; `next` hands it on to the protocol (or does not). */
export type MessageInterceptor = (
  message: Parameters<NonNullable<Transport['onmessage']>>[0],
  extra: Parameters<NonNullable<Transport['onmessage']>>[1],
  next: NonNullable<Transport['onmessage']>,
) => void;

/**
 * Puts `intercept` in front of the handler of `transport.onmessage`: the handler already set (when
 * installed after a Protocol connected) and every later assignment are wrapped, so each received message
 * reaches `intercept` first. Interceptors stack: the first installed runs first.
 *
 * Why not plain assignment: the Protocol sets `onmessage` at connect, and the SDK's Node Streamable HTTP
 * transport forwards it through an accessor to an inner transport.
 */
export function interceptMessages(transport: Transport, intercept: MessageInterceptor): void {
  const wrap = (fn: Transport['onmessage']): Transport['onmessage'] => fn && ((message, extra) => intercept(message, extra, fn));
  const inherited = accessorOf(transport, 'onmessage');
  if (inherited?.set) {
    // Keep forwarding through the original setter, with the wrapped handler.
    // Both accessors are only ever called with .call(transport).
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const { get, set } = inherited;
    const current = get?.call(transport) as Transport['onmessage'];
    Object.defineProperty(transport, 'onmessage', {
      configurable: true,
      enumerable: true,
      get: () => get?.call(transport) as Transport['onmessage'],
      set: (fn: Transport['onmessage']) => set.call(transport, wrap(fn)),
    });
    // Installed after connect: route the live handler through the interceptor as well.
    if (current) set.call(transport, wrap(current));
    return;
  }
  let handler = wrap(transport.onmessage);
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (fn: Transport['onmessage']) => {
      handler = wrap(fn);
    },
  });
}

/** The accessor descriptor of `key` on `obj` or its prototype chain, if `key` is an accessor. */
function accessorOf(obj: object, key: string): PropertyDescriptor | undefined {
  for (let o: object | null = obj; o; o = Object.getPrototypeOf(o) as object | null) {
    const d = Object.getOwnPropertyDescriptor(o, key);
    if (d) return d.get || d.set ? d : undefined;
  }
  return undefined;
}
