import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { operators, users } from "@/db/schema";
import { OPERATOR_ROLES, type OperatorIdentity } from "../operation/caller";
import { emailSchema } from "../users/email";
import { internalEnvironment } from "./internal-environment";

export type OperatorRow = typeof operators.$inferSelect;

export const operatorRoleSchema = z.enum(OPERATOR_ROLES);

export const createOperatorInput = z.strictObject({ email: emailSchema, role: operatorRoleSchema });

/** An operator as the CLI and the dashboard list them; never the password hash. */
export interface OperatorSummary {
  id: string;
  userId: string;
  email: string;
  role: OperatorIdentity["role"];
  /** False until the operator has followed their one-time link and chosen a password. */
  passwordSet: boolean;
  createdAt: Date;
}

const summaryColumns = {
  id: operators.id,
  userId: operators.userId,
  email: users.email,
  role: operators.role,
  passwordHash: users.passwordHash,
  createdAt: operators.createdAt,
};

function toSummary(row: { id: string; userId: string; email: string | null; role: OperatorRow["role"]; passwordHash: string | null; createdAt: Date }): OperatorSummary {
  return { id: row.id, userId: row.userId, email: row.email ?? "", role: row.role, passwordSet: row.passwordHash !== null, createdAt: row.createdAt };
}

/** Every operator, oldest first. */
export async function listOperators(db: Database): Promise<OperatorSummary[]> {
  const rows = await db.select(summaryColumns).from(operators).innerJoin(users, eq(users.id, operators.userId)).orderBy(asc(operators.createdAt));
  return rows.map(toSummary);
}

/** The operator who signs in with this address (normalised as every email is), or null. */
export async function findOperatorByEmail(db: Database, email: string): Promise<OperatorSummary | null> {
  const normalized = emailSchema.safeParse(email);
  if (!normalized.success) return null;
  const environment = await internalEnvironment(db);
  const [row] = await db
    .select({ ...summaryColumns, environmentId: users.environmentId, status: users.status })
    .from(operators)
    .innerJoin(users, eq(users.id, operators.userId))
    .where(eq(users.email, normalized.data))
    .limit(1);
  return row && row.environmentId === environment.id && row.status !== "deleted" ? toSummary(row) : null;
}

/** The operator row of an internal user, or null (a user whose operator was removed). */
export async function operatorOfUser(db: Database, userId: string): Promise<OperatorRow | null> {
  const [row] = await db.select().from(operators).where(eq(operators.userId, userId)).limit(1);
  return row ?? null;
}
