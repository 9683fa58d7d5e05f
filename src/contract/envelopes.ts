/**
 * The two envelopes every response of v1 uses: `{ data }` on success and
 * `{ error, code }` on failure. These are firm in the reference, so a body
 * without them is a contract violation, whatever else it holds.
 */
import * as z from 'zod';

/** Error codes the reference documents, with the HTTP status each comes with. */
export const ErrorCodeStatus = {
  unauthorized: 401,
  no_subscription: 403,
  read_only: 403,
  not_found: 404,
  invalid: 422,
  no_number: 422,
  texting_inactive: 422,
  rate_limited: 429,
} as const;

export type ServiceErrorCode = keyof typeof ErrorCodeStatus;
export const ServiceErrorCodes = Object.keys(ErrorCodeStatus) as ServiceErrorCode[];

/**
 * One problem with a request. The reference only says `issues` "names the
 * offending field"; the simulator sends `{ field, message }` and the client
 * accepts any object (see docs/api-assumptions.md).
 */
export const Issue = z
  .looseObject({
    field: z
      .string()
      .meta({ description: 'the offending field: a query parameter, body field or header name' }),
    message: z.string(),
  })
  .meta({ id: 'Issue' });

export type Issue = z.infer<typeof Issue>;

export const ErrorBody = z
  .looseObject({
    error: z.string().meta({ description: 'human-readable message' }),
    code: z.union([z.enum(ServiceErrorCodes), z.string()]),
    issues: z.array(Issue).optional(),
  })
  .meta({ id: 'Error' });

export type ErrorBody = z.infer<typeof ErrorBody>;

/** The tolerant reading of an error body used by the client: issues of any shape. */
export const ErrorBodyLenient = z.looseObject({
  error: z.string(),
  code: z.string(),
  issues: z.array(z.unknown()).optional(),
});

export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.looseObject({ data });
}
