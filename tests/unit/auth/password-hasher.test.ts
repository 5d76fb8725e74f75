import { describe, expect, it } from "vitest";
import { hashPassword, importedDigest, verifyPassword } from "@/lib/auth/password-hasher";
import { PASSWORD_DIGEST_FORMATS } from "@/lib/users/password-digest-formats";
import { FIREBASE_CONFIG, foreignDigests } from "../../helpers/imported-digests";

const PASSWORD = "correct horse battery staple";
const hasherConfig = { scrypt_firebase: FIREBASE_CONFIG };

describe("password hasher registry", () => {
  it("verifies a digest of every supported hasher and asks for a rehash only when right", async () => {
    for (const digest of await foreignDigests(PASSWORD)) {
      const stored = importedDigest(digest.passwordHasher, digest.passwordDigest, { passwordSalt: digest.passwordSalt, hasherConfig });
      if (!stored.ok) throw new Error(`${digest.passwordHasher}: ${stored.detail}`);
      expect(await verifyPassword(stored.stored, PASSWORD), digest.passwordHasher).toEqual({ ok: true, needsRehash: true });
      expect(await verifyPassword(stored.stored, `${PASSWORD}!`), digest.passwordHasher).toEqual({ ok: false, needsRehash: false });
    }
  });

  it("does not ask to rehash today's argon2id", async () => {
    expect(await verifyPassword(await hashPassword(PASSWORD), PASSWORD)).toEqual({ ok: true, needsRehash: false });
  });

  it("matches Firebase's published scrypt test vector", async () => {
    // From github.com/firebase/scrypt's README.
    const stored = importedDigest(
      "scrypt_firebase",
      "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
      {
        passwordSalt: "42xEC+ixf3L2lw==",
        hasherConfig: {
          scrypt_firebase: {
            signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
            saltSeparator: "Bw==",
            rounds: 8,
            memCost: 14,
          },
        },
      },
    );
    if (!stored.ok) throw new Error(stored.detail);
    expect((await verifyPassword(stored.stored, "user1password")).ok).toBe(true);
  });

  it("refuses malformed digests, wrong hashers and costly parameters with a reason", () => {
    const refused = [
      importedDigest("bcrypt", "$2b$10$short", {}),
      importedDigest("bcrypt", `$2b$31$${"a".repeat(53)}`, {}),
      importedDigest("sha256", `$2b$10$${"a".repeat(53)}`, {}),
      importedDigest("argon2id", "$argon2i$v=19$m=4096,t=3,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", {}),
      importedDigest("argon2id", "$argon2id$v=19$m=99999999,t=3,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", {}),
      importedDigest("pbkdf2_sha256", "pbkdf2_sha256$99999999$salt$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", {}),
      importedDigest("scrypt_firebase", "aGFzaA==", { passwordSalt: "c2FsdA==" }),
      importedDigest("scrypt_firebase", "aGFzaA==", { hasherConfig }),
    ];
    for (const result of refused) expect(result.ok).toBe(false);
  });

  it("verifies every example the OpenAPI document gives", async () => {
    for (const [hasher, , example] of PASSWORD_DIGEST_FORMATS) {
      if (hasher === "scrypt_firebase") continue; // the published vector, checked above
      const result = importedDigest(hasher, example, {});
      if (!result.ok) throw new Error(`${hasher}: ${result.detail}`);
      expect((await verifyPassword(result.stored, "password")).ok, hasher).toBe(true);
    }
  });

  it("regression (review): a Firebase digest whose key or hash decodes to nothing (or to too little) is refused, and never accepts any password", async () => {
    const degenerate = { signerKey: "A", saltSeparator: "", rounds: 1, memCost: 1 };
    expect(importedDigest("scrypt_firebase", "A", { passwordSalt: "A", hasherConfig: { scrypt_firebase: degenerate } }).ok).toBe(false);
    // A one-byte key: a random password would match one time in 256.
    expect(importedDigest("scrypt_firebase", "AA==", { passwordSalt: "c2FsdA==", hasherConfig: { scrypt_firebase: { ...degenerate, signerKey: "AAA=" } } }).ok).toBe(false);
    // The hash is the key encrypted: a hash of another length cannot be one.
    expect(importedDigest("scrypt_firebase", "aGFzaA==", { passwordSalt: "c2FsdA==", hasherConfig }).ok).toBe(false);
    // A stored digest that slipped in before the check still accepts nothing.
    for (const password of ["anything", "", PASSWORD]) {
      expect((await verifyPassword("scrypt_firebase$1$1$A$$A$A", password)).ok).toBe(false);
    }
  });

  it("regression (review): imported costs a sign-in attempt pays are bounded (bcrypt 12, argon2 64 MiB / t 4 / p 4, pbkdf2 1,200,000)", () => {
    const salt = "c2FsdHNhbHQ";
    const hash = "aGFzaGhhc2hoYXNoaGFzaA";
    expect(importedDigest("bcrypt", `$2b$13$${"a".repeat(53)}`, {}).ok).toBe(false);
    expect(importedDigest("argon2id", `$argon2id$v=19$m=131072,t=3,p=1$${salt}$${hash}`, {}).ok).toBe(false);
    expect(importedDigest("argon2id", `$argon2id$v=19$m=65536,t=5,p=1$${salt}$${hash}`, {}).ok).toBe(false);
    expect(importedDigest("argon2id", `$argon2id$v=19$m=65536,t=3,p=8$${salt}$${hash}`, {}).ok).toBe(false);
    expect(importedDigest("argon2id", `$argon2id$v=19$m=65536,t=3,p=4$${salt}$${hash}`, {}).ok).toBe(true);
    expect(importedDigest("pbkdf2_sha256", `pbkdf2_sha256$1300000$salt$${"A".repeat(43)}=`, {}).ok).toBe(false);
    expect(importedDigest("pbkdf2_sha256", `pbkdf2_sha256$1000000$salt$${"A".repeat(43)}=`, {}).ok).toBe(true);
  });

  it("treats an unknown stored format as a wrong password, never a throw", async () => {
    expect(await verifyPassword("md5$abc", PASSWORD)).toEqual({ ok: false, needsRehash: false });
  });
});
