import { configError } from '../judgment/errors';

/** Default System One API root (TypeSafe's hosted Jev). */
export const DEFAULT_BASE_URL = 'https://api.typesafe.ai';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True for hosts that plain http may reach: localhost, 127.0.0.0/8 (dotted, not obfuscated), [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  if (LOOPBACK.has(hostname)) return true;
  return /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(hostname) && !isObfuscatedHost(hostname);
}

/** Numeric forms that hide the real address: all digits, hex, short dotted, leading zeros. */
function isObfuscatedHost(host: string): boolean {
  if (host.startsWith('[')) return false;
  if (/^\d+$/.test(host) || /0x/i.test(host)) return true;
  if (/^[\d.]+$/.test(host)) {
    const labels = host.split('.');
    if (labels.length !== 4) return true;
    return labels.some((l) => l.length > 1 && l.startsWith('0'));
  }
  return false;
}

/**
 * Validates a System One base URL and returns it as origin + path without trailing slashes.
 * Rules: https anywhere; plain http only for loopback hosts; no userinfo,
 * query or fragment; no obfuscated numeric hosts. `name` is the setting named in the error.
 * Throws JevError CONFIG_ERROR. The URL itself is never echoed (it may carry secrets).
 */
export function normalizeBaseUrl(raw: string, name = 'JEV_BASE_URL'): string {
  const text = raw.trim();
  if (text === '') return DEFAULT_BASE_URL;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw configError(`${name} is not a valid URL.`);
  }
  if (url.username || url.password || text.includes('@')) throw configError(`${name} must not contain credentials.`);
  if (url.search || text.includes('?') || url.hash || text.includes('#')) {
    throw configError(`${name} must not contain a query or fragment.`);
  }
  const authority = text.slice(text.indexOf('//') + 2).split('/')[0]!.toLowerCase();
  const hostWritten = authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.split(':')[0]!;
  if (hostWritten !== url.hostname || isObfuscatedHost(url.hostname)) {
    throw configError(`${name} uses an obfuscated host; write the host name or dotted address plainly.`);
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) {
      throw configError(`${name} may use plain http only for localhost, 127.0.0.0/8 (e.g. 127.0.0.1) or [::1]; use https (the key would travel in the clear).`);
    }
  } else if (url.protocol !== 'https:') {
    throw configError(`${name} has an unsupported scheme ${JSON.stringify(url.protocol)}; use https.`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return url.origin + path;
}

/** Ports the Fetch standard's "bad port" list makes fetch refuse (the same list as Node's undici). */
export const FETCH_BLOCKED_PORTS: ReadonlySet<string> = new Set(
  (
    '1 7 9 11 13 15 17 19 20 21 22 23 25 37 42 43 53 69 77 79 87 95 101 102 103 104 109 110 111 113 115 117 119 123 ' +
    '135 137 139 143 161 179 389 427 465 512 513 514 515 526 530 531 532 540 548 554 556 563 587 601 636 989 990 ' +
    '993 995 1719 1720 1723 2049 3659 4045 4190 5060 5061 6000 6566 6665 6666 6667 6668 6669 6679 6697 10080'
  ).split(' '),
);

/**
 * Refuses a base URL (already normalised) whose port fetch would refuse or no server can listen on (0), so
 * the mistake is a configuration error when the configuration is read, not an API_ERROR on the first
 * request. `name` is the variable named. Throws JevError CONFIG_ERROR.
 */
export function assertFetchablePort(baseUrl: string, name = 'JEV_BASE_URL'): void {
  const port = new URL(baseUrl).port;
  if (port === '0') throw configError(`${name} uses port 0, which nothing can be reached on; use the port the server listens on.`);
  if (FETCH_BLOCKED_PORTS.has(port)) {
    throw configError(`${name} uses port ${port}, which fetch refuses (a "bad port" in the Fetch standard, e.g. 9 or 22); use another port.`);
  }
}
