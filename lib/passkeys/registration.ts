import { generateRegistrationOptions, verifyRegistrationResponse, type VerifiedRegistrationResponse } from "@simplewebauthn/server";
import { COSEALG, isoBase64URL } from "@simplewebauthn/server/helpers";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { passkeys } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { environmentUrl, linkBase } from "../environments/environment-links";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import type { ActiveSession } from "../sessions/resolve-session";
import type { NoticeRecipient } from "../users/address-notices";
import { getLiveUserOrThrow } from "../users/get-user";
import type { UserRow } from "../users/serialize";
import { CHALLENGE_LIFETIME_MS, claimedChallenge, spendChallenge, storeChallenge, type ChallengeBinding } from "./challenges";
import { credentialDescriptors, findPasskeyByCredential, listUserPasskeys, MAX_PASSKEYS, toPasskeyView, userHandle } from "./credentials";
import { relyingParty } from "./relying-party";
import type { RegistrationResponse } from "./schemas";

/**
 * The key types offered and accepted, the same list for both halves of the ceremony:
 * EdDSA, ES256 (what nearly every passkey uses) and RS256 (Windows Hello).
 */
const SUPPORTED_ALGORITHMS = [COSEALG.EdDSA, COSEALG.ES256, COSEALG.RS256];

function registrationBinding(environment: EnvironmentContext, current: ActiveSession): ChallengeBinding {
  return { environmentId: environment.id, purpose: "registration", userId: current.user.id };
}

function registrationRefused(): AppError {
  return new AppError("invalid_request", "response: the passkey could not be verified; start again with new registration options.", {
    fieldErrors: [{ field: "response", code: "invalid_request", message: "could not be verified" }],
  });
}

function alreadyRegistered(): AppError {
  return new AppError("identifier_exists", "This passkey is already registered.");
}

function displayName(user: UserRow): string {
  return [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email || "";
}

/**
 * Options for `navigator.credentials.create()`: a discoverable credential (so sign-in
 * needs no email), user verification preferred, none of the user's existing passkeys
 * again (`excludeCredentials`), no attestation (the authenticator's make is not
 * checked, so none is asked for).
 */
export async function passkeyRegistrationOptions(db: Database, environment: EnvironmentContext, current: ActiveSession, context: RequestContext) {
  const rp = relyingParty(environment, context.host);
  const { user } = current;
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email ?? user.id,
    userID: userHandle(user.id),
    userDisplayName: displayName(user),
    timeout: CHALLENGE_LIFETIME_MS,
    attestationType: "none",
    excludeCredentials: credentialDescriptors(await listUserPasskeys(db, user.id)),
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "preferred" },
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  });
  await storeChallenge(db, registrationBinding(environment, current), options.challenge);
  return options;
}

/** WebAuthn §7.1: type, challenge, origin, RP ID, user presence and key type; null for any failure. */
async function verifyRegistration(environment: EnvironmentContext, response: RegistrationResponse, challenge: string, context: RequestContext) {
  const rp = relyingParty(environment, context.host);
  let verification: VerifiedRegistrationResponse;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: false,
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    });
  } catch {
    return null;
  }
  // The credential is the one the authenticator data names; the response's own `id` must agree.
  if (!verification.verified || verification.registrationInfo.credential.id !== response.id) return null;
  return verification.registrationInfo;
}

/**
 * Stores a passkey for the signed-in user once its registration response verifies
 * against a live registration challenge of theirs. In one transaction under the
 * user's row lock: the challenge is spent, the owner is told at the primary address
 * (if that email cannot be sent, nothing is stored: 503), the passkey and its audit
 * event are written. A credential already registered in this environment is 409.
 */
export async function registerPasskey(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  input: { response: RegistrationResponse; name?: string },
  context: RequestContext,
  actor: Actor,
) {
  const challenge = claimedChallenge(input.response.response.clientDataJSON);
  const registration = challenge ? await verifyRegistration(environment, input.response, challenge, context) : null;
  if (!challenge || !registration) throw registrationRefused();
  const { credential } = registration;
  try {
    return await db.transaction(async (tx) => {
      const owner = await getLiveUserOrThrow(tx, environment.id, current.user.id, { forUpdate: true });
      if (!(await spendChallenge(tx, registrationBinding(environment, current), challenge))) throw registrationRefused();
      if (await findPasskeyByCredential(tx, environment.id, credential.id)) throw alreadyRegistered();
      const owned = await listUserPasskeys(tx, owner.id);
      if (owned.length >= MAX_PASSKEYS) throw new AppError("invalid_request", `You can hold at most ${MAX_PASSKEYS} passkeys; remove one first.`);
      const name = input.name ?? (owned.length === 0 ? "Passkey" : `Passkey ${owned.length + 1}`);
      if (owner.email) await sendPasskeyAddedNotice(tx, environment, { email: owner.email, locale: owner.locale }, name);
      const [row] = await tx
        .insert(passkeys)
        .values({
          environmentId: environment.id,
          userId: owner.id,
          credentialId: credential.id,
          publicKey: isoBase64URL.fromBuffer(credential.publicKey),
          counter: credential.counter,
          transports: input.response.response.transports,
          deviceType: registration.credentialDeviceType,
          backedUp: registration.credentialBackedUp,
          aaguid: registration.aaguid,
          name,
        })
        .returning();
      if (!row) throw new Error("passkey insert returned no row");
      await recordEvent(tx, { environmentId: environment.id, type: "passkey.added", actor, subjectId: owner.id, data: { passkeyId: row.id } });
      return toPasskeyView(row);
    });
  } catch (error) {
    // Two registrations of one credential racing: the unique index lets one in.
    if (isUniqueViolation(error)) throw alreadyRegistered();
    throw error;
  }
}

/** "A passkey was added to your account", to the primary address as the registration's transaction found it. */
async function sendPasskeyAddedNotice(db: Database, environment: EnvironmentContext, owner: NoticeRecipient, passkeyName: string) {
  await sendEmail(db, {
    template: "passkey_added",
    to: owner.email,
    locale: emailLocale(environment, owner.locale),
    environment: emailEnvironment(environment),
    props: { passkeyName, occurredAt: new Date().toISOString(), accountUrl: environmentUrl(linkBase(environment, null), "/account") },
  });
}
