import parserFix from '../../examples/parser-fix.jev.json';

/**
 * The input of "Jev: Run Sample Step": the repository's examples/parser-fix.jev.json (a failing test, three
 * prepared tool calls, one of them destructive and unauthorized), bundled because the .vsix carries no
 * examples folder. One source, so the CLI demo, the README and the panel show the same step.
 */
const { tool, ...input } = parserFix as { tool: string } & Record<string, unknown>;

export const SAMPLE_STEP_TOOL = tool;

/** jev_step arguments of the sample step. */
export const SAMPLE_STEP_INPUT: Readonly<Record<string, unknown>> = Object.freeze(input);
