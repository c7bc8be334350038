/**
 * A fake System One answerer for `jevcp step --agent … --execute` tests: the coding loop routes to tools
 * and the selection takes the first eligible call, confidently, so the accepted call is executed.
 */
import { pick } from './decision-harness';
import { noul, score, type Answerer } from './fake-systemone';

/** Answers every question of a jev_step request so that candidate `call_0` is accepted. */
export const firstCallAnswerer: Answerer = (req) => {
  const body = req.body as { model: string; questions: Record<string, unknown> };
  const ids = Object.keys(body.questions);
  const n = ids.filter((k) => k.startsWith('suitable_')).length;
  const answers: Record<string, unknown> = {
    next: pick(['continue', 'retry', 'ask_user', 'stop'], 'continue', 0.97),
    model_tier: pick(['cheap', 'standard', 'reasoning'], 'standard', 0.97),
    focus: pick(['edit', 'search', 'test', 'read', 'plan'], 'read', 0.9),
    risk: score(3, [0.95, 0.04, 0.01], 0.925),
    done_enough: noul(0.2),
    needs_more_context: noul(0.05),
    needs_generation: noul(0.95),
    tests_likely_fail: noul(0.3),
    selected: pick(['none', ...Array.from({ length: n }, (_, i) => `call_${i}`)], 'call_0', 0.97),
    ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`suitable_${i}`, noul(0.95)])),
  };
  return { model: body.model, usage: { input_tokens: 10, output_tokens: 10 }, answers: Object.fromEntries(ids.map((id) => [id, answers[id]])) };
};
