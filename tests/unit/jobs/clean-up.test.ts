import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { dataRequests, emailAddresses, jobs, oauthFlows, oneTimeCodes, outboxEmails, rateLimitBuckets, sessions, webauthnChallenges } from "@/db/schema";
import { cleanUp, RETENTION_DAYS } from "@/lib/jobs/clean-up";
import { createUser, newEnvironment, openSession } from "../../helpers/fixtures";

const NOW = new Date();
const DAY = 24 * 60 * 60 * 1000;
/** An hour past a `days` retention (to be deleted), and an hour short of it (to be kept). */
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY - 3600_000);
const justInside = (days: number) => new Date(NOW.getTime() - days * DAY + 3600_000);

async function remaining<T extends { id: string }>(rows: Promise<T[]>): Promise<string[]> {
  return (await rows).map((row) => row.id).sort();
}

describe("the periodic clean-up", () => {
  let environmentId = "";
  let user = { id: "" };
  beforeAll(async () => {
    const created = await newEnvironment();
    environmentId = created.environmentId;
    user = await createUser(created.api, {});
  });

  it("deletes codes used or expired more than the grace period ago, and keeps the others", async () => {
    const grace = RETENTION_DAYS.oneTimeCodes;
    const code = (fields: { expiresAt: Date; consumedAt?: Date }) => ({
      id: randomUUID(),
      environmentId,
      purpose: "password_reset" as const,
      tokenHash: randomUUID(),
      email: "ada@example.com",
      ...fields,
    });
    const usedLongAgo = code({ expiresAt: daysAgo(grace), consumedAt: daysAgo(grace) });
    const expiredLongAgo = code({ expiresAt: daysAgo(grace) });
    const usedRecently = code({ expiresAt: new Date(NOW.getTime() + 600_000), consumedAt: justInside(grace) });
    const expiredRecently = code({ expiresAt: justInside(grace) });
    const live = code({ expiresAt: new Date(NOW.getTime() + 600_000) });
    const rows = [usedLongAgo, expiredLongAgo, usedRecently, expiredRecently, live];
    await getDb().insert(oneTimeCodes).values(rows);

    expect((await cleanUp(getDb(), NOW)).oneTimeCodes).toBe(2);
    const ids = rows.map((row) => row.id);
    expect(await remaining(getDb().select().from(oneTimeCodes).where(inArray(oneTimeCodes.id, ids)))).toEqual(
      [usedRecently.id, expiredRecently.id, live.id].sort(),
    );
  });

  it("deletes rate-limit buckets older than any window could be", async () => {
    const old = { key: `test:${randomUUID()}`, windowStart: daysAgo(RETENTION_DAYS.rateLimitBuckets), hits: 3 };
    const recent = { key: `test:${randomUUID()}`, windowStart: justInside(RETENTION_DAYS.rateLimitBuckets), hits: 3 };
    await getDb().insert(rateLimitBuckets).values([old, recent]);
    expect((await cleanUp(getDb(), NOW)).rateLimitBuckets).toBe(1);
    const keys = (await getDb().select().from(rateLimitBuckets).where(inArray(rateLimitBuckets.key, [old.key, recent.key]))).map((row) => row.key);
    expect(keys).toEqual([recent.key]);
  });

  it("deletes sessions revoked or expired more than the retention period ago; live and recent ones stay", async () => {
    const days = RETENTION_DAYS.sessions;
    const session = async (fields: Partial<typeof sessions.$inferInsert>) => {
      const { session: row } = await openSession(environmentId, user.id);
      if (Object.keys(fields).length > 0) await getDb().update(sessions).set(fields).where(inArray(sessions.id, [row.id]));
      return row.id;
    };
    const revokedLongAgo = await session({ status: "revoked", revokedAt: daysAgo(days) });
    const expiredLongAgo = await session({ expiresAt: daysAgo(days) });
    const revokedRecently = await session({ status: "revoked", revokedAt: justInside(days) });
    const expiredRecently = await session({ expiresAt: justInside(days) });
    const live = await session({});
    const ids = [revokedLongAgo, expiredLongAgo, revokedRecently, expiredRecently, live];

    expect((await cleanUp(getDb(), NOW)).sessions).toBe(2);
    expect(await remaining(getDb().select().from(sessions).where(inArray(sessions.id, ids)))).toEqual(
      [revokedRecently, expiredRecently, live].sort(),
    );
  });

  it("deletes outbox messages and finished jobs after a week; unfinished jobs stay however old", async () => {
    const message = (createdAt: Date) => ({
      id: randomUUID(),
      environmentId,
      toAddress: "ada@example.com",
      fromAddress: "gatehouse@example.com",
      subject: "s",
      html: "h",
      text: "t",
      template: "password_reset_code",
      locale: "en",
      createdAt,
    });
    const oldMail = message(daysAgo(RETENTION_DAYS.outboxEmails));
    const newMail = message(justInside(RETENTION_DAYS.outboxEmails));
    await getDb().insert(outboxEmails).values([oldMail, newMail]);
    const job = (fields: Partial<typeof jobs.$inferInsert>) => ({ id: randomUUID(), kind: "data_export", payload: {}, ...fields });
    const oldJob = job({ status: "succeeded", finishedAt: daysAgo(RETENTION_DAYS.finishedJobs) });
    const newJob = job({ status: "failed", finishedAt: justInside(RETENTION_DAYS.finishedJobs) });
    const waiting = job({ createdAt: daysAgo(90), runAt: daysAgo(90) });
    await getDb().insert(jobs).values([oldJob, newJob, waiting]);

    const counts = await cleanUp(getDb(), NOW);
    expect(counts).toMatchObject({ outboxEmails: 1, finishedJobs: 1 });
    expect(await remaining(getDb().select().from(outboxEmails).where(inArray(outboxEmails.id, [oldMail.id, newMail.id])))).toEqual([newMail.id]);
    expect(await remaining(getDb().select().from(jobs).where(inArray(jobs.id, [oldJob.id, newJob.id, waiting.id])))).toEqual(
      [newJob.id, waiting.id].sort(),
    );
  });

  it("wipes the file of exports whose link expired (marking them expired) or that were downloaded; live and pending ones keep theirs", async () => {
    const request = (fields: Partial<typeof dataRequests.$inferInsert>) => ({ id: randomUUID(), environmentId, userId: user.id, ...fields });
    const sealed = { exportSealed: "sealed-export", downloadTokenHash: "hash" };
    const expired = request({ status: "ready", ...sealed, expiresAt: new Date(NOW.getTime() - 60_000) });
    const downloaded = request({ status: "downloaded", ...sealed, expiresAt: new Date(NOW.getTime() + DAY) });
    const ready = request({ status: "ready", ...sealed, expiresAt: new Date(NOW.getTime() + 60_000) });
    // Each user has at most one pending request; this one is the user's.
    const pending = request({ status: "pending" });
    await getDb().insert(dataRequests).values([expired, downloaded, ready, pending]);

    expect((await cleanUp(getDb(), NOW)).exportsWiped).toBe(2);
    const rows = await getDb().select().from(dataRequests).where(inArray(dataRequests.id, [expired.id, downloaded.id, ready.id, pending.id]));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(expired.id)).toMatchObject({ status: "expired", exportSealed: null, downloadTokenHash: null });
    expect(byId.get(downloaded.id)).toMatchObject({ status: "downloaded", exportSealed: null, downloadTokenHash: null });
    expect(byId.get(ready.id)).toMatchObject({ status: "ready", exportSealed: "sealed-export", downloadTokenHash: "hash" });
    expect(byId.get(pending.id)).toMatchObject({ status: "pending" });
  });

  it("deletes pending email addresses whose link lapsed; verified and live pending ones stay", async () => {
    const address = (fields: Partial<typeof emailAddresses.$inferInsert>) => ({
      id: randomUUID(),
      environmentId,
      userId: user.id,
      email: `${randomUUID()}@example.com`,
      ...fields,
    });
    const lapsed = address({ expiresAt: new Date(NOW.getTime() - 60_000) });
    const live = address({ expiresAt: new Date(NOW.getTime() + 60_000) });
    const verified = address({ verifiedAt: daysAgo(3) });
    await getDb().insert(emailAddresses).values([lapsed, live, verified]);
    expect((await cleanUp(getDb(), NOW)).lapsedEmailAddresses).toBe(1);
    const ids = [lapsed.id, live.id, verified.id];
    expect(await remaining(getDb().select().from(emailAddresses).where(inArray(emailAddresses.id, ids)))).toEqual([live.id, verified.id].sort());
  });

  it("deletes passkey challenges past their expiry, spent or not; live ones stay", async () => {
    const challenge = (fields: { expiresAt: Date; consumedAt?: Date }) => ({
      id: randomUUID(),
      environmentId,
      userId: user.id,
      purpose: "registration" as const,
      challengeHash: randomUUID(),
      ...fields,
    });
    const expired = challenge({ expiresAt: new Date(NOW.getTime() - 60_000) });
    const spentAndExpired = challenge({ expiresAt: new Date(NOW.getTime() - 60_000), consumedAt: new Date(NOW.getTime() - 120_000) });
    const live = challenge({ expiresAt: new Date(NOW.getTime() + 60_000) });
    await getDb().insert(webauthnChallenges).values([expired, spentAndExpired, live]);
    expect((await cleanUp(getDb(), NOW)).webauthnChallenges).toBe(2);
    const ids = [expired.id, spentAndExpired.id, live.id];
    expect(await remaining(getDb().select().from(webauthnChallenges).where(inArray(webauthnChallenges.id, ids)))).toEqual([live.id]);
  });

  it("deletes OAuth flows past their expiry, used or not; live ones stay", async () => {
    const flow = (fields: { expiresAt: Date; consumedAt?: Date }) => ({
      id: randomUUID(),
      environmentId,
      providerId: "idp",
      stateHash: randomUUID(),
      browserHash: randomUUID(),
      nonce: "n",
      codeVerifierSealed: "sealed",
      intent: "sign_in" as const,
      linkBase: "{}",
      ...fields,
    });
    const expired = flow({ expiresAt: new Date(NOW.getTime() - 60_000) });
    const usedAndExpired = flow({ expiresAt: new Date(NOW.getTime() - 60_000), consumedAt: new Date(NOW.getTime() - 120_000) });
    const live = flow({ expiresAt: new Date(NOW.getTime() + 60_000) });
    await getDb().insert(oauthFlows).values([expired, usedAndExpired, live]);
    expect((await cleanUp(getDb(), NOW)).oauthFlows).toBe(2);
    const ids = [expired.id, usedAndExpired.id, live.id];
    expect(await remaining(getDb().select().from(oauthFlows).where(inArray(oauthFlows.id, ids)))).toEqual([live.id]);
  });

  it("a second run finds nothing left to do", async () => {
    expect(await cleanUp(getDb(), NOW)).toEqual({
      oneTimeCodes: 0,
      rateLimitBuckets: 0,
      sessions: 0,
      outboxEmails: 0,
      finishedJobs: 0,
      lapsedEmailAddresses: 0,
      webauthnChallenges: 0,
      oauthFlows: 0,
      exportsWiped: 0,
      auditEvents: 0,
    });
  });
});
