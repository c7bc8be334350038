import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { CallFacts } from './types';
import { followLinks } from './paths';

/**
 * Permission rules in the syntax agent users know from Claude Code's settings: `Tool` or
 * `Tool(specifier)`. The tool part is a name or a glob (`mcp__github__*`; `mcp__github` alone means every
 * tool of that server). Specifiers:
 * - `Bash(npm test)` the exact command, `Bash(git status*)` a glob (`*` any text), `Bash(npm run test:*)`
 *   a prefix. A compound command (`&&`, `||`, `;`, `|`, line breaks) is matched part by part: an allow rule
 *   must match every part, a deny or ask rule any part; a command with `$(`, backticks or redirections
 *   `>` is never matched by an allow rule.
 * - `Read(src/**)`, `Edit(./docs/*.md)`, `Write(//tmp/**)`: gitignore-like path globs (`**` any depth, `*`
 *   within one folder, `?` one character); `//x` is the absolute path /x, `~/x` the home folder, `/x` and
 *   `./x` and `x` are relative to the workspace. A Read rule covers every file-reading tool (Read, Glob,
 *   Grep, LS, NotebookRead), an Edit rule every file-editing tool (Edit, MultiEdit, Write, NotebookEdit).
 *   An allow rule must match every path of the call, a deny or ask rule any.
 * - `WebFetch(domain:example.com)`: that host; `domain:*.example.com` its subdomains.
 */

/** A parsed rule. */
export interface Rule {
  /** As written. */
  raw: string;
  tool: RegExp;
  /** The tool part as written. */
  toolPart: string;
  spec?: { kind: 'command'; match: (command: string) => boolean } | { kind: 'path'; pattern: string } | { kind: 'domain'; host: string };
}

const READ_FAMILY = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead']);
const EDIT_FAMILY = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);
const TOOL_PART = /^[A-Za-z0-9_.\-*?]+$/;

function escape(text: string): string {
  return text.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
}

function nameGlob(pattern: string): RegExp {
  let src = '';
  for (const ch of pattern) src += ch === '*' ? '.*' : ch === '?' ? '.' : escape(ch);
  return new RegExp(`^${src}$`, 's');
}

/** A path glob as a regular expression over absolute paths. */
export function pathGlob(absPattern: string): RegExp {
  let src = '';
  for (let i = 0; i < absPattern.length; i++) {
    const ch = absPattern[i]!;
    if (ch === '*' && absPattern[i + 1] === '*') {
      const slashAfter = absPattern[i + 2] === '/';
      if (slashAfter) {
        src += '(?:.*/)?';
        i += 2;
      } else {
        // `/**` at the end: the folder itself and everything in it.
        if (src.endsWith('/')) src = `${src.slice(0, -1)}(?:/.*)?`;
        else src += '.*';
        i += 1;
      }
    } else if (ch === '*') src += '[^/]*';
    else if (ch === '?') src += '[^/]';
    else src += escape(ch);
  }
  return new RegExp(`^${src}$`, 's');
}

/** The absolute form of a path specifier, against the workspace `root`; undefined for a workspace path when there is no workspace. */
export function absolutePattern(spec: string, root: string | undefined): string | undefined {
  if (spec.startsWith('//')) return spec.slice(1);
  if (spec === '~' || spec.startsWith('~/')) return followLinks(homedir()) + spec.slice(1);
  if (root === undefined) return undefined;
  if (spec.startsWith('/')) return root.replace(/\/$/, '') + spec;
  const rel = spec.startsWith('./') ? spec.slice(2) : spec;
  return rel === '' || rel === '.' ? root : `${root.replace(/\/$/, '')}/${rel}`;
}

function commandMatcher(spec: string): (command: string) => boolean {
  if (spec.endsWith(':*')) {
    const prefix = spec.slice(0, -2);
    return (c) => c === prefix || c.startsWith(`${prefix} `);
  }
  const re = nameGlob(spec);
  return (c) => re.test(c);
}

