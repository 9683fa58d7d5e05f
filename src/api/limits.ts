/**
 * How much of what a server sends the client is willing to hold. A hostile or
 * broken server (or a proxy in front of it) can send a body that never ends,
 * or a 50 MB answer; none of that may cost the inbox its memory. Bodies are
 * cut while they are read (see read-body.ts).
 */

/** Largest answer read. The biggest real answer (a 100-message thread, the OpenAPI document) is far smaller. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
