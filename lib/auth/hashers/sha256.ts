import { createHash } from "node:crypto";
import type { Hasher } from "./hasher";
import { equalDigests } from "./equal-secrets";

const SALTED = /^sha256\$([^$]{0,128})\$([0-9a-f]{64})$/;

/** A salted SHA-256: `sha256$<salt>$<hex of sha256(salt + password)>`. Fast, so upgraded at the first sign-in. */
export const sha256Hasher: Hasher = {
  name: "sha256",
  recognizes: (digest) => digest.startsWith("sha256$"),
  normalize(digest) {
    const lower = digest.replace(/\$([0-9A-Fa-f]{64})$/, (_, hex: string) => `$${hex.toLowerCase()}`);
    if (!SALTED.test(lower)) return { ok: false, detail: "must be sha256$<salt (no $, at most 128 characters)>$<64 hex digits of sha256(salt + password)>" };
    return { ok: true, stored: lower };
  },
  async verify(stored, password) {
    const match = SALTED.exec(stored);
    if (!match) return false;
    const computed = createHash("sha256").update(`${match[1]}${password}`, "utf8").digest();
    return equalDigests(computed, Buffer.from(match[2] ?? "", "hex"));
  },
  needsRehash: () => true,
};
