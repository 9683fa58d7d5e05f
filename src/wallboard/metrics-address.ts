/**
 * Where --metrics listens: a loopback address unless the command line says
 * otherwise explicitly, since the metrics show a shop's business figures.
 */
import { isIP } from 'node:net';

/** The port when only a host, or nothing, is given: the one the Prometheus exporters' list leaves free near node's. */
export const DEFAULT_METRICS_PORT = 9464;

export class MetricsAddressError extends Error {
  override name = 'MetricsAddressError';
}

export interface MetricsAddress {
  host: string;
  port: number;
}

/** Whether `host` names this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/**
 * "9464", ":9464", "127.0.0.1:9464", "[::1]:9464", "localhost" → host and port. A host that is not
 * loopback is refused unless `allowPublic` (--metrics-public).
 */
export function parseMetricsAddress(text: string, allowPublic: boolean): MetricsAddress {
  const raw = text.trim();
  let host = '127.0.0.1';
  let portText = String(DEFAULT_METRICS_PORT);
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(raw);
  if (bracketed) {
    host = bracketed[1] ?? host;
    if (bracketed[2]) portText = bracketed[2];
  } else if (/^\d+$/.test(raw)) portText = raw;
  else if (raw.indexOf(':') !== raw.lastIndexOf(':'))
    throw new MetricsAddressError(
      `--metrics ${raw}: write an IPv6 address in brackets, [::1]:${DEFAULT_METRICS_PORT}`,
    );
  else if (raw.startsWith(':')) portText = raw.slice(1);
  else {
    const colon = raw.lastIndexOf(':');
    host = colon >= 0 ? raw.slice(0, colon) : raw;
    if (colon >= 0) portText = raw.slice(colon + 1);
  }
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535)
    throw new MetricsAddressError(`--metrics ${raw}: the port must be a number from 0 to 65535`);
  if (host === '' || !(isIP(host) || /^[A-Za-z0-9.-]+$/.test(host)))
    throw new MetricsAddressError(`--metrics ${raw}: not a host name or IP address`);
  if (!allowPublic && !isLoopbackHost(host))
    throw new MetricsAddressError(
      `--metrics ${raw}: ${host} is not a loopback address, and the metrics show the shop's business figures; ` +
        'add --metrics-public to serve them there all the same',
    );
  return { host, port };
}
