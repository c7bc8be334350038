/**
 * A small JSON reader for policy and evidence text: rejects duplicate
 * object keys (which `JSON.parse` silently merges) and reports syntax errors with the wording and
 * positions of Python's `json` module (`Expecting value: line 1 column 1 (char 0)`), so diagnostics match
 * the reference. Positions count code points, as Python does. A trailing comma gets Python 3.13's clearer
 * `Illegal trailing comma before end of object|array` (3.12 and older say `Expecting …` there).
 */

/** Why a text is not acceptable JSON. `kind` tells a duplicate key from a syntax error. */
export class StrictJsonError extends Error {
  constructor(
    readonly kind: 'syntax' | 'duplicate-key',
    message: string,
  ) {
    super(message);
    this.name = 'StrictJsonError';
  }
}

/** Options of {@link parseStrictJson}. */
export interface StrictJsonOptions {
  /** Accept Python's `NaN`, `Infinity`, `-Infinity` literals (Python's default is to accept them). Default true. */
  allowNonFiniteConstants?: boolean;
  /** Maximum nesting of arrays/objects (guards the stack). Default 512. */
  maxDepth?: number;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Parses `text` as one JSON value. Objects are plain objects with own properties (a `__proto__` key
 * stays an ordinary own key). Throws StrictJsonError: kind `duplicate-key` with message
 * `duplicate key in JSON object` (checked when an object closes, as Python's pairs hook does), or kind
 * `syntax` with a Python-style decoder message such as `Expecting ',' delimiter: line 1 column 9 (char 8)`.
 */
export function parseStrictJson(text: string, options: StrictJsonOptions = {}): unknown {
  return new Reader(text, options.allowNonFiniteConstants ?? true, options.maxDepth ?? 512).document();
}

class Reader {
  private i = 0;

  constructor(
    private readonly s: string,
    private readonly allowConstants: boolean,
    private readonly maxDepth: number,
  ) {}

  document(): unknown {
    if (this.s.charCodeAt(0) === 0xfeff) this.fail('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
    this.ws();
    const value = this.value(0);
    this.ws();
    if (this.i !== this.s.length) this.fail('Extra data', this.i);
    return value;
  }

  private fail(message: string, pos: number): never {
    // Python reports positions in code points; count surrogate pairs once.
    const before = this.s.slice(0, pos);
    const cpPos = Array.from(before).length;
    const lastNl = before.lastIndexOf('\n');
    const line = before.split('\n').length;
    const col = lastNl < 0 ? cpPos + 1 : Array.from(before.slice(lastNl + 1)).length + 1;
    throw new StrictJsonError('syntax', `${message}: line ${line} column ${col} (char ${cpPos})`);
  }

  private ws(): void {
    while (this.i < this.s.length && WS.has(this.s[this.i]!)) this.i++;
  }

  private value(depth: number): unknown {
    const s = this.s;
    const c = s[this.i];
    if (c === '"') return this.string();
    if (c === '{' || c === '[') {
      if (depth >= this.maxDepth) throw new StrictJsonError('syntax', `nesting deeper than ${this.maxDepth} levels`);
      return c === '{' ? this.object(depth + 1) : this.array(depth + 1);
    }
    for (const [word, val] of [['true', true], ['false', false], ['null', null]] as const) {
      if (s.startsWith(word, this.i)) {
        this.i += word.length;
        return val;
      }
    }
    if (this.allowConstants) {
      for (const [word, val] of [['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity]] as const) {
        if (s.startsWith(word, this.i)) {
          this.i += word.length;
          return val;
        }
      }
    }
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(s);
    if (m) {
      this.i += m[0].length;
      return Number(m[0]);
    }
    return this.fail('Expecting value', this.i);
  }

  private string(): string {
    const s = this.s;
    const begin = this.i;
    let i = begin + 1;
    let out = '';
    for (;;) {
      if (i >= s.length) this.fail('Unterminated string starting at', begin);
      const c = s.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) this.fail('Invalid control character at', i);
      if (c !== 0x5c) {
        out += s[i];
        i++;
        continue;
      }
      if (i + 1 >= s.length) this.fail('Unterminated string starting at', begin);
      const esc = s[i + 1]!;
      if (esc !== 'u') {
        const mapped = ESCAPES[esc];
        if (mapped === undefined) this.fail('Invalid \\escape', i);
        out += mapped;
        i += 2;
        continue;
      }
      const hex = s.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Invalid \\uXXXX escape', i + 1);
      out += String.fromCharCode(parseInt(hex, 16));
      i += 6;
    }
    this.i = i + 1;
    return out;
  }

  private object(depth: number): Record<string, unknown> {
    const s = this.s;
    this.i++;
    this.ws();
    const pairs: [string, unknown][] = [];
    if (s[this.i] !== '}') {
      for (;;) {
        if (s[this.i] !== '"') this.fail('Expecting property name enclosed in double quotes', this.i);
        const key = this.string();
        this.ws();
        if (s[this.i] !== ':') this.fail("Expecting ':' delimiter", this.i);
        this.i++;
        this.ws();
        pairs.push([key, this.value(depth)]);
        this.ws();
        if (s[this.i] === '}') break;
        if (s[this.i] !== ',') this.fail("Expecting ',' delimiter", this.i);
        const comma = this.i;
        this.i++;
        this.ws();
        if (s[this.i] === '}') this.fail('Illegal trailing comma before end of object', comma);
      }
    }
    this.i++;
    const out: Record<string, unknown> = {};
    for (const [key, value] of pairs) {
      if (Object.hasOwn(out, key)) throw new StrictJsonError('duplicate-key', 'duplicate key in JSON object');
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  private array(depth: number): unknown[] {
    const s = this.s;
    this.i++;
    this.ws();
    const out: unknown[] = [];
    if (s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.ws();
      if (s[this.i] === ']') break;
      if (s[this.i] !== ',') this.fail("Expecting ',' delimiter", this.i);
      const comma = this.i;
      this.i++;
      this.ws();
      if (s[this.i] === ']') this.fail('Illegal trailing comma before end of array', comma);
    }
    this.i++;
    return out;
  }
}
