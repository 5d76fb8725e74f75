import bcrypt from "bcryptjs";
import type { Hasher } from "./hasher";

const MODULAR_CRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
/**
 * bcryptjs is JavaScript on the server's own thread: cost 12 takes about 250 ms, and
 * every attempt on an imported user (a wrong password too, until the first right one
 * upgrades the digest) pays it, so a higher cost would let anyone who knows an
 * imported address slow the whole server.
 */
const MAX_COST = 12;

/** bcrypt in its modular crypt form `$2a$`/`$2b$`/`$2y$` (PHP's `$2y$` is the same algorithm). */
export const bcryptHasher: Hasher = {
  name: "bcrypt",
  recognizes: (digest) => /^\$2[aby]\$/.test(digest),
  normalize(digest) {
    const match = MODULAR_CRYPT.exec(digest);
    if (!match) return { ok: false, detail: "must be a bcrypt modular crypt string: $2a$, $2b$ or $2y$, a two-digit cost, then 53 characters of salt and hash" };
    const cost = Number(match[1]);
    if (cost < 4 || cost > MAX_COST) return { ok: false, detail: `has cost ${cost}; bcrypt digests of cost 4 to ${MAX_COST} are accepted` };
    return { ok: true, stored: digest };
  },
  // bcryptjs compares the recomputed digest in constant time.
  verify: (stored, password) => bcrypt.compare(password, stored).catch(() => false),
  needsRehash: () => true,
};
