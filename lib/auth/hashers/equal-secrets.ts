import { timingSafeEqual } from "node:crypto";

/**
 * Constant-time equality of a recomputed digest and the stored one (lengths are
 * public: the format fixes them). Two empty digests are never equal: an empty stored
 * digest is a broken one, and it must not accept every password.
 */
export function equalDigests(computed: Buffer, stored: Buffer): boolean {
  return stored.length > 0 && computed.length === stored.length && timingSafeEqual(computed, stored);
}
