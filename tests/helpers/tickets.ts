import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { findEnvironment } from "@/lib/environments/context";
import { issueSessionTicket, type SessionTicketInput } from "@/lib/tickets/session-tickets";

/**
 * Issues a session ticket for the user as a sign-in would: read on their current
 * sign-in generation (lib/sessions/sign-in-generation.ts).
 */
export async function issueTicketFor(environmentId: string, userId: string, options: Omit<SessionTicketInput, "user">): Promise<string> {
  const environment = await findEnvironment(getDb(), environmentId);
  if (!environment) throw new Error("no environment");
  const [user] = await getDb().select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error("no user");
  return issueSessionTicket(getDb(), environment, { user, ...options });
}
