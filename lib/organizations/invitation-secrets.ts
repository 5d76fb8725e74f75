import { eq, sql, type SQL } from "drizzle-orm";
import { organizationInvitations } from "@/db/schema";
import { randomToken, safeEqual, sha256 } from "../crypto/tokens";

/*
 * An invitation has two secrets, because they prove different things.
 * - The API `token` is answered to the inviter (the spec's Organization invitation
 *   carries it, for apps that send their own emails). It proves nothing about the
 *   invitee's mailbox, so it only lets an account that already has the invited
 *   address verified accept.
 * - The mail `ticket` is put only in the emailed link, never in an answer, list or
 *   log. Only it may create an account, a verified one: were the token enough, any
 *   member who may invite could sign up as anybody (a pre-hijack that a later
 *   "Sign in with Google" by the real owner links into), past closed sign-up.
 * Both are stored as sha256 hashes only.
 */

export interface InvitationSecrets {
  token: string;
  ticket: string;
}

/** A fresh pair, for an invitation and for each resend (the previous pair dies with it). */
export function newInvitationSecrets(): InvitationSecrets {
  return { token: randomToken(32), ticket: randomToken(32) };
}

/** The pair as stored: hashes only. */
export function secretHashes(secrets: InvitationSecrets): { tokenHash: string; ticketHash: string } {
  return { tokenHash: sha256(secrets.token), ticketHash: sha256(secrets.ticket) };
}

/** What a presented secret is for: signing up takes only the mail ticket, accepting takes either. */
export type SecretUse = "signUp" | "accept";

export interface PresentedSecret {
  hash: string;
  use: SecretUse;
}

export function presentedSecret(clear: string, use: SecretUse): PresentedSecret {
  return { hash: sha256(clear), use };
}

/** The condition "this row is the one the presented secret opens", for lookups and for the claim's conditional UPDATE. */
export function opensInvitation(secret: PresentedSecret): SQL {
  const ticket = eq(organizationInvitations.ticketHash, secret.hash);
  if (secret.use === "signUp") return ticket;
  return sql`(${eq(organizationInvitations.tokenHash, secret.hash)} or ${ticket})`;
}

/** Whether the secret that found `row` is its mail ticket: the one that may create an account. */
export function isMailTicket(row: { ticketHash: string | null }, secret: PresentedSecret): boolean {
  return row.ticketHash !== null && safeEqual(row.ticketHash, secret.hash);
}
