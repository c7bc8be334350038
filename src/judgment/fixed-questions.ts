/**
 * Fixed questions: the question packs' own questions, which are the same on every call. They are frozen
 * once and registered here, so the token estimate (budget.ts) serializes each of them once per process
 * instead of once per request. Questions built from a caller's input are never registered.
 */
import type { Question } from './types';

/** JSON text of each registered question and its count of UTF-16 units ≥ 0x80. */
const serialized = new WeakMap<object, { json: string; nonAscii: number }>();
const registered = new WeakSet<object>();

/**
 * Freezes `question` deeply (criteria included) and registers it as fixed. Returns the same object.
 * Throws TypeError when something later tries to change it, so a registered question can never drift
 * from its recorded JSON.
 */
export function fixedQuestion<Q extends Question>(question: Q): Q {
  registered.add(deepFreeze(question));
  return question;
}

/**
 * The JSON text of a question and its non-ASCII unit count: remembered for a fixed question, computed
 * by `measure` for any other. `measure` counts the units ≥ 0x80 of a text.
 */
export function questionJson(question: unknown, measure: (text: string) => number): { json: string; nonAscii: number } {
  const fixed = typeof question === 'object' && question !== null && registered.has(question);
  if (fixed) {
    const hit = serialized.get(question);
    if (hit) return hit;
  }
  const json = JSON.stringify(question);
  const entry = { json, nonAscii: measure(json) };
  if (fixed) serialized.set(question as object, entry);
  return entry;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
