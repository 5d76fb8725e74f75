import { z } from "zod";
import { codeVerifierSchema } from "./pkce";
import { MAX_REDIRECT_URL_LENGTH } from "./satellite-sync";
import { syncBindingSchema } from "./sync-binding";

/** A ticket is 43 base64url characters; anything up to 256 is looked up (and found wanting) rather than refused by shape. */
const ticketSchema = z.string().min(1).max(256).meta({ description: "The one-time ticket from the redirect (`?ticket=`)." });

const redirectUrlSchema = z.string().max(MAX_REDIRECT_URL_LENGTH);

export const redeemNativeTicketBody = z
  .strictObject({
    ticket: ticketSchema,
    codeVerifier: codeVerifierSchema.meta({
      description: "The PKCE code verifier whose S256 challenge the app sent to authorize (RFC 7636 §4.1: 43 to 128 characters).",
    }),
  })
  .meta({ id: "RedeemNativeTicketRequest" });

export const establishWebSessionQuery = z.object({
  ticket: ticketSchema
    .optional()
    .meta({ description: "The one-time ticket from GET /_svc/auth/sync. Absent when the primary host had no session: the browser goes on to `redirect_url` signed out." }),
  redirect_url: redirectUrlSchema
    .optional()
    .meta({ description: "Where to go once the session exists: the environment's own hosts, an allowed origin or a path; anything else falls back to the home URL." }),
});

export const satelliteSyncQuery = z.object({
  redirect_url: redirectUrlSchema.meta({
    description:
      "Where the ticket goes: exactly the satellite's GET /_svc/auth/session/establish (another of the environment's frontend hosts; https, http only on a loopback host outside production), with at most its own `redirect_url`, as GET /_svc/auth/sync/start builds it.",
  }),
  binding: syncBindingSchema.meta({
    description: "BASE64URL(SHA-256) of the nonce GET /_svc/auth/sync/start left in the satellite browser's cookie: the ticket opens a session only for that browser.",
  }),
});

export const startSatelliteSyncQuery = z.object({
  redirect_url: redirectUrlSchema.min(1).meta({
    description:
      "The satellite page to return to once synced: a path on this host, or an https URL (http only on a loopback host, outside production) on one of the environment's frontend hosts or allowed origins.",
  }),
});
