import type { Database } from "@/db/client";
import { operators } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { AppError } from "../errors";
import { createUser } from "../users/create-user";
import { internalEnvironment } from "./internal-environment";
import { createOperatorInput, type OperatorSummary } from "./operators";
import { issueOperatorSignInLink, type SignInLink } from "./sign-in-link";

/**
 * Creates an operator: a user of the internal environment (its address trusted as
 * verified: whoever creates an operator vouches for it, as the Server API does for
 * users) with no password yet, their role, and a one-time sign-in link where they
 * choose one. One transaction: an address already taken leaves nothing behind.
 */
export async function createOperator(
  db: Database,
  /** Validated here (createOperatorInput): the CLI passes its flags as typed. */
  input: { email: string; role: string },
  actor: Actor,
): Promise<{ operator: OperatorSummary; signInLink: SignInLink }> {
  const { email, role } = createOperatorInput.parse(input);
  const environment = await internalEnvironment(db);
  return db.transaction(async (tx) => {
    const user = await createUser(tx, environment, { email }, actor).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "identifier_exists") {
        throw new AppError("identifier_exists", `An operator with the address ${email} already exists.`, {
          fieldErrors: [{ field: "email", code: "identifier_exists", message: "is already an operator" }],
        });
      }
      throw error;
    });
    const [row] = await tx.insert(operators).values({ userId: user.id, role }).returning();
    if (!row) throw new Error("operator insert returned no row");
    await recordEvent(tx, { environmentId: environment.id, type: "operator.created", actor, subjectId: user.id, data: { role } });
    const signInLink = await issueOperatorSignInLink(tx, { userId: user.id, email }, actor);
    return {
      operator: { id: row.id, userId: user.id, email, role, passwordSet: false, createdAt: row.createdAt },
      signInLink,
    };
  });
}
