import { version } from '../../package.json';

/** MCP server name: the in-host endpoint, `jevcp serve`, and the MCP client name towards other servers. */
export const SERVER_NAME = 'jev-control-panel';

/** Package version from package.json (esbuild inlines only this field). */
export const PACKAGE_VERSION: string = version;
