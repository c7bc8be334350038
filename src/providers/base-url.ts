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
      throw configError(`${name} may use plain http only for localhost, 127.0.0.1 or [::1]; use https (the key would travel in the clear).`);
    }
  } else if (url.protocol !== 'https:') {
    throw configError(`${name} has an unsupported scheme ${JSON.stringify(url.protocol)}; use https.`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return url.origin + path;
}
