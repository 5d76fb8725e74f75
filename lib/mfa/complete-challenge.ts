import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { RequestContext } from "../http/request-context";
import { establishSession, type AuthMethod, type Establishment } from "../sessions/establish-session";
import { invalidCode } from "../auth/one-time-codes";
import { consumeMfaChallenge, type MfaChallenge } from "./mfa-tokens";

/**
 * Ends a sign-in's challenge once its second factor (or a freshly enrolled one) is
 * proven: spends the mfaToken and opens the session in one transaction, with the
 * first factor's methods and this one in amr. Every factor (authenticator code,
 * recovery code, passkey) finishes here, so the rules are the same for each: the
 * user must still be able to sign in, and the token is spent exactly once.
 *
 * `prove` runs inside the transaction: it spends the factor itself (a TOTP step,
 * a recovery code, a passkey counter), so a session that fails to open leaves the
 * factor unspent.
 */
export async function completeMfaChallenge(
  db: Database,
  environment: EnvironmentContext,
  challenge: MfaChallenge,
  method: AuthMethod,
  context: RequestContext,
  prove: (tx: Database) => Promise<void>,
): Promise<Establishment> {
  return db.transaction(async (tx) => {
    await consumeMfaChallenge(tx, challenge);
    await prove(tx);
    const [user] = await tx.select().from(users).where(eq(users.id, challenge.userId)).for("update");
    if (!user || user.environmentId !== environment.id || user.status === "deleted") throw invalidCode();
    if (user.status === "banned") throw new AppError("user_banned", "This account has been banned.");
    return establishSession(tx, environment, user, { methods: [...challenge.methods, method] }, context);
  });
}
