import { generateSecret, generateURI, verify } from "otplib";
import { renderSVG } from "uqr";

/** RFC 6238 time step: 30 seconds, what every authenticator app assumes. */
export const TOTP_PERIOD_SECONDS = 30;

/**
 * Steps accepted on either side of the server's current one: ±1 absorbs a phone
 * clock a little off and a code typed as it rolls over, and no more (RFC 6238 §5.2
 * recommends at most one step of network delay).
 */
export const TOTP_DRIFT_STEPS = 1;

/** What an authenticator app needs to add the account: the secret to type, the URI and its QR code. */
export interface TotpProvisioning {
  /** Base32 (RFC 4648), as authenticator apps ask for it when typed by hand. */
  secret: string;
  otpauthUri: string;
  /** `data:image/svg+xml;base64,...`, usable as an `<img src>`. */
  qrCodeSvg: string;
}

/** A new secret: 20 random bytes (160 bits, the HMAC-SHA1 block RFC 4226 §4 recommends), Base32. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/**
 * The `otpauth://totp/Issuer:label?secret=…&issuer=…` URI (Key Uri Format) and its
 * QR code. The issuer is the application's name, so the entry in the app says
 * whose account it is; the label is the user's address.
 */
export function totpProvisioning(secret: string, issuer: string, label: string): TotpProvisioning {
  const otpauthUri = generateURI({ issuer, label, secret });
  const svg = renderSVG(otpauthUri, { border: 2 });
  return { secret, otpauthUri, qrCodeSvg: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/** Whether a code has the shape of an authenticator code (6 digits; spaces as apps display them are ignored). */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ""));
}

/**
 * The time step a code belongs to, within ±1 step of `nowSeconds` (server time), or
 * null. Steps at or before `afterStep` (the last one the user spent) are skipped:
 * whether the code may be spent is decided by `claimTotpStep`, this only spares
 * the database a write for a code that cannot win. The comparison is constant-time
 * (otplib).
 */
export async function matchTotpStep(
  secret: string,
  code: string,
  options: { nowSeconds?: number; afterStep?: number | null } = {},
): Promise<number | null> {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const result = await verify({
    secret,
    token,
    period: TOTP_PERIOD_SECONDS,
    epoch: options.nowSeconds ?? Math.floor(Date.now() / 1000),
    epochTolerance: TOTP_DRIFT_STEPS * TOTP_PERIOD_SECONDS,
    ...(options.afterStep != null ? { afterTimeStep: options.afterStep } : {}),
  });
  // The functional API's result type covers HOTP too; a TOTP match carries its step.
  return result.valid && "timeStep" in result ? result.timeStep : null;
}
