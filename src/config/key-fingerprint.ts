/**
 * A short, one-way name for an API key: which outbox file is the key's, which
 * texts it confirmed, whether a key read again is the one the shop refused.
 * The key itself is never written anywhere; this hash of it (with a
 * shop-inbox prefix, so it matches no other system's hash of the same key)
 * can be, and tells nothing about the key.
 */
import { createHash } from 'node:crypto';

export function keyFingerprint(apiKey: string): string {
  return createHash('sha256')
    .update('shop-inbox key fingerprint v1\u0000')
    .update(apiKey)
    .digest('hex')
    .slice(0, 32);
}
