import type * as vscode from 'vscode';
import type { ConnectionOptions } from '../../registry/connection';
import { editorElicitation } from './elicitation-ui';
import { editorOAuthHost } from './oauth';
import { WorkspaceRoots } from './workspace-roots';

/**
 * What the editor's MCP client offers the servers it connects to: OAuth (SecretStorage, sign-in on
 * command), elicitation (notification + quick picks), and the workspace folders as roots (trusted only).
 * One per runtime; dispose() stops watching the folders.
 */
export function editorMcpClient(context: vscode.ExtensionContext): { options: Pick<ConnectionOptions, 'oauth' | 'elicitation' | 'roots'>; dispose(): void } {
  const roots = new WorkspaceRoots();
  return {
    options: { oauth: editorOAuthHost(context.secrets), elicitation: editorElicitation(), roots },
    dispose: () => roots.dispose(),
  };
}
