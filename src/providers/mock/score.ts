/** Score answers of the mock judge: one unnormalized score per level (provider.ts turns them into probabilities). */
import { cleanOutcome, destructiveEvidence } from './evidence';
import { BAD_CORRECTNESS, GOOD_CORRECTNESS, LOCAL_EDIT, MAX_RULE_TEXT } from './keywords';
import { pendingFamiliesOf } from './pending';
import { leadSentence, overlap, questionText } from './text';
import type { MockView } from './view';
import type { ScoreQuestion } from '../../judgment/types';

/**
 * Unnormalized level scores. Risk/blast questions: all 0.1, and 3 on the last level for destructive
 * operations, on level 1 for local edits, else on level 0 — 4 instead of 3 when the observation's pending
 * work is only reading or searching (an inspection is the clearest low-risk step). Correctness questions
 * with outcome keywords: all 0.1 and 3 on level 0 (failure/bug) or the last level (tests pass/fixed/lgtm). Otherwise
 * overlap(state, instructions + level) + 0.05·index. Risk/correctness are recognized by the question id or
 * the instruction's lead sentence (appended guidance, e.g. gate's, must not change a question's kind).
 */
export function scoreLevels(id: string, question: ScoreQuestion, view: MockView): number[] {
  const levels = question.criteria.map(questionText);
  const n = levels.length;
  const lead = leadSentence(questionText(question.instructions).toLowerCase().slice(0, MAX_RULE_TEXT));
  const idText = id.toLowerCase();
  const peak = (index: number, height = 3) => levels.map((_, i) => (i === index ? height : 0.1));

  if (/risk|blast/.test(idText) || /\brisk|\bblast|destructive/.test(lead)) {
    if (destructiveEvidence(view)) return peak(n - 1);
    if (LOCAL_EDIT.test(view.all)) return peak(Math.min(1, n - 1));
    const pending = pendingFamiliesOf(view);
    const inspecting = pending.size > 0 && [...pending].every((f) => f === 'read' || f === 'search');
    return peak(0, inspecting ? 4 : 3);
  }
  if (/correct/.test(idText) || /\bcorrect/.test(lead)) {
    const outcome = cleanOutcome(view);
    if (BAD_CORRECTNESS.test(outcome)) return peak(0);
    if (GOOD_CORRECTNESS.test(outcome)) return peak(n - 1);
  }
  const instructions = questionText(question.instructions);
  return levels.map((level, i) => overlap(view.allTokens, `${instructions} ${level}`) + 0.05 * i);
}
