/**
 * Where each value of a JSON text sits (UTF-16 offsets), so inline surfaces can point at a candidate, a
 * claim or a reason code. Strict JSON only (what `JSON.parse` accepts, which is what `jevcp` and the tools
 * read); no `vscode` import. The values themselves come from `JSON.parse`, so positions and values always
 * describe the same text.
 */

/** One located JSON value. Offsets are UTF-16 indices into the text; `end` is exclusive. */
export interface JsonNode {
  type: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
  start: number;
  end: number;
  /** Offsets of the property key (quotes included) when this value is an object member. */
  keyStart?: number;
  keyEnd?: number;
  /** Members of an object, in text order (a repeated key keeps its last occurrence, as JSON.parse does). */
  properties?: Map<string, JsonNode>;
  /** Items of an array. */
  items?: JsonNode[];
}

/** A parsed JSON text with the location of every value. */
export interface LocatedJson {
  value: unknown;
  root: JsonNode;
}

/** JSON path segment: an object key or an array index. */
export type JsonPath = readonly (string | number)[];

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}

  skipWs(): void {
    while (this.pos < this.text.length && WS.has(this.text.charCodeAt(this.pos))) this.pos++;
  }

  fail(rule: string): never {
    throw new SyntaxError(`${rule} at offset ${this.pos}`);
  }

  value(): JsonNode {
    this.skipWs();
    const start = this.pos;
    const ch = this.text[this.pos];
    switch (ch) {
      case '{':
        return this.object(start);
      case '[':
        return this.array(start);
      case '"':
        this.string();
        return { type: 'string', start, end: this.pos };
      case 't':
        return this.literal('true', 'boolean', start);
      case 'f':
        return this.literal('false', 'boolean', start);
      case 'n':
        return this.literal('null', 'null', start);
      default: {
        const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
        m.lastIndex = this.pos;
        if (!m.exec(this.text)) this.fail('expected a JSON value');
        this.pos = m.lastIndex;
        return { type: 'number', start, end: this.pos };
      }
    }
  }

  literal(word: string, type: 'boolean' | 'null', start: number): JsonNode {
    if (!this.text.startsWith(word, this.pos)) this.fail('expected a JSON value');
    this.pos += word.length;
    return { type, start, end: this.pos };
  }

  /** Skips a string (cursor on its opening quote); returns its decoded value. */
  string(): string {
    const start = this.pos;
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x22) {
        this.pos++;
        return JSON.parse(this.text.slice(start, this.pos)) as string;
      }
      if (c === 0x5c) this.pos += 2;
      else if (c < 0x20) this.fail('control character in a string');
      else this.pos++;
    }
    return this.fail('unterminated string');
  }

  object(start: number): JsonNode {
    this.pos++;
    const properties = new Map<string, JsonNode>();
    this.skipWs();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return { type: 'object', start, end: this.pos, properties };
    }
    for (;;) {
      this.skipWs();
      if (this.text[this.pos] !== '"') this.fail('expected a property name');
      const keyStart = this.pos;
      const key = this.string();
      const keyEnd = this.pos;
      this.skipWs();
      if (this.text[this.pos] !== ':') this.fail('expected ":"');
      this.pos++;
      const node = this.value();
      properties.delete(key); // a repeated key: the last one wins, in its own position
      properties.set(key, { ...node, keyStart, keyEnd });
      this.skipWs();
      const sep = this.text[this.pos++];
      if (sep === '}') return { type: 'object', start, end: this.pos, properties };
      if (sep !== ',') {
        this.pos--;
        this.fail('expected "," or "}"');
      }
    }
  }

  array(start: number): JsonNode {
    this.pos++;
    const items: JsonNode[] = [];
    this.skipWs();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return { type: 'array', start, end: this.pos, items };
    }
    for (;;) {
      items.push(this.value());
      this.skipWs();
      const sep = this.text[this.pos++];
      if (sep === ']') return { type: 'array', start, end: this.pos, items };
      if (sep !== ',') {
        this.pos--;
        this.fail('expected "," or "]"');
      }
    }
  }
}

/**
 * Parses `text` (a leading byte-order mark is ignored) and locates every value. Returns undefined when the
 * text is not strict JSON (the editor's own JSON diagnostics say where).
 */
export function locateJson(text: string): LocatedJson | undefined {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let value: unknown;
  try {
    value = JSON.parse(bom ? text.slice(1) : text);
  } catch {
    return undefined;
  }
  try {
    const scanner = new Scanner(text);
    scanner.pos = bom;
    const root = scanner.value();
    scanner.skipWs();
    if (scanner.pos !== text.length) return undefined;
    return { value, root };
  } catch {
    return undefined;
  }
}

/** The node at `path` below `node`, or undefined when a segment does not exist. */
export function nodeAt(node: JsonNode | undefined, path: JsonPath): JsonNode | undefined {
  let cur = node;
  for (const seg of path) {
    if (!cur) return undefined;
    if (typeof seg === 'number') cur = cur.items?.[seg];
    else cur = cur.properties?.get(seg);
  }
  return cur;
}

/** Path of the innermost node containing `offset` (keys included), or [] for the root / outside. */
export function pathAt(root: JsonNode, offset: number): (string | number)[] {
  const path: (string | number)[] = [];
  let cur: JsonNode = root;
  for (;;) {
    let next: [string | number, JsonNode] | undefined;
    if (cur.properties) {
      for (const [key, child] of cur.properties) {
        if (offset >= (child.keyStart ?? child.start) && offset < child.end) next = [key, child];
      }
    } else if (cur.items) {
      cur.items.forEach((child, i) => {
        if (offset >= child.start && offset < child.end) next = [i, child];
      });
    }
    if (!next) return path;
    path.push(next[0]);
    cur = next[1];
  }
}
