/**
 * Threshold ranges as monitoring plugins take them (the Nagios plugin
 * guidelines, also Icinga's, Naemon's and Checkmk's):
 *
 *   10      alert when the value is below 0 or above 10
 *   10:     alert below 10
 *   ~:10    alert above 10
 *   10:20   alert outside 10..20
 *   @10:20  alert inside 10..20
 *
 * Durations may carry a unit (90s, 15m, 2h) and are kept in seconds. Written
 * here because no npm package for it is kept up; it is small and pure, and
 * property-tested.
 */

export interface NagiosRange {
  start: number;
  end: number;
  /** `@`: alert when the value is inside start..end, not outside. */
  inside: boolean;
}

export class ThresholdError extends Error {
  override name = 'ThresholdError';
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600 };

function number(text: string, durations: boolean, whole: string): number {
  const match = /^(-?\d+(?:\.\d+)?)([smh]?)$/.exec(text);
  if (!match || (match[2] && !durations))
    throw new ThresholdError(
      `"${whole}" is not a threshold range (10, 10:, ~:10, 10:20 or @10:20${durations ? '; ages may end in s, m or h' : ''})`,
    );
  return Number(match[1]) * (UNIT_SECONDS[match[2] || 's'] ?? 1);
}

export function parseRange(text: string, options: { durations?: boolean } = {}): NagiosRange {
  const durations = options.durations === true;
  const inside = text.startsWith('@');
  const body = inside ? text.slice(1) : text;
  const colon = body.indexOf(':');
  const startText = colon === -1 ? '0' : body.slice(0, colon);
  const endText = colon === -1 ? body : body.slice(colon + 1);
  const start = startText === '~' ? Number.NEGATIVE_INFINITY : number(startText, durations, text);
  const end = endText === '' && colon !== -1 ? Number.POSITIVE_INFINITY : number(endText, durations, text);
  if (start > end) throw new ThresholdError(`"${text}": its start is above its end`);
  return { start, end, inside };
}

/** Whether the value is one to alert on. */
export function alerts(range: NagiosRange, value: number): boolean {
  const within = value >= range.start && value <= range.end;
  return range.inside ? within : !within;
}

/** The range as performance data writes it (durations in seconds, the value's unit). */
export function formatRange(range: NagiosRange): string {
  const start = range.start === Number.NEGATIVE_INFINITY ? '~' : String(range.start);
  const end = range.end === Number.POSITIVE_INFINITY ? '' : String(range.end);
  const plain = !range.inside && range.start === 0 && range.end !== Number.POSITIVE_INFINITY;
  return `${range.inside ? '@' : ''}${plain ? end : `${start}:${end}`}`;
}
