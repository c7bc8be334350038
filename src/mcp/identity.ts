import { version } from '../../package.json';

/** MCP server name (DESIGN "Names"). */
export const SERVER_NAME = 'jev-control-panel';

/** Package version from package.json (esbuild inlines only this field). */
export const PACKAGE_VERSION: string = version;
