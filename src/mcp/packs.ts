import type { QuestionMap } from '../judgment/types';
import { codingLoopQuestions } from '../tools/jev-coding-loop';
import { packGate } from '../tools/jev-gate';
import { packRank, prepareCandidates } from '../tools/jev-rank';
import { packReview } from '../tools/jev-review';
import { packScreen } from '../tools/jev-screen';
import { stepQuestions } from '../tools/jev-step';
import { toolRouteQuestions } from '../tools/jev-tool-route';
import { packVerify, VERIFY_CRITERIA } from '../tools/jev-verify';

/** Pack ids in resource order. */
export const PACK_IDS = ['coding-loop', 'tool-route', 'step', 'review', 'verify', 'screen', 'rank', 'gate'] as const;
export type PackId = (typeof PACK_IDS)[number];

/** One `jev://packs/<id>` resource; `body()` builds the JSON shown (question maps come from the tool modules). */
export interface PackResource {
  id: PackId;
  uri: string;
  name: string;
  title: string;
  description: string;
  body(): unknown;
}

/** Question-map builders, one per pack, pointed at the tools' own pack functions. */
export interface PackSources {
  codingLoop(): QuestionMap;
  toolRoute(eligibleCount: number): QuestionMap;
  step(eligibleCount: number): QuestionMap;
  review(): QuestionMap;
  verify(claimCount: number): QuestionMap;
  screen(hasPurpose: boolean): QuestionMap;
  rank(query: string, candidates: { id: string; text: string }[]): QuestionMap;
  gate(claimCount: number): QuestionMap;
}

/** The tools' own pack functions (the resources show exactly what the tools ask). */
export const TOOL_PACKS: PackSources = {
  codingLoop: () => codingLoopQuestions(),
  toolRoute: (n) => toolRouteQuestions(n),
  step: (n) => stepQuestions(n),
  review: () => packReview(),
  verify: (n) => packVerify(n),
  screen: (hasPurpose) => packScreen(hasPurpose),
  rank: (query, candidates) => packRank(query, prepareCandidates(candidates).options),
  gate: (n) => packGate(n),
};

/** Example rank inputs shown in the rank pack (two short documentation snippets). */
const RANK_EXAMPLE = {
  query: 'how do I rotate API keys',
  candidates: [
    { id: 'auth', text: 'Authentication: create, rotate and revoke API keys from the account settings page.' },
    { id: 'billing', text: 'Billing: download invoices and change the payment method.' },
  ],
};

/** Builds the 8 pack resources from `sources` (bodies are computed on read, so they track the tools). */
export function buildPackResources(sources: PackSources): PackResource[] {
  const bodies: Record<PackId, { description: string; body: () => unknown }> = {
    'coding-loop': {
      description: 'Questions of jev_coding_loop: next step, model tier, focus, risk and four yes/no signals.',
      body: () => sources.codingLoop(),
    },
    'tool-route': {
      description: 'Questions of jev_tool_route, shown for two eligible prepared calls.',
      body: () => ({
        note:
          'One choice over private labels none, call_0…call_{n-1} plus one independent suitable_i yes/no per eligible call. ' +
          'Only eligible calls are asked about; the provider sees a redacted projection, never the arguments; ' +
          'dispatch also needs complete context, confident concentrated answers and a read_only or local_write effect.',
        example: sources.toolRoute(2),
      }),
    },
    step: {
      description: 'Questions of jev_step (coding-loop plus tool-route in one request), shown for two eligible calls.',
      body: () => ({
        note:
          'jev_step makes exactly one request: the coding-loop questions plus, when any prepared call is eligible, ' +
          'the tool-route questions for the eligible calls. With no eligible call only the coding-loop questions are asked.',
        example: sources.step(2),
      }),
    },
    review: {
      description: 'Questions of jev_review: four 0–2 scores and a safe-to-apply yes/no.',
      body: () => sources.review(),
    },
    verify: {
      description: 'Questions of jev_verify, shown for one claim.',
      body: () => ({
        note: 'One choice per claim (ids claim_0, claim_1, …), judged only from the supplied evidence.',
        criteria: VERIFY_CRITERIA,
        example: sources.verify(1),
      }),
    },
    screen: {
      description: 'Questions of jev_screen with a purpose given (relevance is asked only then).',
      body: () => sources.screen(true),
    },
    rank: {
      description: 'Questions of jev_rank, shown for a two-candidate example.',
      body: () => ({
        note:
          'One choice over private candidate labels (at most 250 per request) plus an exists yes/no; the state lists each ' +
          'candidate as {label, id, text}, ids and texts cut to 2 000 characters; larger lists run as a tournament of such requests.',
        example: sources.rank(RANK_EXAMPLE.query, RANK_EXAMPLE.candidates),
      }),
    },
    gate: {
      description: 'Questions of jev_gate (review plus one choice per claim in one request), shown for one claim.',
      body: () => ({
        note:
          'One request: the review questions plus one choice per claim. Only the evidence field supports a claim; ' +
          'auto needs complete context, an accepted review and every claim confidently verified.',
        example: sources.gate(1),
      }),
    },
  };
  return PACK_IDS.map((id) => ({
    id,
    uri: `jev://packs/${id}`,
    name: `pack-${id}`,
    title: `Jev pack ${id}`,
    description: bodies[id].description,
    body: bodies[id].body,
  }));
}

/** The 8 `jev://packs/*` resources of the server. */
export const PACK_RESOURCES: readonly PackResource[] = buildPackResources(TOOL_PACKS);
