import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { oauthProviders, oneTimeCodes, userIdentities, users } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { seal } from "../crypto/secret-box";
import type { EnvironmentContext } from "../environments/context";
import { linkBase } from "../environments/environment-links";
import { AppError, invalidField } from "../errors";
import { lockOAuthSignInsInFlight, revokeOAuthSignIns } from "../sessions/revoke-sessions";
import { outboundHostProblem } from "./outbound-address";
import { callbackUrl, effectiveSettings } from "./provider-client";
import { issuerProblem, PROVIDER_PRESETS, type ProviderType } from "./provider-presets";
import type { CreateOAuthProviderInput, OAuthProvider, UpdateOAuthProviderInput } from "./provider-schemas";

type ProviderRow = typeof oauthProviders.$inferSelect;

/** The Server API view: never the secret, only that one is set; the issuer and scopes in use; the callback URL to register. */
export function toOAuthProvider(environment: EnvironmentContext, row: ProviderRow): OAuthProvider {
  const { issuer, scopes } = effectiveSettings(row);
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    clientId: row.clientId,
    clientSecretSet: true,
    issuer,
    scopes,
    enabled: row.enabled,
    position: row.position,
    callbackUrl: callbackUrl(linkBase(environment, null), row.id),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The issuer a provider of `type` may store, or an AppError: required for `oidc`,
 * refused for the presets whose issuer is fixed, and https-only (http on loopback
 * outside production, CONTRACT §5) whenever one is given.
 */
function checkedIssuer(type: ProviderType, issuer: string | null | undefined): string | null {
  const preset = PROVIDER_PRESETS[type];
  if (issuer === undefined || issuer === null) {
    if (!preset.defaultIssuer) throw invalidField("issuer", `is required for ${type} providers`);
    return null;
  }
  if (!preset.issuerOverridable) throw invalidField("issuer", `is fixed for ${type} providers; leave it out`);
  const problem = issuerProblem(issuer);
  if (problem) throw invalidField("issuer", problem);
  // Stored as given: issuers are compared exactly (OIDC Discovery §4.3).
  return issuer;
}

/**
 * In production, refuses an issuer on a non-public address (a private or loopback IP,
 * a local name, or a name resolving to one): Gatehouse would send codes and the client
 * secret there. Checked before the transaction (it may wait for DNS); an issuer with
 * another problem is left to checkedIssuer. Every request is checked again when made.
 */
async function assertPublicIssuer(issuer: string | null | undefined): Promise<void> {
  if (!issuer || issuerProblem(issuer)) return;
  const problem = await outboundHostProblem(new URL(issuer).hostname);
  if (problem) throw invalidField("issuer", problem);
}

/** An OpenID Connect provider answers with an id_token only when `openid` is asked for; without it every sign-in would fail. */
function checkedScopes(type: ProviderType, scopes: string[] | null | undefined): string[] | undefined {
  if (scopes === undefined) return undefined;
  if (!scopes?.length) return [];
  if (PROVIDER_PRESETS[type].protocol === "oidc" && !scopes.includes("openid")) throw invalidField("scopes", `must include "openid" for ${type} providers`);
  return [...new Set(scopes)];
}

const idTaken = (id: string) =>
  new AppError("oauth_provider_exists", `This environment already has an OAuth provider with the id "${id}".`, {
    fieldErrors: [{ field: "id", code: "oauth_provider_exists", message: "is already used by another provider" }],
  });

const notFound = () => new AppError("resource_not_found", "No OAuth provider with this id in the environment.");

/** The provider row; another environment's provider of the same id is simply not found (ids are per environment). */
async function getProviderRowOrThrow(db: Database, environmentId: string, providerId: string, options: { lock?: boolean } = {}): Promise<ProviderRow> {
  const query = db
    .select()
    .from(oauthProviders)
    .where(and(eq(oauthProviders.environmentId, environmentId), eq(oauthProviders.id, providerId)))
    .limit(1);
  const [row] = options.lock ? await query.for("update") : await query;
  if (!row) throw notFound();
  return row;
}

async function hasIdentities(db: Database, environmentId: string, providerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: userIdentities.id })
    .from(userIdentities)
    .where(and(eq(userIdentities.environmentId, environmentId), eq(userIdentities.providerId, providerId)))
    .limit(1);
  return Boolean(row);
}

export async function listOAuthProviders(db: Database, environment: EnvironmentContext): Promise<{ data: OAuthProvider[] }> {
  const rows = await db
    .select()
    .from(oauthProviders)
    .where(eq(oauthProviders.environmentId, environment.id))
    .orderBy(asc(oauthProviders.position), asc(oauthProviders.id));
  return { data: rows.map((row) => toOAuthProvider(environment, row)) };
}

export async function getOAuthProvider(db: Database, environment: EnvironmentContext, providerId: string): Promise<OAuthProvider> {
  return toOAuthProvider(environment, await getProviderRowOrThrow(db, environment.id, providerId));
}

