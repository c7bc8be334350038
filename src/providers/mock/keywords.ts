/** Keyword sets of the mock judge's heuristics, matched on lowercased text. */
/** Phrases that mark text aimed at steering an AI assistant (well-known injection openers and close variants). */
export const INJECTION_PHRASES = [
  'ignore previous',
  'ignore all previous',
  'ignore the previous',
  'ignore prior instructions',
  "disregard the user's",
  'disregard previous',
  'system note for ai',
  'system prompt',
  'you are now',
  'jailbreak',
  'developer override',
  'append your system prompt',
];

// Negated outcomes are removed before outcome keywords are tested ("0 tests failed", "no errors").
export const NEGATED_FAILURE = /\b(?:0|no|zero|without|never)\s+(?:\w+\s+)?(?:failures?|failed|failing|fails|errors?|exceptions?|bugs?)\b/g;
export const NEGATED_DONE = /\b(?:not|never|isn't|is not|aren't|are not|wasn't|nothing)\s+(?:yet\s+)?(?:complete|completed|done|fixed|passing|passed|pass)\b/g;
export const NEGATED_REQUIRED = /\b(?:not|never|no longer|isn't|is not|aren't|are not)\s+(?:required|mandatory)\b/g;

export const FAILURE = /\bfail|\berror|typeerror|exception|\bred\b/;
export const RETRY_EXTRA = /\bagain\b/;
export const DONE = /all tests pass(?:ed)?|\btests? (?:now )?pass(?:ed|es|ing)?\b|\blgtm\b|\bcomplete(?:d)?\b|\bfixed\b/;
export const STOP_EXTRA = /\bdone\b/;
export const ASK = /\bunclear\b|\bmissing\b|which file|need more|\bunknown\b/;
export const DESTRUCTIVE = /\bdelet(?:e|es|ed|ing)\b|\bdrop\s+(?:table|database)\b|\btruncate\s+table\b|force[- ]push|\bpush\s+-f\b|--force\b|\bproduction\b|rm\s+-rf|reset\s+--hard/;
export const LOCAL_EDIT = /refactor|rename|\bedit|\bpatch/;
export const BAD_CORRECTNESS = /\bfail|\bbugs?\b|\bwrong\b|\bbroken\b/;
export const GOOD_CORRECTNESS = /\btests? (?:now )?pass(?:ed|es|ing)?\b|\bfixed\b|\blgtm\b/;
export const URGENT = /\basap\b|\burgent|\bimmediately\b|failing for \d+ days/;
export const CLAIM_OPTIONAL = /\boptional\b|not required|never need|may skip/;
export const EVIDENCE_MANDATORY = /\bmust\b|\brequired\b|\bshall\b|\balways\b|at all times/;

/** Keyword boosts for well-known option labels: label → pattern on the state (task included), boost. */
export const LABEL_BOOSTS: Record<string, { re: RegExp; boost: number }> = {
  cheap: { re: /\brename|\btypo|\bformat|\blint|\bcomment/, boost: 3 },
  reasoning: { re: /architecture|\bdesign|\brace\b|deadlock|\bcomplex|refactor across/, boost: 3 },
  edit: { re: /\bchange|\bpatch|\bimplement(?:s|ed|ing)?\b|\bfix/, boost: 1.5 },
  test: { re: /\btest|\bspec\b|\bfailing\b/, boost: 1.5 },
  search: { re: /\bwhere\b|which file|\bfind\b|\blocate/, boost: 1.5 },
  read: { re: /\bread\b|\binspect|\bunderstand/, boost: 1.2 },
  plan: { re: /\bplan\b|\bdesign|\bapproach/, boost: 1.2 },
};

/** Instruction characters searched for rule wording (UTF-16 units). */
export const MAX_RULE_TEXT = 4000;