/** Why `raw` is not a valid rule, or undefined. */
export function ruleProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return 'must be a non-empty string such as "Bash(git status*)", "Read" or "mcp__github__*"';
  const m = /^([^()]+)(?:\((.*)\))?$/s.exec(raw.trim());
  if (!m) return 'must be Tool or Tool(specifier), with balanced parentheses';
  const [, tool, spec] = m;
  if (!TOOL_PART.test(tool!)) return `the tool part ${JSON.stringify(tool)} may contain only letters, digits and _ . - * ?`;
  if (spec === undefined) return undefined;
  if (spec.trim() === '') return 'the specifier in parentheses must not be empty (write the tool alone to match all its calls)';
  if (tool === 'Bash') return undefined;
  if (READ_FAMILY.has(tool!) || EDIT_FAMILY.has(tool!)) return undefined;
  if (tool === 'WebFetch') return /^domain:(\*\.)?[A-Za-z0-9.-]+$/.test(spec) ? undefined : 'WebFetch takes "domain:example.com" (or "domain:*.example.com")';
  return `a specifier applies to Bash, Read, Edit, Write, Glob, Grep, LS, NotebookEdit and WebFetch; write ${JSON.stringify(tool)} alone`;
}

/** Parses one rule. Throws Error with the rule problem (see `ruleProblem`). */
export function parseRule(raw: string): Rule {
  const problem = ruleProblem(raw);
  if (problem) throw new Error(problem);
  const m = /^([^()]+)(?:\((.*)\))?$/s.exec(raw.trim())!;
  const toolPart = m[1]!;
  const spec = m[2];
  // `mcp__server` alone means every tool of that server.
  const toolGlob = /^mcp__[^_]+(?:_[^_]+)*$/.test(toolPart) && !toolPart.slice(5).includes('__') ? `${toolPart}__*` : toolPart;
  const rule: Rule = { raw, toolPart, tool: nameGlob(toolGlob) };
  if (spec === undefined) return rule;
  if (toolPart === 'Bash') rule.spec = { kind: 'command', match: commandMatcher(spec) };
  else if (toolPart === 'WebFetch') rule.spec = { kind: 'domain', host: spec.slice('domain:'.length).toLowerCase() };
  else rule.spec = { kind: 'path', pattern: spec };
  return rule;
}

function toolMatches(rule: Rule, facts: CallFacts, hostTool: string): boolean {
  if (rule.toolPart === 'Read' && READ_FAMILY.has(facts.ruleTool)) return true;
  if (rule.toolPart === 'Edit' && EDIT_FAMILY.has(facts.ruleTool)) return true;
  if (rule.tool.test(facts.ruleTool)) return true;
  return rule.spec === undefined && rule.tool.test(hostTool);
}

/** The parts of a compound shell command. */
export function commandParts(command: string): string[] {
  return command
    // Every separator of a shell list or pipeline: `&&`, `||`, `|&`, `;`, `|`, a lone `&` (background), newlines.
    .split(/&&|\|\||\|&|[;|&\n\r]/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Whether `rule` matches the call. `mode` is how the rule is used: an allow rule must cover the whole call
 * (every command part, every path, every URL), a deny or ask rule fires on any part. `root` is the workspace
 * (undefined: none, so a workspace path such as `./**` matches nothing).
 */
export function ruleMatches(rule: Rule, facts: CallFacts, hostTool: string, root: string | undefined, mode: 'allow' | 'any'): boolean {
  if (!toolMatches(rule, facts, hostTool)) return false;
  const spec = rule.spec;
  if (spec === undefined) return true;
  const all = <T>(items: T[], test: (t: T) => boolean) => (mode === 'allow' ? items.length > 0 && items.every(test) : items.some(test));
  if (spec.kind === 'command') {
    const command = facts.command;
    if (command === undefined) return false;
    if (mode === 'allow' && /\$\(|`|>|<\(/.test(command)) return false;
    return all(commandParts(command), spec.match) || (mode === 'any' && spec.match(command.trim()));
  }
  if (spec.kind === 'path') {
    const pattern = absolutePattern(spec.pattern, root);
    if (pattern === undefined) return false;
    const re = pathGlob(pattern);
    return all(facts.paths.map((p) => resolve(p)), (p) => re.test(p));
  }
  return all(facts.urls, (u) => {
    const host = hostOf(u);
    if (host === undefined) return false;
    return spec.host.startsWith('*.') ? host.endsWith(spec.host.slice(1)) : host === spec.host;
  });
}
