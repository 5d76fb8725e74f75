import { z } from "zod";

/**
 * A sign-in that proved its first factor and owes a second one (`second_factor`)
 * or the enrollment of one (`enrollment`). The mfaToken is a credential for that
 * half-done sign-in: like the sign-up token it stays out of the URL. `enrolled`
 * holds no token: it marks a just-finished enrollment so that its page keeps
 * showing the recovery codes instead of moving on once the session exists.
 */
export const mfaFlowSchema = z.discriminatedUnion("kind", [
  z.object({
    environmentId: z.string(),
    kind: z.literal("second_factor"),
    token: z.string(),
    factors: z.array(z.enum(["totp", "recovery_code", "passkey"])),
  }),
  z.object({ environmentId: z.string(), kind: z.literal("enrollment"), token: z.string() }),
  z.object({ environmentId: z.string(), kind: z.literal("enrolled") }),
]);
export type MfaFlow = z.output<typeof mfaFlowSchema>;
