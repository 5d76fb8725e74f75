/**
 * The digest formats `passwordDigest` accepts, with an example of each, for the
 * OpenAPI document (CONTRACT §5, import). Each example is a real digest of the
 * password `password` (the scrypt one: Firebase's published test vector, `user1password`). The hasher registry (lib/auth/password-hasher.ts)
 * is what checks them.
 */
export const PASSWORD_DIGEST_FORMATS = [
  ["bcrypt", "modular crypt, `$2a$`, `$2b$` or `$2y$`, cost 4-12 (each sign-in attempt pays it)", "$2b$10$a4JZGj76grjPacZt.meOgue7JkjhceryB57d89SXYF7IqERgdUTkG"],
  ["argon2i", "PHC string, v=19, m ≤ 65536, t ≤ 4, p ≤ 4", "$argon2i$v=19$m=4096,t=3,p=1$0P+RoE5I7DNvzA2srS9K/A$ogiXVj4F+MGpPUpYrvuSAOxX201WGDd520Rfh0vBnmE"],
  ["argon2id", "PHC string, v=19, same bounds", "$argon2id$v=19$m=19456,t=2,p=1$SQ9ZTxpwEcgC/75xk0b9+g$LN1+dQxQ0Q1+P9I/aJ3P+ckbsVa5ueuRudkxi/KPxRY"],
  ["pbkdf2_sha256", "Django: `pbkdf2_sha256$<iterations ≤ 1,200,000>$<salt>$<base64 of 32 bytes>`", "pbkdf2_sha256$870000$k3wmmC0rWMGmJTxsZnFabc$xbmVUQzTZ33qpXz452M5KGrq4xMoB1+oO0lFECw3zj8="],
  ["scrypt_firebase", "the Firebase export's base64 `passwordHash` (as long as the signer key), with `passwordSalt` and the project's `hasherConfig.scrypt_firebase`", "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="],
  ["sha256", "`sha256$<salt>$<64 hex digits of sha256(salt + password)>`", "sha256$a1b2c3$07dfce723055b7d9d2aefce652e2877f9a33fc4457f27b1b600489b8c53f8dab"],
] as const;

export const passwordDigestDescription = [
  "An existing password digest to keep (no re-hashing at import): the user signs in with their old password, and that sign-in replaces the digest with argon2id. Formats by `passwordHasher`:",
  ...PASSWORD_DIGEST_FORMATS.map(([hasher, format, example]) => `- \`${hasher}\`: ${format}; e.g. \`${example}\``),
  "A digest that does not match its hasher's format is refused (400, or that line's error in an import).",
].join("\n");
