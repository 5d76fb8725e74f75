import { hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir } from "@/db/config";
import { isProduction } from "../config/runtime";

const cache = new Map<string, { secret: string; key: Uint8Array }>();

/**
 * The master secret: `GATEHOUSE_SECRET`, or in development a random one generated
 * once into the data folder, so a fresh clone works without configuration.
 */
function masterSecret(): string {
  const fromEnv = process.env.GATEHOUSE_SECRET;
  if (fromEnv) return fromEnv;
  if (isProduction()) throw new Error("GATEHOUSE_SECRET is required in production");
  const file = path.join(dataDir(), "secret");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, randomBytes(48).toString("base64"), { mode: 0o600, flag: "wx" });
  }
  return fs.readFileSync(file, "utf8").trim();
}

/** A 256-bit key for one purpose, derived from the master secret (RFC 5869 HKDF). */
export function derivedKey(
  purpose: "secrets-at-rest/v1" | "code-hmac/v1" | "recovery-code-hmac/v1" | "session-binding/v1" | "dashboard-auth/v1",
): Uint8Array {
  const secret = masterSecret();
  let entry = cache.get(purpose);
  if (entry?.secret !== secret) {
    entry = { secret, key: new Uint8Array(hkdfSync("sha256", secret, "gatehouse", purpose, 32)) };
    cache.set(purpose, entry);
  }
  return entry.key;
}

/** The key that seals secrets at rest (signing keys, third-party secrets). */
export function masterKey(): Uint8Array {
  return derivedKey("secrets-at-rest/v1");
}
