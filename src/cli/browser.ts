import { spawn } from 'node:child_process';
import { splitCommandLine } from '../registry/servers';

/**
 * Opening a URL in the user's browser from the CLI. `BROWSER` wins when set (as Python's webbrowser and
 * many CLIs read it): a `:`-separated list of command lines (`;` on Windows), each tried in turn, `%s`
 * replaced by the URL or the URL appended. Else the system opener: `open` (macOS), `rundll32
 * url.dll,FileProtocolHandler` (Windows: `cmd /c start` would split the URL at its `&`), `xdg-open` (elsewhere). Scripts and tests set BROWSER to a program that follows the
 * authorization server's redirect, so the browser step completes headlessly.
 */

/** The command lines to try for `url`, first first. Throws JevError INVALID_INPUT for a BROWSER entry that does not parse. */
export function browserCommands(url: string, env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): string[][] {
  const browser = env.BROWSER?.trim();
  if (browser) {
    return browser
      .split(platform === 'win32' ? ';' : ':')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => {
        const words = splitCommandLine(entry);
        return words.some((w) => w.includes('%s')) ? words.map((w) => w.replaceAll('%s', url)) : [...words, url];
      });
  }
  if (platform === 'darwin') return [['open', url]];
  if (platform === 'win32') return [['rundll32', 'url.dll,FileProtocolHandler', url]];
  return [['xdg-open', url]];
}

/**
 * Starts the first command of browserCommands that can be spawned (detached, output ignored; the
 * browser is not waited for). Resolves true when one started, false when none could (the caller shows
 * the URL for the user to open).
 */
export async function openInBrowser(url: string, env: Record<string, string | undefined>): Promise<boolean> {
  let commands: string[][];
  try {
    commands = browserCommands(url, env);
  } catch {
    return false;
  }
  for (const [command, ...args] of commands) {
    const started = await new Promise<boolean>((resolve) => {
      const child = spawn(command, args, { detached: true, stdio: 'ignore', env: env as NodeJS.ProcessEnv, windowsHide: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    });
    if (started) return true;
  }
  return false;
}