export async function createOAuthProvider(db: Database, environment: EnvironmentContext, input: CreateOAuthProviderInput, actor: Actor): Promise<OAuthProvider> {
  const issuer = checkedIssuer(input.type, input.issuer);
  await assertPublicIssuer(issuer);
  const scopes = checkedScopes(input.type, input.scopes) ?? [];
  const clientSecretSealed = await seal(input.clientSecret);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(oauthProviders)
        .values({
          environmentId: environment.id,
          id: input.id,
          type: input.type,
          name: input.name ?? (input.type === "oidc" ? input.id : PROVIDER_PRESETS[input.type].label),
          clientId: input.clientId,
          clientSecretSealed,
          issuer,
          scopes,
          enabled: input.enabled ?? true,
          position: input.position ?? 0,
        })
        .returning();
      if (!row) throw new Error("oauth provider insert returned no row");
      await recordEvent(tx, { environmentId: environment.id, type: "oauth_provider.created", actor, data: { providerId: row.id, type: row.type } });
      return toOAuthProvider(environment, row);
    });
  } catch (error) {
    // The unique index decides, so two concurrent creates of one id cannot both win.
    if (isUniqueViolation(error)) throw idTaken(input.id);
    throw error;
  }
}

export async function updateOAuthProvider(
  db: Database,
  environment: EnvironmentContext,
  providerId: string,
  patch: UpdateOAuthProviderInput,
  actor: Actor,
): Promise<OAuthProvider> {
  const clientSecretSealed = patch.clientSecret === undefined ? undefined : await seal(patch.clientSecret);
  await assertPublicIssuer(patch.issuer);
  return db.transaction(async (tx) => {
    const current = await getProviderRowOrThrow(tx, environment.id, providerId, { lock: true });
    const issuer = patch.issuer === undefined ? undefined : checkedIssuer(current.type, patch.issuer);
    if (issuer !== undefined && issuer !== current.issuer && (await hasIdentities(tx, environment.id, providerId))) {
      throw new AppError("oauth_provider_in_use", "Users are linked through this provider; its issuer cannot change. Add the new issuer as another provider.");
    }
    const [row] = await tx
      .update(oauthProviders)
      .set({
        name: patch.name,
        clientId: patch.clientId,
        clientSecretSealed,
        issuer,
        scopes: checkedScopes(current.type, patch.scopes),
        enabled: patch.enabled,
        position: patch.position,
        updatedAt: new Date(),
      })
      .where(and(eq(oauthProviders.environmentId, environment.id), eq(oauthProviders.id, providerId)))
      .returning();
    if (!row) throw notFound();
    await recordEvent(tx, { environmentId: environment.id, type: "oauth_provider.updated", actor, data: { providerId, fields: Object.keys(patch) } });
    return toOAuthProvider(environment, row);
  });
}

/**
 * Removes the provider and the identities linked through it (answers 204, hence
 * undefined). Account ids are unique per issuer only: kept identities would sign in
 * whoever holds the same id at a provider later added under this id. What their
 * sign-ins opened ends with them (revokeOAuthSignIns, reason `identity_removed`):
 * the identities are locked first, so a sign-in through one of them either has
 * committed its session (which the revocation then sees) or waits and finds its
 * identity gone.
 */
export async function deleteOAuthProvider(db: Database, environmentId: string, providerId: string, actor: Actor): Promise<undefined> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(oauthProviders)
      .where(and(eq(oauthProviders.environmentId, environmentId), eq(oauthProviders.id, providerId)))
      .returning({ id: oauthProviders.id });
    if (!row) throw notFound();
    // Lock order: the provider (sign-ins through it hold it FOR SHARE, hold-provider.ts), the
    // sign-ins in flight, the users, their identities, their sessions: the order ticket
    // redemption, a second factor's completion and deleteUser take them, so none deadlocks with this.
    const linked = and(eq(userIdentities.environmentId, environmentId), eq(userIdentities.providerId, providerId));
    const linkedUsers = tx.select({ userId: userIdentities.userId }).from(userIdentities).where(linked);
    await lockOAuthSignInsInFlight(tx, environmentId, linkedUsers);
    await tx.select({ id: users.id }).from(users).where(inArray(users.id, linkedUsers)).orderBy(users.id).for("update");
    await tx.select({ id: userIdentities.id }).from(userIdentities).where(linked).for("update");
    await revokeOAuthSignIns(tx, { environmentId, userIds: linkedUsers }, actor, "identity_removed");
    await tx.delete(userIdentities).where(linked);
    // A consent still pending would otherwise finish through a provider re-added under the same id.
    await tx
      .update(oneTimeCodes)
      .set({ consumedAt: new Date() })
      .where(
        and(
          eq(oneTimeCodes.environmentId, environmentId),
          eq(oneTimeCodes.purpose, "signup_continuation"),
          isNull(oneTimeCodes.consumedAt),
          sql`${oneTimeCodes.payload} ->> 'providerId' = ${providerId}`,
        ),
      );
    await recordEvent(tx, { environmentId, type: "oauth_provider.deleted", actor, data: { providerId } });
  });
  return undefined;
}
