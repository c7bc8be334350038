import { FileOAuthStore, defaultOAuthDir } from '../registry/oauth/file-store';
import type { OAuthHost, SignInInteraction } from '../registry/oauth/sign-in';
import { openInBrowser } from './browser';
import type { CliIO } from './io';
import { safeText } from './safe-text';

/**
 * OAuth as the CLI does it: tokens in files readable by the user alone (registry/oauth/file-store.ts,
 * `$JEV_OAUTH_DIR` or `~/.config/jevcp/oauth`), the browser step through openInBrowser with a loopback
 * redirect, and `jevcp servers login NAME` as the way to sign in. Other commands never open a browser:
 * a server that needs a sign-in is reported with that hint.
 */

/** The hint shown for a server that needs a sign-in. */
export function cliSignInHint(server: string): string {
  return `run "jevcp servers login ${server}"`;
}

/** The browser step: says on stderr which URL is opened (so it can be opened by hand), then opens it. */
export function cliSignInInteraction(io: Pick<CliIO, 'stderr' | 'env'>): SignInInteraction {
  return {
    async openAuthorizationUrl(url, server) {
      io.stderr.write(safeText(`jevcp: sign in to ${server} in your browser: ${url.href}\n`));
      if (!(await openInBrowser(url.href, io.env))) io.stderr.write('jevcp: could not start a browser (set BROWSER); open the URL above yourself\n');
    },
  };
}

/** The CLI's OAuth host; `interactive` lets servers open the browser step themselves (sign-in commands). */
export function cliOAuthHost(io: Pick<CliIO, 'stderr' | 'env'>, interactive = false): OAuthHost {
  return {
    store: new FileOAuthStore(defaultOAuthDir(io.env)),
    signInHint: cliSignInHint,
    env: io.env,
    ...(interactive ? { interaction: cliSignInInteraction(io) } : {}),
  };
}
