import { asc, eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { environments } from "@/db/schema";
import { normalizeFrontendHost } from "./frontend-host";

/** One environment whose stored hosts change: what it keeps, and what it gives up to an older one. */
interface Respelling {
  id: string;
  hosts: string[];
  lost: { host: string; stored: string; owner: string }[];
}

/**
 * Which port a frontend host may leave out is PUBLIC_URL's (normalizeFrontendHost),
 * which migration 0011 cannot know: this spells every stored host with it, after the
 * migrations, on every boot of the server (upgradeDatabase), under the PUBLIC_URL the
 * hosts are served by. Idempotent: a database already spelled for this PUBLIC_URL
 * changes nothing. One transaction, the environments locked, so two processes booting
 * at once take turns.
 *
 * Where two spellings of one environment meet, the first stays. Where two
 * environments now hold one host (`dup.example.test` and `dup.example.test:8443`
 * under a PUBLIC_URL on :8443 are one origin), the oldest keeps it, as migrations
 * 0004 and 0011 decide, and a line names the environment that lost it. A stored host
 * no spelling makes valid (only a direct write could store one) stays as it is.
 */
export async function respellFrontendHosts(db: Database): Promise<void> {
  const lost = await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: environments.id, hosts: environments.frontendHosts })
      .from(environments)
      .orderBy(asc(environments.createdAt), asc(environments.id))
      .for("update");
    const owners = new Map<string, string>();
    const changed: Respelling[] = [];
    for (const row of rows) {
      const respelling: Respelling = { id: row.id, hosts: [], lost: [] };
      for (const stored of row.hosts) {
        const host = normalizeFrontendHost(stored) ?? stored;
        const owner = owners.get(host);
        if (owner === row.id) continue;
        if (owner) {
          respelling.lost.push({ host, stored, owner });
          continue;
        }
        owners.set(host, row.id);
        respelling.hosts.push(host);
      }
      if (respelling.hosts.join("\n") !== row.hosts.join("\n")) changed.push(respelling);
    }
    if (changed.length === 0) return [];
    // Emptied first, then set: the owners table's sync trigger inserts each new spelling
    // as its environment is updated, which would collide with a host another changed
    // environment still held in between.
    await tx
      .update(environments)
      .set({ frontendHosts: [] })
      .where(inArray(environments.id, changed.map((respelling) => respelling.id)));
    for (const respelling of changed) {
      await tx.update(environments).set({ frontendHosts: respelling.hosts }).where(eq(environments.id, respelling.id));
    }
    return changed.flatMap((respelling) => respelling.lost.map((entry) => ({ ...entry, id: respelling.id })));
  });
  for (const entry of lost) {
    console.warn(
      `gatehouse: frontend host ${entry.stored} of environment ${entry.id} is ${entry.host} under this PUBLIC_URL, which environment ${entry.owner} (older) holds: removed from ${entry.id}`,
    );
  }
}
