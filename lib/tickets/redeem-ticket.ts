import { and, eq, gt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import type { EnvironmentContext } from "../environments/context";
import type { RequestContext } from "../operation/request-context";
import { establishSession, type Establishment, type Proof } from "../sessions/establish-session";
import { lockRedeemingUser, redemptionRefused, type RedemptionRefusal } from "../sessions/redeeming-user";
import { idleBound } from "../sessions/resolve-session";
import { verifierMatches } from "./pkce";
import { spendSessionTicket, type SessionTicket } from "./session-tickets";
import { bindingMatches } from "./sync-binding";

/**
 * How a ticket is redeemed: `native` by POST with the PKCE verifier, for tickets
 * issued with an S256 challenge; `web` by a browser navigating to GET
 * /_svc/auth/session/establish, for tickets issued without one, with the sync
 * nonce cookie whose hash the ticket is bound to (lib/tickets/sync-binding.ts).
 * A ticket is good on its own channel only: a native ticket intercepted on its
 * way to the app (a custom scheme another app registered too) is worthless without
 * the verifier, also at the GET; a web ticket cannot be passed off as
 * PKCE-protected; and a web ticket opens nothing in a browser other than the one
 * that asked for it (login CSRF), nor when it was issued with no binding at all.
 */
export type TicketChannel = { kind: "native"; codeVerifier: string } | { kind: "web"; syncNonce: string | null };

function fitsChannel(ticket: SessionTicket, channel: TicketChannel): boolean {
  if (channel.kind === "web") return ticket.codeChallenge === null && bindingMatches(channel.syncNonce, ticket.binding);
  return ticket.codeChallenge !== null && verifierMatches(channel.codeVerifier, ticket.codeChallenge);
}

type Outcome = RedemptionRefusal | { kind: "established"; result: Establishment };

/**
 * Opens the session a ticket stands for, or says what the sign-in still owes
 * (second factor, enrollment: establishSession decides, as for every way in).
 * One transaction spends the ticket, locks the user and opens the session. A
 * ticket that fails its checks (wrong verifier, wrong channel, user gone or
 * banned, primary session ended, all the user's sessions revoked since it was
 * issued) is spent all the same, and the transaction
 * commits that: one guess per ticket. Unknown, expired, used and failing tickets
 * answer alike, 400 invalid_code; a banned user 403 user_banned.
 */
export async function redeemSessionTicket(
  db: Database,
  environment: EnvironmentContext,
  ticket: string,
  channel: TicketChannel,
  context: RequestContext,
): Promise<Establishment> {
  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    const spent = await spendSessionTicket(tx, environment, ticket);
    if (!spent || !fitsChannel(spent, channel)) return { kind: "invalid" };
    const redeeming = await lockRedeemingUser(tx, environment, spent.userId, spent.payload);
    if (redeeming.kind !== "user") return redeeming;
    const { user } = redeeming;
    const proof: Proof = { methods: spent.methods.length > 0 ? spent.methods : ["ticket"] };
    if (spent.parentSessionId) {
      const parent = await livePrimarySession(tx, environment, user.id, spent.parentSessionId);
      if (!parent) return { kind: "invalid" };
      proof.parentSession = parent;
    }
    return { kind: "established", result: await establishSession(tx, environment, user, proof, context) };
  });
  if (outcome.kind !== "established") throw redemptionRefused(outcome);
  return outcome.result;
}

/**
 * The primary session a satellite ticket was handed from, if it is still live
 * (active, unexpired, and not idle past the environment's inactivity limit, as
 * lib/sessions/resolve-session.ts judges a session), held FOR SHARE until the satellite exists: a revocation of the primary waits
 * for this transaction, and its cascade (lib/sessions/revoke-sessions.ts) then
 * sees the satellite; or it went first, and the ticket opens nothing.
 */
async function livePrimarySession(tx: Database, environment: EnvironmentContext, userId: string, sessionId: string) {
  const [parent] = await tx
    .select({
      id: sessions.id,
      expiresAt: sessions.expiresAt,
      lastVerifiedAt: sessions.lastVerifiedAt,
      // A satellite of an impersonation session is one too (establishSession).
      impersonatorType: sessions.impersonatorType,
      impersonatorId: sessions.impersonatorId,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.environmentId, environment.id),
        eq(sessions.userId, userId),
        eq(sessions.status, "active"),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.lastActiveAt, idleBound(environment)),
      ),
    )
    .for("share");
  return parent ?? null;
}
