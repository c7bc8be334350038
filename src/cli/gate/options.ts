/** The options and the wording the CLI's gates share. */
import type { GateWording } from '../../gate/request';

/** The gate's notes and errors in CLI terms; `messageFile` is the --message-file value as given. */
export function cliGateWording(messageFile?: string, hook = false): GateWording {
  return {
    // In hook mode the line starts with `jev gate: NOT passed —` already.
    errorPrefix: hook ? '' : 'gate: ',
    messageSource: `in ${messageFile ?? 'the message file'}`,
    emptyMessageRemedy: 'write a message, or commit with --no-verify to skip the gate',
    messageOption: '--message-file FILE',
    claimOption: '--claim',
    evidenceOption: '--evidence-cmd',
  };
}

/** Options shared by the staged and range gates. */
export interface GateOptions {
  json: boolean;
  /** `--format sarif` (range gate only): stdout is a SARIF 2.1.0 log, the human report goes to stderr. */
  sarif?: boolean;
  failOpen: boolean;
  allowMock: boolean;
  claims: string[];
  evidenceCommand?: string;
  evidenceTimeoutMs: number;
}

