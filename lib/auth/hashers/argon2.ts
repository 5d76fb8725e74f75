import { hash, verify } from "@node-rs/argon2";
import type { Hasher } from "./hasher";

/** `Algorithm.Argon2id`; the package exports a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;

/** OWASP's argon2id baseline: m=19 MiB, t=2, p=1. Runs on the libuv pool, off the event loop. */
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

const PHC = /^\$(argon2id|argon2i)\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,2})\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}$/;
/** Bounds on imported parameters: a sign-in must not be made to cost 4 GiB or a minute. */
/** Bounds on imported parameters: each sign-in attempt on such a user pays them (64 MiB, t 4: a few hundred ms at most). */
const MAX_MEMORY_KIB = 65_536;
const MAX_TIME = 4;
const MAX_PARALLELISM = 4;

export function argon2idHash(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

function argon2Hasher(variant: "argon2i" | "argon2id"): Hasher {
  return {
    name: variant,
    recognizes: (digest) => digest.startsWith(`$${variant}$`),
    normalize(digest) {
      const match = PHC.exec(digest);
      if (!match || match[1] !== variant) {
        return { ok: false, detail: `must be a PHC string: $${variant}$v=19$m=<KiB>,t=<passes>,p=<lanes>$<base64 salt>$<base64 hash>` };
      }
      const [m, t, p] = [Number(match[2]), Number(match[3]), Number(match[4])];
      if (m < 8 * p || m > MAX_MEMORY_KIB || t < 1 || t > MAX_TIME || p < 1 || p > MAX_PARALLELISM) {
        return { ok: false, detail: `has parameters out of bounds (m at most ${MAX_MEMORY_KIB}, t 1-${MAX_TIME}, p 1-${MAX_PARALLELISM})` };
      }
      return { ok: true, stored: digest };
    },
    verify: (stored, password) => verify(stored, password).catch(() => false),
    needsRehash(stored) {
      if (variant !== "argon2id") return true;
      const match = PHC.exec(stored);
      const { memoryCost, timeCost, parallelism } = ARGON2_OPTIONS;
      return !match || Number(match[2]) !== memoryCost || Number(match[3]) !== timeCost || Number(match[4]) !== parallelism;
    },
  };
}

export const argon2idHasher = argon2Hasher("argon2id");
export const argon2iHasher = argon2Hasher("argon2i");
