/**
 * The base URL of a shop's API: `https://host/…/v1`. Plain http is allowed only
 * for loopback hosts (the simulator, a local tunnel), because the bearer key
 * would otherwise cross the network in clear text.
 */
export class BaseUrlError extends Error {
  override name = 'BaseUrlError';
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Returns the base URL without a trailing slash, or throws BaseUrlError saying what is wrong. */
export function parseBaseUrl(input: string): string {
  const text = input.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BaseUrlError(`the base URL "${text}" is not a URL; expected https://host/…/v1`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BaseUrlError(`the base URL must use https (got ${url.protocol.replace(':', '')})`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new BaseUrlError(
      `refusing plain http to ${url.hostname}: the API key would cross the network unencrypted; use https (http is allowed only for loopback hosts such as 127.0.0.1)`,
    );
  }
  if (url.username || url.password) {
    throw new BaseUrlError('the base URL must not contain a user name or password');
  }
  if (url.search || url.hash) {
    throw new BaseUrlError('the base URL must not contain a query string or fragment');
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!/(^|\/)v1$/.test(path)) {
    throw new BaseUrlError(
      `the base URL must end with /v1, the API version this tool speaks (got ${url.pathname})`,
    );
  }
  return `${url.origin}${path}`;
}
