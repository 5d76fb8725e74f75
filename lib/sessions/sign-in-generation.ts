import { AppError } from "../errors";
import type { JsonObject } from "../json/deep-merge";
import type { UserRow } from "../users/serialize";

/*
 * A proof of identity is good only until all the user's sessions are revoked (a
 * password change or reset, a ban, "sign out everywhere", an operator's
 * revoke-all): revokeAllUserSessions raises users.sign_in_generation. A sign-in
 * keeps the value it read together with the credentials it checked: establishSession
 * opens a session only while the row still holds it (one conditional statement that
 * waits on a revocation in progress), and a sign-in that must wait for a second
 * factor or a ticket redemption stores it in that challenge or ticket, checked again
 * under the user's row lock when it is redeemed. Comparing times instead would leave
 * open whatever a revoking transaction let in between its start and its commit.
 */

type Generation = Pick<UserRow, "signInGeneration">;

/** The payload field a challenge or ticket carries its sign-in's generation in. */
export function generationOf(user: Generation): { generation: number } {
  return { generation: user.signInGeneration };
}

/** Whether a challenge or ticket was issued at the user's current generation; read the user row locked. */
export function issuedAtCurrentGeneration(payload: JsonObject, user: Generation): boolean {
  return payload.generation === user.signInGeneration;
}

/** The answer to a sign-in overtaken by a revocation of all the user's sessions while it ran. */
export function overtakenSignIn(): AppError {
  return new AppError("invalid_credentials", "The account changed while signing in (a password change, a sign-out everywhere); sign in again.");
}
