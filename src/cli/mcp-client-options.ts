import { fixedRoots } from '../registry/client-features';
import type { ConnectionOptions } from '../registry/connection';
import { cliElicitation } from './elicit-prompt';
import type { CliIO } from './io';
import { cliOAuthHost } from './oauth-host';

/**
 * What the CLI's MCP client offers the servers it connects to: OAuth (file token store; the browser
 * step only when `interactive`, i.e. `jevcp servers login`), elicitation (asked in a terminal, else
 * declined) and one root, the working folder.
 */
export function cliConnectionOptions(io: CliIO, options: { interactive?: boolean } = {}): ConnectionOptions {
  return {
    oauth: cliOAuthHost(io, options.interactive === true),
    elicitation: cliElicitation(io),
    roots: fixedRoots(io.cwd),
  };
}
