import { pbkdf2 } from "node:crypto";
import { promisify } from "node:util";
import { BASE64, type Hasher } from "./hasher";
import { equalDigests } from "./equal-secrets";

const pbkdf2Async = promisify(pbkdf2);
const DJANGO = /^pbkdf2_sha256\$(\d{1,8})\$([^$]{1,128})\$([A-Za-z0-9+/]{43}=)$/;
/** Django 5.2 uses 1,000,000; each attempt holds one of the shared hashing threads for its length. */
const MAX_ITERATIONS = 1_200_000;

/** Django's `pbkdf2_sha256$<iterations>$<salt>$<base64 of the 32-byte PBKDF2-HMAC-SHA256>`. */
export const pbkdf2Sha256Hasher: Hasher = {
  name: "pbkdf2_sha256",
  recognizes: (digest) => digest.startsWith("pbkdf2_sha256$"),
  normalize(digest) {
    const match = DJANGO.exec(digest);
    if (!match || !BASE64.test(match[3] ?? "")) {
      return { ok: false, detail: "must be Django's form: pbkdf2_sha256$<iterations>$<salt>$<base64 of 32 bytes>" };
    }
    const iterations = Number(match[1]);
    if (iterations < 1 || iterations > MAX_ITERATIONS) return { ok: false, detail: `has ${iterations} iterations; 1 to ${MAX_ITERATIONS} are accepted` };
    return { ok: true, stored: digest };
  },
  async verify(stored, password) {
    const match = DJANGO.exec(stored);
    if (!match) return false;
    const [, iterations, salt, expected] = match as unknown as [string, string, string, string];
    const computed = await pbkdf2Async(password, salt, Number(iterations), 32, "sha256");
    return equalDigests(computed, Buffer.from(expected, "base64"));
  },
  needsRehash: () => true,
};
