import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { organizationMemberships, organizations } from "@/db/schema";

export type DeletionConfirmation = "confirmed" | "mismatch" | "not_a_member";

/**
 * Type-to-confirm before deleting an organization (the hosted page): the typed text
 * must be the organization's slug. Only a member of the organization learns whether
 * it matched; for anyone else the answer is "not_a_member" without comparing, so the
 * form cannot be used to guess another organization's slug, and the delete operation
 * then refuses them as it would anyway. The check guards against accidents; who may
 * delete is the operation's rule (org:settings:manage), not this one's.
 */
export async function checkDeletionConfirmation(
  db: Database,
  environmentId: string,
  organizationId: string,
  userId: string,
  typed: string,
): Promise<DeletionConfirmation> {
  // A malformed id would fail the uuid comparison in Postgres; the operation answers it with 400.
  if (!z.uuid().safeParse(organizationId).success) return "not_a_member";
  const [row] = await db
    .select({ slug: organizations.slug })
    .from(organizations)
    .innerJoin(organizationMemberships, eq(organizationMemberships.organizationId, organizations.id))
    .where(and(eq(organizations.id, organizationId), eq(organizations.environmentId, environmentId), eq(organizationMemberships.userId, userId)))
    .limit(1);
  if (!row) return "not_a_member";
  return typed.trim() === row.slug ? "confirmed" : "mismatch";
}
