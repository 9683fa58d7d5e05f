import * as z from 'zod';

/**
 * A value the reference lists only as "observed". The known values are kept for
 * documentation and editor hints; any other string is accepted, because the
 * reference says more values exist that it does not show.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(observed: T) {
  return z.union([z.enum(observed), z.string()]);
}

/**
 * An ISO 8601 UTC timestamp. Parsed as a plain string so that one odd value from
 * the server never throws away a whole response; the UI decides how to show it.
 */
export const timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601, UTC' });

export const phoneNumber = z.string().meta({ description: 'phone number, E.164 where known' });

export const id = z.string().min(1);
