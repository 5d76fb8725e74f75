import { timingSafeEqual } from "node:crypto";

/** Constant-time equality of a recomputed digest and the stored one (lengths are public: the format fixes them). */
export function equalDigests(computed: Buffer, stored: Buffer): boolean {
  return computed.length === stored.length && timingSafeEqual(computed, stored);
}
