/**
 * A tiny element builder. Every string child becomes a Text node and attributes are set with
 * setAttribute, so workspace, tool and model text is always rendered as text, never parsed as HTML.
 * No inline style attributes either (the webview CSP allows styles from the extension only).
 */

export type Child = Node | string | number | null | undefined | false | readonly Child[];

/** Attributes (strings/booleans/numbers), event handlers (`on`), and DOM properties (`props`). */
export interface Attrs {
  class?: string | Record<string, boolean>;
  on?: Partial<Record<string, (ev: Event) => void>>;
  props?: Record<string, unknown>;
  [attr: string]: unknown;
}

/** Appends `child` (recursively for arrays) to `parent`. */
export function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child as readonly Child[]) append(parent, c);
    return;
  }
  parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
}

/** Space-separated class list from a string or a `{name: on}` map. */
export function classes(c: string | Record<string, boolean>): string {
  return typeof c === 'string' ? c : Object.keys(c).filter((k) => c[k]).join(' ');
}

/**
 * Creates `<tag>` with `attrs` and `children`. `false`/`null`/`undefined` attributes are omitted,
 * `true` sets an empty attribute. Throws for attribute names starting with "on" (use `on`) or `style`.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement;
export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (name === 'on' || name === 'props' || value === undefined || value === null || value === false) continue;
      if (/^on/i.test(name) || name === 'style') throw new Error(`h(): attribute "${name}" is not allowed; use classes or the on map`);
      el.setAttribute(name, name === 'class' ? classes(value as string | Record<string, boolean>) : value === true ? '' : String(value));
    }
    if (attrs.on) for (const [type, fn] of Object.entries(attrs.on)) if (fn) el.addEventListener(type, fn);
    if (attrs.props) Object.assign(el, attrs.props);
  }
  for (const c of children) append(el, c);
  return el;
}

/** Replaces all children of `el` with `children`. */
export function replaceChildren(el: Element, ...children: Child[]): void {
  el.textContent = '';
  for (const c of children) append(el, c);
}

/** A codicon glyph (from dist/codicon.css), decorative unless `label` is given. */
export function codicon(name: string, label?: string): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': label ? undefined : 'true', 'aria-label': label, role: label ? 'img' : undefined });
}

/**
 * `text` with a line-break opportunity (`<wbr>`) after each `_` or `/` inside a token, and after a `.` or
 * `:` followed by a letter (never inside a number such as 0.80), so a long identifier (`candidate_confidence_below_dispatch_at`, `filesystem/write_file`) wraps
 * at its own word boundaries in a narrow view instead of being cut or broken mid-word. Copying the text
 * gives it back unchanged (a `<wbr>` adds no character).
 */
export function breakable(text: string): Child[] {
  const parts = text.split(/(?<=\S[_/])(?=\S)|(?<=\S[.:])(?=[A-Za-z])/);
  if (parts.length === 1) return [text];
  const out: Child[] = [];
  parts.forEach((p, i) => {
    if (i > 0) out.push(document.createElement('wbr'));
    out.push(p);
  });
  return out;
}

/**
 * A URL with line-break opportunities (`<wbr>`) after its `://` and before each later `/`, `?` and `&`,
 * so `http://127.0.0.1:39211/mcp` wraps as `http://` | `127.0.0.1:39211` | `/mcp` in a narrow view and
 * never inside the host, port or a path segment. Copying gives the URL back unchanged.
 */
export function breakableUrl(url: string): Child[] {
  const scheme = url.indexOf('://');
  const head = scheme >= 0 ? url.slice(0, scheme + 3) : '';
  const parts = url.slice(head.length).split(/(?=[/?&])/);
  const out: Child[] = head ? [head] : [];
  for (const p of parts) {
    if (!p) continue;
    if (out.length) out.push(document.createElement('wbr'));
    out.push(p);
  }
  return out;
}
