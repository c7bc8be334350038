import type { ToolDefinition } from './types';
import { askNoulTool } from './ask-noul';
import { askChoiceTool } from './ask-choice';
import { askScoreTool } from './ask-score';
import { evaluatePolicyTool } from './evaluate-policy';
import { jevStepTool } from './jev-step';
import { jevCodingLoopTool } from './jev-coding-loop';
import { jevToolRouteTool } from './jev-tool-route';
import { jevReviewTool } from './jev-review';
import { jevVerifyTool } from './jev-verify';
import { jevGateTool } from './jev-gate';
import { jevScreenTool } from './jev-screen';
import { jevRankTool } from './jev-rank';
import { jevEvaluateTool } from './jev-evaluate';
import { jevPermitTool } from './jev-permit';

/** All 14 judgment tools in discovery order: judgevet first, then the jev tools. */
export const ALL_TOOLS: ToolDefinition[] = [
  askNoulTool,
  askChoiceTool,
  askScoreTool,
  evaluatePolicyTool,
  jevStepTool,
  jevCodingLoopTool,
  jevToolRouteTool,
  jevReviewTool,
  jevVerifyTool,
  jevGateTool,
  jevScreenTool,
  jevRankTool,
  jevEvaluateTool,
  jevPermitTool,
];
