import { z } from "zod";
import type { Database } from "@/db/client";
import { consumeCode, findLiveCode, invalidCode, issueCode } from "../auth/one-time-codes";
import { environmentUrl, linkBase } from "../environments/environment-links";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import type { ActiveSession } from "../sessions/resolve-session";
import { deleteUser } from "./delete-user";

export const DELETION_LINK_MINUTES = 30;

export const deletionRequestBody = z
  .strictObject({
    confirmation: z.string().max(320).meta({ description: "Type-to-confirm: the account's primary email address." }),
  })
  .meta({ id: "AccountDeletionRequest" });

export const deletionConfirmBody = z.strictObject({ token: z.string().min(1).max(200) }).meta({ id: "AccountDeletionConfirm" });

export const deletionRequestedSchema = z
  .object({ status: z.string(), email: z.string() })
  .meta({ id: "AccountDeletionRequested", description: "A confirmation link went to `email`." });

/**
 * Checks the type-to-confirm value (the primary email) and emails a one-time link;
 * nothing is deleted until the link is used, so a hijacked session alone cannot
 * erase the account.
 */
export async function requestAccountDeletion(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  confirmation: string,
  context: RequestContext,
) {
  const email = current.user.email;
  if (!email) throw new AppError("invalid_request", "The account has no email address to confirm deletion with.");
  if (confirmation.trim().toLowerCase() !== email) {
    throw new AppError("invalid_request", "confirmation: type your email address exactly to confirm.", {
      fieldErrors: [{ field: "confirmation", code: "mismatch", message: "must be your email address" }],
    });
  }
  await db.transaction(async (tx) => {
    const { token } = await issueCode(tx, {
      environmentId: environment.id,
      purpose: "account_deletion",
      email,
      userId: current.user.id,
      lifetimeMinutes: DELETION_LINK_MINUTES,
      withCode: false,
    });
    const url = environmentUrl(linkBase(environment, context.host), "/account/delete", { token });
    await sendEmail(tx, {
      template: "account_deletion_link",
      to: email,
      locale: emailLocale(environment, current.user.locale),
      environment: emailEnvironment(environment),
      props: { url, expiresInMinutes: DELETION_LINK_MINUTES },
    });
  });
  return { status: "sent", email };
}

/**
 * The emailed link's confirmation: consumes the token and soft-deletes the user in
 * one transaction (status deleted, sessions revoked, addresses released). The token
 * is the credential, so the link works from any device.
 */
export async function confirmAccountDeletion(db: Database, environment: EnvironmentContext, token: string, context: RequestContext) {
  const row = await findLiveCode(db, environment.id, "account_deletion", token);
  if (!row?.userId) throw invalidCode();
  const userId = row.userId;
  await db.transaction(async (tx) => {
    if (!(await consumeCode(tx, row, null))) throw invalidCode();
    await deleteUser(tx, environment.id, userId, { type: "user", id: userId, requestId: context.requestId });
  });
  return { status: "deleted" };
}
