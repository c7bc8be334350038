/**
 * The content screen (issue 23): what the agent reads from an open-world source is judged by jev_screen
 * before it reads it. `shouldScreen` picks the results, a screener judges them (cached, chunked, never
 * failing open), `handling` says what the caller does with the outcome.
 */
export { createScreener, DEFAULT_CACHE_SIZE, DEFAULT_CONCURRENCY, DEFAULT_SCREEN_TIMEOUT_MS, MIN_BUDGET_CHARS } from './screener';
export { chunkText, DEFAULT_BUDGET_CHARS, DEFAULT_MAX_CHUNKS, DEFAULT_OVERLAP_CHARS, type ChunkRange, type ChunkOptions } from './chunks';
export { contentKey, LruCache } from './cache';
export { chunkVerdict, combineVerdicts, handling, unscreenedOutcome, type ChunkVerdict, type ChunkingFacts } from './outcome';
export { commandMatches, commandSegments, isHostWebTool, shouldScreen, type OriginAnnotations, type ResultOrigin, type ScreenSelectConfig, type ServerScreenConfig } from './select';
export { serviceJudge, type ServiceJudgeOptions } from './service-judge';
export type * from './types';
