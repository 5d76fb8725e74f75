import type { Database } from "@/db/client";
import { issueCode, spendToken } from "../auth/one-time-codes";
import type { EnvironmentContext } from "../environments/context";
import type { JsonObject } from "../json/deep-merge";
import { generationOf } from "../sessions/sign-in-generation";
import type { UserRow } from "../users/serialize";
import { AUTH_METHODS, type AuthMethod } from "../sessions/establish-session";
import { codeChallengeSchema } from "./pkce";
import { syncBindingSchema } from "./sync-binding";

/**
 * A session ticket: a one-time handover of a proven sign-in to a client that will
 * open its own session with it (a native app after OAuth, a satellite domain after
 * GET /_svc/auth/sync). It travels in a redirect URL, so it is short-lived, single
 * use, and stored only as its SHA-256 (one_time_codes, purpose `session_ticket`).
 */
export const SESSION_TICKET_LIFETIME_SECONDS = 60;

export interface SessionTicketInput {
  /** The user as the sign-in read them: the ticket opens nothing once their sign-in generation moved on. */
  user: Pick<UserRow, "id" | "email" | "signInGeneration">;
  /** The methods the sign-in proved; the session opened with the ticket carries them (and owes a second factor if they hold none). */
  methods: AuthMethod[];
  /** S256 challenge of a native flow: the ticket is then redeemable only by POST with the matching verifier. */
  codeChallenge?: string | null;
  /** For a satellite session: the primary session it is handed from. */
  parentSessionId?: string | null;
  /**
   * For a web ticket: the SHA-256 of the nonce the satellite's browser holds
   * (lib/tickets/sync-binding.ts); the GET establish opens a session only for it.
   */
  binding?: string | null;
}

/** What a spent ticket stands for. */
export interface SessionTicket {
  userId: string;
  payload: JsonObject;
  methods: AuthMethod[];
  codeChallenge: string | null;
  parentSessionId: string | null;
  binding: string | null;
}

/** Stores a ticket (60 s, single use) and returns its clear value, shown only in the redirect that carries it. */
export async function issueSessionTicket(db: Database, environment: EnvironmentContext, input: SessionTicketInput): Promise<string> {
  // A malformed challenge could never be matched; refusing it here keeps callers honest.
  if (input.codeChallenge != null) codeChallengeSchema.parse(input.codeChallenge);
  if (input.binding != null) syncBindingSchema.parse(input.binding);
  const { token } = await issueCode(db, {
    environmentId: environment.id,
    purpose: "session_ticket",
    // Addresses key the email-code caps; a ticket is found by its token only.
    email: input.user.email ?? "",
    userId: input.user.id,
    payload: {
      ...generationOf(input.user),
      methods: input.methods,
      codeChallenge: input.codeChallenge ?? null,
      parentSessionId: input.parentSessionId ?? null,
      binding: input.binding ?? null,
    },
    lifetimeMinutes: SESSION_TICKET_LIFETIME_SECONDS / 60,
    withCode: false,
  });
  return token;
}

function parseTicket(userId: string, payload: JsonObject): SessionTicket {
  const methods = Array.isArray(payload.methods) ? payload.methods : [];
  return {
    userId,
    payload,
    methods: methods.filter((method): method is AuthMethod => (AUTH_METHODS as readonly unknown[]).includes(method)),
    codeChallenge: typeof payload.codeChallenge === "string" ? payload.codeChallenge : null,
    parentSessionId: typeof payload.parentSessionId === "string" ? payload.parentSessionId : null,
    binding: typeof payload.binding === "string" ? payload.binding : null,
  };
}

/**
 * Spends a ticket of this environment with one conditional UPDATE, so of any
 * number of concurrent redemptions exactly one gets it back; the others, and
 * unknown, expired, used or foreign tickets, get null. Spent before anything is
 * checked: a redemption that then fails (wrong verifier) has burned the ticket,
 * so a stolen ticket allows one guess at most.
 */
export async function spendSessionTicket(db: Database, environment: EnvironmentContext, ticket: string): Promise<SessionTicket | null> {
  const row = await spendToken(db, environment.id, "session_ticket", ticket);
  return row?.userId ? parseTicket(row.userId, row.payload) : null;
}
