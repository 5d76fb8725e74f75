import { getDb } from "@/db/client";
import { totpFactors } from "@/db/schema";
import { seal } from "@/lib/crypto/secret-box";
import { frontendHostOrigin } from "@/lib/environments/environment-links";
import { signedUpClient, type ClientApi } from "./client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "./fixtures";
import { SoftwareAuthenticator } from "./webauthn-authenticator";

/**
 * Where an environment's passkey ceremonies run in these tests: its frontend host's
 * origin. A test request names no Host, so the RP ID is the environment's first
 * frontend host, as for work done with no request (lib/passkeys/relying-party.ts).
 */
export function originOf(environment: { frontendHost: string }): string {
  return frontendHostOrigin(environment.frontendHost);
}

/** Registers a passkey for the signed-in client (which must have signed in recently); fails the test on anything but 201. */
export async function addPasskey(client: ClientApi, authenticator: SoftwareAuthenticator, name?: string) {
  const options = await client.post("/users/me/passkeys/registration-options");
  if (options.status !== 200) throw new Error(`registration options answered ${options.status}: ${options.text}`);
  const added = await client.post("/users/me/passkeys", { response: authenticator.register(options.body), ...(name ? { name } : {}) });
  if (added.status !== 201) throw new Error(`registration answered ${added.status}: ${added.text}`);
  return { passkey: added.body, authenticator };
}

/**
 * A fresh environment (its per-IP limits lifted, since a test runs many ceremonies
 * from one address) with a signed-up user holding one passkey.
 */
export async function passkeyUser(authenticatorOptions?: ConstructorParameters<typeof SoftwareAuthenticator>[1]) {
  const environment = await newEnvironment();
  await environment.api.patch("/environment", { rateLimits: { signIn: { limit: 1000 }, codeAttempts: { limit: 1000 } } });
  const origin = originOf(environment);
  const email = uniqueEmail("passkey");
  const { client, session } = await signedUpClient(environment.publishableKey, email, STRONG_PASSWORD);
  const { passkey, authenticator } = await addPasskey(client, new SoftwareAuthenticator(origin, authenticatorOptions));
  return { ...environment, origin, email, client, session, passkey, authenticator, userId: session.user.id as string };
}

/**
 * Turns on an authenticator app for the user, as a confirmed enrollment leaves it,
 * written directly: passkey tests need MFA on, not the TOTP flow.
 */
export async function enableTotp(environmentId: string, userId: string): Promise<void> {
  await getDb()
    .insert(totpFactors)
    .values({ environmentId, userId, secretSealed: await seal("JBSWY3DPEHPK3PXP"), confirmedAt: new Date() });
}
