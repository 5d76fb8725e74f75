import { z } from "zod";

/** `actorId` is whoever the caller says acts (CONTRACT §5): an operator's id, a support agent's, up to 128 characters. */
export const MAX_ACTOR_ID_LENGTH = 128;
export const MAX_REASON_LENGTH = 500;

export const impersonationTokenBody = z
  .strictObject({
    userId: z.uuid("must be a UUID").meta({ description: "The user to act as." }),
    actorId: z
      .string()
      .min(1, { error: "must not be empty", abort: true })
      .max(MAX_ACTOR_ID_LENGTH, `must be at most ${MAX_ACTOR_ID_LENGTH} characters`)
      .refine((value) => value.trim().length > 0, "must not be blank")
      .meta({
        description:
          "Who acts as the user: the operator's id when the dashboard starts it, or any identifier of the caller's own (a support agent's id). Becomes `act.sub` in the session's access tokens and `on_behalf_of` in its events.",
      }),
    reason: z
      .string()
      .max(MAX_REASON_LENGTH, `must be at most ${MAX_REASON_LENGTH} characters`)
      .optional()
      .meta({ description: "Why, for the audit log (`user.impersonation_token_created`)." }),
  })
  .meta({ id: "ImpersonationTokenRequest" });

export type ImpersonationTokenInput = z.output<typeof impersonationTokenBody>;

export const impersonationTokenSchema = z
  .object({
    token: z.string().meta({ description: "Single use; redeem it with POST /_svc/auth/session/impersonate. Shown only here." }),
    expiresAt: z.iso.datetime().meta({ description: "Ten minutes from now; an unredeemed token is worthless after." }),
  })
  .meta({ id: "ImpersonationToken" });

export const impersonateBody = z
  .strictObject({
    // 43 base64url characters; anything up to 256 is looked up (and found wanting) rather than refused by shape.
    token: z.string().min(1, "must not be empty").max(256, "is too long").meta({ description: "The token from POST /api/server/v1/impersonation-tokens." }),
  })
  .meta({ id: "ImpersonateRequest" });
