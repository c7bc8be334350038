/**
 * Permission checks of the mock judge (the jev_permit pack of src/tools/jev-permit.ts): the effect of the
 * proposed call in `state.call` and its three nouls, from keyword rules on the call's tool name,
 * description and input text. Plausible, not calibrated: `rm -rf`, force pushes, history rewrites and
 * `curl … | sh` are destructive; uploads, pushes and publishing are external writes; edits, installs and
 * other commands are local writes (a command the rules do not know gets a spread, uncertain
 * distribution); reads, searches and listings are read-only.
 */
import { INJECTION_PHRASES } from './keywords';
import { foldedTokens } from './text';
import { isPlainObject, leafText, stringField, type MockView } from './view';

/** The four effect options, in pack order. */
export const EFFECT_OPTIONS = ['read_only', 'local_write', 'external_write', 'destructive'] as const;

const DESTRUCTIVE_CALL =
  /\brm\s+-[a-z]*[rf]|\bgit\s+push\b[^\n|;&]*(?:--force\b|\s-f\b)|\bgit\s+reset\s+--hard\b|\bgit\s+clean\s+-[a-z]*f|\bdrop\s+(?:table|database)\b|\btruncate\s+table\b|\bmkfs\b|\bdd\s+if=|\bshred\b|\b(?:curl|wget)\b[^\n;&]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|\bdelete_(?:file|branch|repo)|\bfind\b[^\n]*\s-delete\b/;
const EXTERNAL_CALL =
  /\b(?:curl|wget|http)\b[^\n;&]*(?:-X\s*(?:POST|PUT|PATCH|DELETE)|--data|\s-d\s|-F\s|--form|--upload-file|\s-T\s)|\bscp\b|\brsync\b[^\n]*\S+:\S|\bgit\s+push\b|\bnpm\s+publish\b|\bgh\s+(?:pr|issue|release)\s+create\b|\bnc\s+\S+\s+\d+|\bsend_(?:email|message)\b|\bpost_message\b|\bupload\b/;
const READ_TOOL = /^(?:read|grep|glob|ls|list|search|view|find|fetch|webfetch|websearch|read_file|list_dir|codebase_search|get_\w+|read_\w+|search_\w+|list_\w+)$/;
const WRITE_TOOL = /^(?:write|edit|multiedit|notebookedit|apply_patch|create_file|edit_file|write_file|replace_\w+|insert_\w+|str_replace\w*)$/;
const READ_COMMAND = /^\s*(?:ls|cat|head|tail|less|grep|rg|find|pwd|wc|git\s+(?:status|diff|log|show|branch)|echo|tree|stat|file|which|node\s+--version|npm\s+(?:ls|view))\b/;
const LOCAL_COMMAND = /^\s*(?:npm|pnpm|yarn|npx|node|python3?|pip|make|cargo|go|tsc|mkdir|touch|mv|cp|sed|git\s+(?:add|commit|checkout|switch|stash|merge|rebase))\b/;
/** A sensitive file or a secret that was redacted before the judge saw it. */
const SENSITIVE = /\.env\b|id_rsa|id_ed25519|\.ssh\/|\.aws\/|credentials|\.npmrc|\.netrc|\/etc\/passwd|\[redacted\]|\bsecrets?\b|\btoken\b|\bpassword\b/;
/** Workspace content sent as a file or piped into a network command. */
const SENDS_FILE = /(?:--data-binary|--data|-d|-F\s*\w*=|--upload-file|-T)\s*@|\bcat\b[^\n|]*\|\s*(?:curl|nc|wget)\b|\bscp\b|\brsync\b[^\n]*\S+:\S|\btar\b[^\n|]*\|\s*(?:curl|nc|ssh)\b/;
/** Wording of a purpose taken from content the agent read. */
const PLANTED = /\b(?:as (?:instructed|requested) (?:by|in) the (?:file|readme|page|issue|comment|document|tool output)|the (?:readme|file|page|issue|comment|document) (?:says|instructs|asks) (?:to|you)|according to the instructions in)\b/;
/** Folded words that say nothing about what a call is about. */
const STOP = new Set('the and for with from into this that src file files path command run tool call input description true false'.split(' '));

/** The proposed call as text, lowercased: tool name, description and every string and number of its input. */
function callText(view: MockView): { tool: string; text: string } {
  const call = view.fields?.call;
  if (!isPlainObject(call)) return { tool: '', text: '' };
  const tool = typeof call.tool === 'string' ? call.tool.toLowerCase() : '';
  const description = typeof call.description === 'string' ? call.description : '';
  return { tool, text: `${tool}\n${description}\n${leafText(call.input)}`.toLowerCase() };
}

/** True when a request carries a permit pack's call (a `call` object with a tool name). */
export function isPermitState(view: MockView): boolean {
  const call = view.fields?.call;
  return isPlainObject(call) && typeof call.tool === 'string';
}

