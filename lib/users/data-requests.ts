import { and, desc, eq, gt } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { dataRequests } from "@/db/schema";
import { recordEvent, type Actor, type SystemActor } from "../audit/record-event";
import { randomToken, sha256 } from "../crypto/tokens";
import { seal, unseal } from "../crypto/secret-box";
import { emailEnvironment, emailLocale } from "../email/environment-branding";
import { sendEmail } from "../email/send-email";
import { findEnvironment, type EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { enqueueJob } from "../jobs/enqueue-job";
import type { RequestContext } from "../operation/request-context";
import { SeeOther } from "../operation/see-other";
import type { ActiveSession } from "../sessions/resolve-session";
import { environmentUrl, linkBase } from "../environments/environment-links";
import { buildDataExport } from "./build-data-export";
import { getUserOrThrow } from "./get-user";

export const EXPORT_LINK_MINUTES = 24 * 60;

type DataRequestRow = typeof dataRequests.$inferSelect;

export const dataRequestSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(["pending", "ready", "downloaded", "expired", "failed"]),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
    expiresAt: z.iso.datetime().nullable(),
    downloadedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "DataRequest", description: "A copy-of-my-data request. `ready` means the download link was emailed." });

export const dataRequestListSchema = z.object({ items: z.array(dataRequestSchema) }).meta({ id: "DataRequestList" });

function toView(row: DataRequestRow) {
  const expired = row.status === "ready" && row.expiresAt !== null && row.expiresAt <= new Date();
  return {
    id: row.id,
    status: expired ? ("expired" as const) : row.status,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    downloadedAt: row.downloadedAt?.toISOString() ?? null,
  };
}

export async function listDataRequests(db: Database, current: ActiveSession) {
  const rows = await db
    .select()
    .from(dataRequests)
    .where(eq(dataRequests.userId, current.user.id))
    .orderBy(desc(dataRequests.createdAt))
    .limit(50);
  return { items: rows.map(toView) };
}

/**
 * Records a request and queues the `data_export` job that builds it, in one
 * transaction; one pending request at a time (asking again returns it). The link
 * arrives by email once the job has run.
 */
export async function requestDataExport(db: Database, environment: EnvironmentContext, current: ActiveSession, actor: Actor) {
  const pending = await findPendingRequest(db, current.user.id);
  if (pending) return toView(pending);
  try {
    const row = await db.transaction(async (tx) => {
      const [created] = await tx.insert(dataRequests).values({ environmentId: environment.id, userId: current.user.id }).returning();
      if (!created) throw new Error("data request insert returned no row");
      await recordEvent(tx, { environmentId: environment.id, type: "user.data_requested", actor, subjectId: current.user.id, data: { dataRequestId: created.id } });
      await enqueueJob(tx, { kind: "data_export", environmentId: environment.id, payload: { dataRequestId: created.id } });
      return created;
    });
    return toView(row);
  } catch (error) {
    // A concurrent request won the one-pending-per-user index: answer with its request.
    const winner = isUniqueViolation(error) ? await findPendingRequest(db, current.user.id) : null;
    if (winner) return toView(winner);
    throw error;
  }
}

async function findPendingRequest(db: Database, userId: string): Promise<DataRequestRow | null> {
  const [row] = await db
    .select()
    .from(dataRequests)
    .where(and(eq(dataRequests.userId, userId), eq(dataRequests.status, "pending")))
    .limit(1);
  return row ?? null;
}

/**
 * The `data_export` job: builds, seals and stores the export and emails the
 * single-use link, in one transaction, so a failed email leaves the request pending
 * for the job's next attempt. The request row is locked and must still be pending:
 * a second run of the job (after a lost lease, say) finds it ready and does nothing.
 */
