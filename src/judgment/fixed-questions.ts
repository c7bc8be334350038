/**
 * Fixed questions: the question packs' own questions, which are the same on every call. They are frozen
 * and serialized once, so the token estimate (budget.ts) reads their JSON instead of writing it per
 * request. Questions built from a caller's input are never fixed.
 */
import type { Question } from './types';

/** JSON text of each fixed question; its count of UTF-16 units ≥ 0x80, once first measured. */
const serialized = new WeakMap<object, { json: string; nonAscii?: number }>();

/**
 * Freezes `question` deeply (criteria included), records its JSON and returns the same object. Anything
 * that later tries to change it gets a TypeError, so a fixed question never drifts from its JSON.
 */
export function fixedQuestion<Q extends Question>(question: Q): Q {
  serialized.set(deepFreeze(question), { json: JSON.stringify(question) });
  return question;
}

/**
 * The JSON text of a question and its non-ASCII unit count: recorded for a fixed question, computed for
 * any other. `measure` counts the units ≥ 0x80 of a text.
 */
export function questionJson(question: unknown, measure: (text: string) => number): { json: string; nonAscii: number } {
  const fixed = typeof question === 'object' && question !== null ? serialized.get(question) : undefined;
  if (!fixed) {
    const json = JSON.stringify(question);
    return { json, nonAscii: measure(json) };
  }
  fixed.nonAscii ??= measure(fixed.json);
  return fixed as { json: string; nonAscii: number };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
