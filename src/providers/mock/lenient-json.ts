/** Lenient JSON: a state cut by the budget is JSON text plus the truncation marker, read as far as it goes. */
import { TRUNCATION_MARKER } from '../../judgment/budget';

const MAX_DEPTH = 256;

/**
 * Parses JSON text that may be cut short (optionally ending with the truncation marker): open strings,
 * arrays and objects are closed where the text ends; an unfinished key or literal is dropped.
 * Returns undefined when the text does not start like a JSON object/array or is not JSON.
 */
export function parseLenientJson(text: string): unknown {
  let src = text.endsWith(TRUNCATION_MARKER) ? text.slice(0, -TRUNCATION_MARKER.length) : text;
  src = src.trimStart();
  if (!src.startsWith('{') && !src.startsWith('[')) return undefined;
  try {
    const parser = new LenientParser(src);
    const value = parser.value(0);
    // Text after a complete top-level value means this is not (cut) JSON: read it as plain text.
    return parser.atEnd() ? value : undefined;
  } catch {
    return undefined;
  }
}

class Incomplete extends Error {}

class LenientParser {
  private i = 0;
  /** Set when a string ran into the end of the text. */
  cut = false;
  constructor(private readonly s: string) {}

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Error('too deep');
    this.ws();
    const c = this.s[this.i];
    if (c === undefined) throw new Incomplete();
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    return this.literal();
  }

  /** True when only whitespace remains. */
  atEnd(): boolean {
    this.ws();
    return this.i >= this.s.length;
  }

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.i++;
    for (;;) {
      this.ws();
      if (this.i >= this.s.length) return out;
      if (this.s[this.i] === '}') {
        this.i++;
        return out;
      }
      if (this.s[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.s[this.i] !== '"') throw new Error('bad key');
      const key = this.string();
      if (this.cut) return out; // the key itself was cut: drop it
      this.ws();
      if (this.s[this.i] !== ':') {
        if (this.i >= this.s.length) return out;
        throw new Error('bad object');
      }
      this.i++;
      try {
        Object.defineProperty(out, key, { value: this.value(depth + 1), enumerable: true, writable: true, configurable: true });
      } catch (err) {
        if (err instanceof Incomplete) {
          this.i = this.s.length; // the rest of the text was the cut value
          return out;
        }
        throw err;
      }
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.i++;
    for (;;) {
      this.ws();
      if (this.i >= this.s.length) return out;
      if (this.s[this.i] === ']') {
        this.i++;
        return out;
      }
      if (this.s[this.i] === ',') {
        this.i++;
        continue;
      }
      try {
        out.push(this.value(depth + 1));
      } catch (err) {
        if (err instanceof Incomplete) {
          this.i = this.s.length; // the rest of the text was the cut value
          return out;
        }
        throw err;
      }
    }
  }

  /** A JSON string; a cut string ends where the text ends (a cut escape is dropped). */
  private string(): string {
    this.i++;
    let out = '';
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c === '\\') {
        const e = this.s[this.i + 1];
        if (e === undefined) {
          this.i = this.s.length;
          this.cut = true;
          return out;
        }
        if (e === 'u') {
          const hex = this.s.slice(this.i + 2, this.i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            if (this.i + 6 <= this.s.length) throw new Error('bad escape');
            this.i = this.s.length;
            this.cut = true;
            return out;
          }
          out += String.fromCharCode(parseInt(hex, 16));
          this.i += 6;
          continue;
        }
        out += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e;
        this.i += 2;
        continue;
      }
      out += c;
      this.i++;
    }
    this.cut = true;
    return out;
  }

  private literal(): unknown {
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.s.slice(this.i, this.i + 64));
    if (!m) {
      const rest = this.s.slice(this.i);
      if (rest === '-' || ['true', 'false', 'null'].some((w) => w.startsWith(rest))) throw new Incomplete();
      throw new Error('bad literal');
    }
    const end = this.i + m[0].length;
    // A literal that runs into the end of the text may itself be cut ("tru", "12" of "123"): drop it.
    if (end >= this.s.length) throw new Incomplete();
    this.i = end;
    return JSON.parse(m[0]);
  }
}
