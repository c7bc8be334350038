import type { ScreenRecommendation } from '../policy/screen';
import type { ScreenResult } from '../tools/jev-screen';

/**
 * Types of the content screen (issue 23): what the agent reads from an open-world source is judged by
 * jev_screen first. The screener has no I/O of its own; the judgment comes through an injected ScreenJudge.
 */

/** How a screened result is classified: jev_screen's four recommendations, or `unscreened` when no judgment holds. */
export type ScreenKind = 'pass' | 'skip' | 'review' | 'block' | 'unscreened';

/** What the caller does when the judge failed: `warn` shows the content with a warning, `strict` withholds it. */
export type ScreenMode = 'warn' | 'strict';

/** What the caller does with the content: hand it over, hand it over with a warning, or withhold it. */
export type ScreenHandling = 'pass-through' | 'warn' | 'withhold';

/** A failure that left (part of) the content unscreened: a JevError code (TIMEOUT, CANCELLED, API_ERROR, …) and its message. */
export interface ScreenError {
  code: string;
  message: string;
}

/**
 * One jev_screen judgment as the injected judge returns it: the tool's structured result and the id of its
 * decision record, or the classified error (never a default verdict).
 */
export type ScreenJudgment =
  | { ok: true; result: ScreenResult; decisionId?: string }
  | { ok: false; error: ScreenError; decisionId?: string };

/**
 * Runs jev_screen on `text` (at most the screener's chunk budget) with an optional `purpose`. Must honour
 * `signal`; may also throw (a thrown error counts like `{ok: false}`). `source` says where the content came
 * from, in words, for the decision record.
 */
export type ScreenJudge = (text: string, purpose: string | undefined, signal: AbortSignal, source?: string) => Promise<ScreenJudgment>;

/** The outcome of screening one piece of content. */
export interface ScreenOutcome {
  kind: ScreenKind;
  /** jev_screen's recommendation of the deciding chunk (the worst one); absent when unscreened. */
  recommendation?: ScreenRecommendation;
  /** Highest injection probability over the judged chunks, in [0,1]; absent when no chunk was judged. */
  injection?: number;
  /** Ids of the decision records of the judged chunks, in chunk order (those the judge reported). */
  decisionIds: string[];
  /** Why, in one or two sentences (no content is quoted). */
  reason: string;
  /**
   * True when this screen made no judge call: the outcome was remembered from an earlier identical screen or
   * shared with an identical one in flight.
   */
  fromCache: boolean;
  /** Number of chunks judged (1 for content within the budget; 0 when the screen failed or was stopped as a whole). */
  chunks: number;
  /** True when the content was longer than maxChunks chunks cover: the rest was never screened. */
  cut: boolean;
  /** Characters (UTF-16 units) covered by the judged chunks, and of the whole content. */
  screenedChars: number;
  totalChars: number;
  /** The failure behind `unscreened` (the first failing chunk's). */
  error?: ScreenError;
}

/** Arguments of one screen. */
export interface ScreenRequest {
  /** The content the agent is about to read (a tool result's text). */
  text: string;
  /** What the agent wants it for; a blank purpose is no purpose (as in jev_screen). */
  purpose?: string;
  /** Where it came from, in words (`mcp github/get_issue`, `WebFetch`), passed to the judge for the record. */
  source?: string;
  /** Stops waiting for this screen (→ unscreened CANCELLED); a judgment shared with others goes on for them. */
  signal?: AbortSignal;
}

/** Options of createScreener. */
export interface ScreenerOptions {
  judge: ScreenJudge;
  /** Largest chunk, characters; default DEFAULT_BUDGET_CHARS (jev_screen's state budget at chars/4). */
  budgetChars?: number;
  /** What a caller does with `unscreened` (see handling); default `warn`. */
  mode?: ScreenMode;
  /** Most chunks judged per content; beyond them the content is cut and the outcome is at least review. Default 8. */
  maxChunks?: number;
  /** Characters each chunk repeats from the end of the previous one, so text across a cut is seen whole. */
  overlapChars?: number;
  /** Chunks judged at the same time; default 4. */
  concurrency?: number;
  /** Deadline of one whole screen, ms (default 60 000): then unscreened TIMEOUT. */
  timeoutMs?: number;
  /** Distinct contents remembered (LRU); default 500. */
  cacheSize?: number;
}

/** A screener: one judgment per distinct (text, purpose) for its lifetime (one session). */
export interface Screener {
  readonly mode: ScreenMode;
  /** Screens `text`; never rejects: every failure is an `unscreened` outcome naming its error code. */
  screen(request: ScreenRequest): Promise<ScreenOutcome>;
  /** Number of outcomes remembered. */
  readonly cacheEntries: number;
}
