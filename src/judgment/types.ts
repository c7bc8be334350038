/**
 * System One question and answer types.
 * Probabilities are numbers in [0,1]; score levels are indexed from 0, keys are strings on the wire.
 */

/** Yes/no question; the answer is P(true). `criteria` describes the true and false cases. */
export interface NoulQuestion {
  type: 'noul';
  instructions: string;
  criteria?: { true?: string; false?: string };
}

/** Closed-option question; criteria keys are the only valid answers, in order. */
export interface ChoiceQuestion {
  type: 'choice';
  instructions: string;
  criteria: Record<string, string | null>;
}

/** Ordered-level question; criteria lists level descriptions, lowest first (index 0). */
export interface ScoreQuestion {
  type: 'score';
  instructions: string;
  criteria: string[];
}

export type Question = NoulQuestion | ChoiceQuestion | ScoreQuestion;
/** Question id → question. Key order is preserved on the wire. */
export type QuestionMap = Record<string, Question>;

export interface NoulAnswer {
  type: 'noul';
  /** P(true) in [0,1]. */
  noul: number;
}

export interface ChoiceAnswer {
  type: 'choice';
  choice: string;
  /** Provider-reported confidence in [0,1]; kept verbatim, never recomputed. */
  confidence: number;
  /** Option key → probability in [0,1]; sums to 1 within tolerance. */
  probabilities: Record<string, number>;
}

export interface ScoreAnswer {
  type: 'score';
  /** Expected level index (continuous) in [0, levels-1]. */
  score: number;
  confidence: number;
  /** Level index as string ("0", "1", …) → probability. */
  probabilities: Record<string, number>;
  /** Level index as string → level text. */
  legend: Record<string, string>;
}

export type Answer = NoulAnswer | ChoiceAnswer | ScoreAnswer;

/** Token usage reported by the provider (tokens). */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

/** Body of `POST {base}/v1/systemone`. */
export interface SystemOneRequest {
  state: unknown;
  questions: QuestionMap;
  model: string;
}

/** Validated response body of `POST {base}/v1/systemone`. */
export interface SystemOneResponse {
  model: string;
  usage: Usage;
  answers: Record<string, Answer>;
}

/** Estimated token counts of one request. */
export interface TokenEstimates {
  state: number;
  questions: number;
  longest_question: number;
}

/** How much of the supplied state was evaluated. Characters are UTF-16 units. */
export interface Coverage {
  complete: boolean;
  original_chars: number;
  evaluated_chars: number;
  estimated_tokens: TokenEstimates;
  estimator: 'chars/4';
}

/** Result of one judged request: validated answers plus how the state was fitted. */
export interface Judged {
  /** Validated answers, probabilities normalised over every offered option. */
  response: SystemOneResponse;
  /** Question id → the answer exactly as the provider sent it, for answers normalisation changed (ledger only). */
  rawAnswers?: Record<string, Answer>;
  coverage: Coverage;
  /** True when the state was cut to fit the budget, or the provider reported > 64 000 input tokens. */
  truncated: boolean;
}
