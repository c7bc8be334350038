/**
 * The fake judge's side of the content-screen tests: which requests are jev_screen's, and an answerer that
 * judges the text as test/fixtures/servers/planted.mjs writes it (the planted instruction → injection 0.97,
 * the suspicious post → 0.5, anything else → 0.02).
 */
import { answerAll, noul, type Answerer, type RecordedRequest } from './fake-systemone';

export const PLANTED_WORDS = /ignore all previous instructions/i;
export const SUSPICIOUS_WORDS = /assistants reading this/i;

/** The state of a jev_screen request (it asks `injection`) as JSON text, or '' for another request. */
export function screenedState(request: RecordedRequest): string {
  const questions = request.body?.questions as Record<string, unknown> | undefined;
  return questions && 'injection' in questions ? JSON.stringify(request.body?.state ?? '') : '';
}

/** Answers jev_screen by the words of the screened text; other questions well-formed. */
export const plantedScreenAnswerer: Answerer = (request) => {
  const state = screenedState(request);
  const injection = PLANTED_WORDS.test(state) ? 0.97 : SUSPICIOUS_WORDS.test(state) ? 0.5 : 0.02;
  return answerAll(request.body?.questions ?? {}, { injection: noul(injection), substance: noul(0.9), relevance: noul(0.9) });
};