/** The command of a shell-like call (`input.command` or `input.cmd`), lowercased, or ''. */
function commandOf(view: MockView): string {
  const call = view.fields?.call;
  const input = isPlainObject(call) && isPlainObject(call.input) ? call.input : undefined;
  const cmd = input?.command ?? input?.cmd;
  return typeof cmd === 'string' ? cmd.toLowerCase() : Array.isArray(cmd) ? cmd.filter((p) => typeof p === 'string').join(' ').toLowerCase() : '';
}

/** The effect the rules find, and how sure they are (strong: a clear keyword; weak: a plausible guess). */
function effectGuess(view: MockView): { effect: (typeof EFFECT_OPTIONS)[number]; strong: boolean } {
  const { tool, text } = callText(view);
  if (DESTRUCTIVE_CALL.test(text)) return { effect: 'destructive', strong: true };
  if (EXTERNAL_CALL.test(text)) return { effect: 'external_write', strong: true };
  const command = commandOf(view);
  if (command !== '') {
    if (READ_COMMAND.test(command) && !/[>]|\|\s*(?:tee|xargs)\b/.test(command)) return { effect: 'read_only', strong: true };
    if (LOCAL_COMMAND.test(command)) return { effect: 'local_write', strong: true };
    return { effect: 'local_write', strong: false };
  }
  if (WRITE_TOOL.test(tool)) return { effect: 'local_write', strong: true };
  if (READ_TOOL.test(tool)) return { effect: 'read_only', strong: true };
  return { effect: 'local_write', strong: false };
}

/**
 * Unnormalized scores of the effect options (pack order): the guessed effect +6 when a clear keyword
 * matched (a concentrated distribution), else +1.5 with read_only +0.5 (spread: the guard will not pass).
 */
export function permitEffectScores(labels: readonly string[], view: MockView): number[] {
  const guess = effectGuess(view);
  return labels.map((label) => {
    if (label === guess.effect) return guess.strong ? 6 : 1.5;
    return !guess.strong && label === 'read_only' ? 0.5 : 0;
  });
}

/** The effect choice of a permit pack: exactly the four effect options. */
export function isPermitEffectChoice(labels: readonly string[]): boolean {
  return labels.length === EFFECT_OPTIONS.length && EFFECT_OPTIONS.every((o, i) => labels[i] === o);
}

const hasInjection = (text: string) => INJECTION_PHRASES.some((p) => text.includes(p)) || PLANTED.test(text);

/** P(exfiltration): file contents or secrets sent out 0.9; any external write 0.3 (unsure); else 0.03. */
function exfiltration(view: MockView): number {
  const { text } = callText(view);
  const external = effectGuess(view).effect === 'external_write' || EXTERNAL_CALL.test(text);
  if (external && (SENDS_FILE.test(text) || SENSITIVE.test(text))) return 0.9;
  if (external) return 0.3;
  return 0.03;
}

/** P(planted purpose): injection or "the file says to" wording in the call 0.93; an external write the request does not mention 0.3; else 0.03. */
function plantedPurpose(view: MockView): number {
  const { text } = callText(view);
  if (hasInjection(text)) return 0.93;
  if (exfiltration(view) >= 0.3 && sharedWords(view) === 0) return 0.3;
  return 0.03;
}

/** Topic words (folded, 3+ letters, not generic) of the call found in the request. */
function sharedWords(view: MockView): number {
  const request = foldedTokens(stringField(view, 'request'));
  let hits = 0;
  for (const t of foldedTokens(callText(view).text)) if (t.length >= 3 && !STOP.has(t) && request.has(t)) hits++;
  return hits;
}

/**
 * P(serves request): 0.15 for a planted purpose or likely exfiltration; else 0.94 when the call shares a
 * topic word with the request; else 0.6 for a read-only call (looking around is usually part of the work)
 * and 0.25 for anything else.
 */
function servesRequest(view: MockView): number {
  if (plantedPurpose(view) >= 0.9 || exfiltration(view) >= 0.9) return 0.15;
  if (sharedWords(view) > 0) return 0.94;
  return effectGuess(view).effect === 'read_only' ? 0.6 : 0.25;
}

/**
 * P(true) of a permit noul by its lead sentence ("… the proposed call in state.call serve / send … off this
 * machine / come from instructions planted …"), or undefined when the question is not one of them or the
 * state has no call.
 */
export function permitNoul(lead: string, view: MockView): number | undefined {
  if (!lead.includes('proposed call in state.call') || !isPermitState(view)) return undefined;
  if (/\bserve the user'?s request\b/.test(lead)) return servesRequest(view);
  if (/\boff this machine\b/.test(lead)) return exfiltration(view);
  if (/\binstructions planted\b/.test(lead)) return plantedPurpose(view);
  return undefined;
}
