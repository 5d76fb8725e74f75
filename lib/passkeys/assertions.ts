import { and, eq, lt, sql } from "drizzle-orm";
import { generateAuthenticationOptions, verifyAuthenticationResponse } from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { Database } from "@/db/client";
import { passkeys } from "@/db/schema";
import { CHALLENGE_LIFETIME_MS, claimedChallenge, spendChallenge, storeChallenge, type ChallengeBinding } from "./challenges";
import { credentialDescriptors, encodedUserHandle, type PasskeyRow } from "./credentials";
import type { RelyingParty } from "./relying-party";
import type { AuthenticationResponse } from "./schemas";

/**
 * `required` where the passkey is the whole sign-in (possession and the device's PIN
 * or biometric: two factors in one); `preferred` where it adds to a factor already
 * proven (a second factor, reverification inside a session), so a security key
 * without a PIN still serves there.
 */
export type UserVerification = "required" | "preferred";

/**
 * Options for `navigator.credentials.get()`, with their challenge stored for the
 * binding. An empty `allowed` list asks for a discoverable credential: the browser
 * offers the passkeys it holds for the RP ID, and the response names the user.
 */
export async function assertionOptions(
  db: Database,
  rp: RelyingParty,
  binding: ChallengeBinding,
  allowed: PasskeyRow[],
  userVerification: UserVerification,
) {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: credentialDescriptors(allowed),
    userVerification,
    timeout: CHALLENGE_LIFETIME_MS,
  });
  await storeChallenge(db, binding, options.challenge);
  return options;
}

/** A response whose signature, origin, RP ID, flags and counter checked out, not yet accepted. */
export interface VerifiedAssertion {
  passkey: PasskeyRow;
  challenge: string;
  newCounter: number;
  backedUp: boolean;
}

/**
 * Verifies an assertion by `passkey` (WebAuthn §7.2): type `webauthn.get`, an origin
 * and RP ID of this relying party, user presence (and verification when required), a
 * signature by the stored public key over the challenge the response claims, and a
 * signature counter that moved forward whenever either side has one (a cloned
 * authenticator shows up as a counter that did not). A response naming a user
 * handle must name the passkey's owner. Null for any failure: the caller answers
 * every one alike. The challenge is checked when it is spent (`acceptAssertion`).
 */
export async function verifyAssertion(
  rp: RelyingParty,
  passkey: PasskeyRow,
  response: AuthenticationResponse,
  userVerification: UserVerification,
): Promise<VerifiedAssertion | null> {
  const challenge = claimedChallenge(response.response.clientDataJSON);
  if (!challenge) return null;
  if (response.response.userHandle !== undefined && response.response.userHandle.replace(/=+$/, "") !== encodedUserHandle(passkey.userId)) return null;
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: userVerification === "required",
    });
    if (!verified) return null;
    return { passkey, challenge, newCounter: authenticationInfo.newCounter, backedUp: authenticationInfo.credentialBackedUp };
  } catch {
    // The verifier throws on every malformed or mismatched part of a response.
    return null;
  }
}

/**
 * Accepts a verified assertion inside the transaction of its effect: spends the
 * challenge (live, and issued for this binding) and moves the passkey's counter
 * forward, each with one conditional UPDATE. False when either was already taken
 * by a concurrent submission: a replayed response, or a second assertion from a
 * cloned authenticator racing the first.
 */
export async function acceptAssertion(db: Database, binding: ChallengeBinding, assertion: VerifiedAssertion): Promise<boolean> {
  if (!(await spendChallenge(db, binding, assertion.challenge))) return false;
  const { passkey, newCounter } = assertion;
  const advanced = await db
    .update(passkeys)
    .set({ counter: newCounter, backedUp: assertion.backedUp, lastUsedAt: sql`now()` })
    .where(
      and(
        eq(passkeys.id, passkey.id),
        // Counters only move forward; an authenticator without one reports 0 every time.
        newCounter === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, newCounter),
      ),
    )
    .returning({ id: passkeys.id });
  return advanced.length === 1;
}