export async function buildRequestedExport(db: Database, id: string, actor: SystemActor): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(dataRequests)
      .where(and(eq(dataRequests.id, id), eq(dataRequests.status, "pending")))
      .for("update");
    if (!row) return;
    const environment = await findEnvironment(tx, row.environmentId);
    if (!environment) return;
    const user = await getUserOrThrow(tx, environment.id, row.userId);
    if (user.status === "deleted") return;
    const sealed = await seal(JSON.stringify(await buildDataExport(tx, environment, row.userId)));
    const token = randomToken(32);
    const expiresAt = new Date(Date.now() + EXPORT_LINK_MINUTES * 60_000);
    await tx
      .update(dataRequests)
      .set({ status: "ready", exportSealed: sealed, downloadTokenHash: sha256(token), completedAt: new Date(), expiresAt })
      .where(eq(dataRequests.id, id));
    await recordEvent(tx, { environmentId: environment.id, type: "user.data_export_ready", actor, subjectId: row.userId, data: { dataRequestId: id } });
    if (!user.email) return;
    await sendEmail(tx, {
      template: "data_export_ready",
      to: user.email,
      locale: emailLocale(environment, user.locale),
      environment: emailEnvironment(environment),
      props: { url: environmentUrl(linkBase(environment, null), `/_svc/users/me/data-requests/${id}/download`, { token }), expiresInMinutes: EXPORT_LINK_MINUTES },
    });
  });
}

/** When the job has used up its attempts: the request shows as failed and the user may ask again. */
export async function markDataRequestFailed(db: Database, id: string): Promise<void> {
  await db
    .update(dataRequests)
    .set({ status: "failed", completedAt: new Date() })
    .where(and(eq(dataRequests.id, id), eq(dataRequests.status, "pending")));
}

/**
 * The emailed link: hands out the export once. The row is locked, checked and
 * wiped in one transaction, so a second click (or a concurrent one) gets 400.
 */
function liveExport(environment: EnvironmentContext, id: string, token: string) {
  return and(
    eq(dataRequests.id, id),
    eq(dataRequests.environmentId, environment.id),
    eq(dataRequests.status, "ready"),
    eq(dataRequests.downloadTokenHash, sha256(token)),
    gt(dataRequests.expiresAt, new Date()),
  );
}

function deadLink(): AppError {
  return new AppError("invalid_code", "The download link is wrong, used or expired; request a new copy.");
}

/** The export a live link would download (its expiry), or null; reads only. */
export async function findLiveDataExport(db: Database, environment: EnvironmentContext, id: string, token: string): Promise<{ expiresAt: Date } | null> {
  const [row] = await db.select({ expiresAt: dataRequests.expiresAt }).from(dataRequests).where(liveExport(environment, id, token)).limit(1);
  return row?.expiresAt ? { expiresAt: row.expiresAt } : null;
}

/**
 * Opening the emailed link (GET) hands nothing out: a mail scanner's pre-fetch would
 * otherwise take the one download. A browser is sent, on the host it came in on, to
 * the hosted page whose button downloads with a POST; code learns the link is live.
 */
export async function openDataExportLink(db: Database, environment: EnvironmentContext, id: string, token: string, context: RequestContext) {
  const row = await findLiveDataExport(db, environment, id, token);
  if (!row) throw deadLink();
  if (context.acceptsHtml) return new SeeOther(environmentUrl(linkBase(environment, context.host), "/account/data-export", { id, token }));
  return { status: "ready" as const, expiresAt: row.expiresAt.toISOString() };
}

export async function downloadDataExport(db: Database, environment: EnvironmentContext, id: string, token: string) {
  const sealed = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(dataRequests).where(liveExport(environment, id, token)).for("update");
    if (!row?.exportSealed) return null;
    await tx
      .update(dataRequests)
      .set({ status: "downloaded", downloadedAt: new Date(), exportSealed: null, downloadTokenHash: null })
      .where(eq(dataRequests.id, id));
    return row.exportSealed;
  });
  if (!sealed) throw deadLink();
  return JSON.parse(await unseal(sealed)) as Record<string, unknown>;
}
