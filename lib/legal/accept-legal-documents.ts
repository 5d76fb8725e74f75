import type { Database } from "@/db/client";
import { recordEvent, type Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import type { RequestContext } from "../operation/request-context";
import { sessionState } from "../sessions/gates";
import type { ActiveSession } from "../sessions/resolve-session";
import { recordLegalAcceptance } from "./legal-acceptance";

/** Records the caller's acceptance of the current documents and returns the session state after it. */
export async function acceptLegalDocuments(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  context: RequestContext,
  actor: Actor,
) {
  await db.transaction(async (tx) => {
    await recordLegalAcceptance(tx, environment, current.user.id, context.ip);
    await recordEvent(tx, { environmentId: environment.id, type: "legal.accepted", actor, subjectId: current.user.id, data: { ...environment.settings.legal } });
  });
  return sessionState(db, environment, current.user, current.session.id);
}
