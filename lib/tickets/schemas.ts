import { z } from "zod";
import { codeVerifierSchema } from "./pkce";

/** A ticket is 43 base64url characters; anything up to 256 is looked up (and found wanting) rather than refused by shape. */
const ticketSchema = z.string().min(1).max(256).meta({ description: "The one-time ticket from the redirect (`?ticket=`)." });

const redirectUrlSchema = z.string().max(2048);

export const redeemNativeTicketBody = z
  .strictObject({
    ticket: ticketSchema,
    codeVerifier: codeVerifierSchema.meta({
      description: "The PKCE code verifier whose S256 challenge the app sent to authorize (RFC 7636 §4.1: 43 to 128 characters).",
    }),
  })
  .meta({ id: "RedeemNativeTicketRequest" });

export const establishWebSessionQuery = z.object({
  ticket: ticketSchema,
  redirect_url: redirectUrlSchema
    .optional()
    .meta({ description: "Where to go once the session exists: the environment's own hosts, an allowed origin or a path; anything else falls back to the home URL." }),
});

export const satelliteSyncQuery = z.object({
  redirect_url: redirectUrlSchema.meta({
    description: "The satellite page to return to: an absolute URL on one of the environment's allowed origins or frontend hosts.",
  }),
});
