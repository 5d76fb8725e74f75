import { getDb } from "@/db/client";
import { oauthProviders } from "@/db/schema";
import type { RequestActor } from "@/lib/audit/record-event";
import { findEnvironment } from "@/lib/environments/context";
import { linkIdentity } from "@/lib/identities/link-identity";
import type { ProviderProfile } from "@/lib/oauth/profile";
import { getUserOrThrow } from "@/lib/users/get-user";

let counter = 0;

/** A provider account as a provider's profile describes it; a fresh subject unless given. */
export function providerProfile(overrides: Partial<ProviderProfile> = {}): ProviderProfile {
  counter += 1;
  return {
    subject: `subject-${counter}-${Math.random().toString(36).slice(2, 8)}`,
    email: null,
    emailVerified: false,
    name: "Ada Lovelace",
    firstName: "Ada",
    lastName: "Lovelace",
    picture: null,
    username: null,
    ...overrides,
  };
}

/**
 * Configures a provider in the environment, written directly: these tests are about
 * the identities that point at it, not about provider configuration.
 */
export async function addProvider(environmentId: string, id: string, name: string, type: "oidc" | "github" | "google" = "oidc") {
  await getDb()
    .insert(oauthProviders)
    .values({ environmentId, id, type, name, clientId: `client-${id}`, clientSecretSealed: "sealed-in-a-test", issuer: null });
}

/** Links a provider account to the user as the OAuth link flow's last step does: linkIdentity in one transaction. */
export async function linkTestIdentity(
  environmentId: string,
  userId: string,
  providerId: string,
  profile: ProviderProfile = providerProfile(),
  actor: RequestActor = { type: "user", id: userId, requestId: "req_identities_test" },
) {
  const environment = await findEnvironment(getDb(), environmentId);
  if (!environment) throw new Error("no such environment");
  return getDb().transaction(async (tx) => {
    const user = await getUserOrThrow(tx, environmentId, userId);
    return linkIdentity(tx, environment, user, { providerId, profile }, actor);
  });
}
