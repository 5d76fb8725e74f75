/**
 * The digest formats `passwordDigest` accepts, with an example of each, for the
 * OpenAPI document (CONTRACT §5, import). The hasher registry (lib/auth/password-hasher.ts)
 * is what checks them.
 */
export const PASSWORD_DIGEST_FORMATS = [
  ["bcrypt", "modular crypt, `$2a$`, `$2b$` or `$2y$`, cost 4-14", "$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"],
  ["argon2i", "PHC string, v=19, m ≤ 262144, t ≤ 10, p ≤ 16", "$argon2i$v=19$m=4096,t=3,p=1$c29tZXNhbHQxMjM$iWh06vD8Fy27wf9npn6FXWiCX4K6pW6Ue1Bnzz07Z8A"],
  ["argon2id", "PHC string, v=19, same bounds", "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQxMjM$2ZzqtN6k8Ai8Xhcv6WmRcAzSx5rvHqnqR3f5EgyfyNw"],
  ["pbkdf2_sha256", "Django: `pbkdf2_sha256$<iterations ≤ 2,000,000>$<salt>$<base64 of 32 bytes>`", "pbkdf2_sha256$870000$k3wmmC0rWMGmJTxsZnFabc$yTVfJiUo4R0QaeNbfa2vBRGQp0ZAuP2ua1J/1RDWQy0="],
  ["scrypt_firebase", "the Firebase export's base64 `passwordHash`, with `passwordSalt` and the project's `hasherConfig.scrypt_firebase`", "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="],
  ["sha256", "`sha256$<salt>$<64 hex digits of sha256(salt + password)>`", "sha256$a1b2c3$0b1f58ee5dcfe8d9d2d3bd4cd25f1ef9c8eabcd6f1e3c8f3c4de1ab8a5ad1a53"],
] as const;

export const passwordDigestDescription = [
  "An existing password digest to keep (no re-hashing at import): the user signs in with their old password, and that sign-in replaces the digest with argon2id. Formats by `passwordHasher`:",
  ...PASSWORD_DIGEST_FORMATS.map(([hasher, format, example]) => `- \`${hasher}\`: ${format}; e.g. \`${example}\``),
  "A digest that does not match its hasher's format is refused (400, or that line's error in an import).",
].join("\n");
