import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Database } from "@/db/client";
import { violatedConstraint } from "@/db/errors";
import { applications, environments } from "@/db/schema";
import { recordEvent, SYSTEM_ACTOR, type Actor } from "../audit/record-event";
import { AppError } from "../errors";
import { createSigningKey } from "../tokens/signing-keys";
import { createSecretKey, newPublishableKey } from "./api-keys";
import { frontendHostSchema } from "./frontend-host";
import { defaultSettings } from "./settings";

export const createEnvironmentInput = z.object({
  name: z.string().trim().min(1).max(100),
  kind: z.enum(["development", "production"]).default("development"),
  frontendHost: frontendHostSchema.optional(),
  /** Adds the environment to an existing application instead of creating one. */
  applicationId: z.uuid().optional(),
});

export interface CreatedEnvironment {
  applicationId: string;
  environmentId: string;
  publishableKey: string;
  secretKey: string;
  frontendHost: string;
}

function defaultFrontendHost(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "env";
  return `${slug}-${randomBytes(3).toString("hex")}.localhost`;
}

/**
 * Creates an application (unless given) and an environment with its publishable key,
 * a first secret key and a signing key, all in one transaction. A frontend host that
 * already serves another environment, in any spelling (normalizeFrontendHost), is
 * refused (409 identifier_exists): the database decides (environment_frontend_hosts),
 * so two concurrent creations cannot both win.
 */
export async function createEnvironment(
  db: Database,
  input: z.input<typeof createEnvironmentInput>,
  actor: Actor = SYSTEM_ACTOR,
): Promise<CreatedEnvironment> {
  const { name, kind, frontendHost, applicationId } = createEnvironmentInput.parse(input);
  const host = frontendHost ?? defaultFrontendHost(name);
  return refuseTakenHost(host, () =>
    db.transaction(async (tx) => {
      let appId = applicationId;
      if (!appId) {
        const [app] = await tx.insert(applications).values({ name }).returning({ id: applications.id });
        appId = app?.id;
      }
      if (!appId) throw new Error("application insert returned no row");
      const [environment] = await tx
        .insert(environments)
        .values({
          applicationId: appId,
          name,
          kind,
          publishableKey: newPublishableKey(kind),
          frontendHosts: [host],
          settings: defaultSettings(name),
        })
        .returning();
      if (!environment) throw new Error("environment insert returned no row");
      const { secretKey } = await createSecretKey(tx, environment, "default");
      await createSigningKey(tx, environment.id);
      await recordEvent(tx, { environmentId: environment.id, type: "environment.created", actor, data: { name, kind } });
      return {
        applicationId: appId,
        environmentId: environment.id,
        publishableKey: environment.publishableKey,
        secretKey,
        frontendHost: host,
      };
    }),
  );
}

/** 409 identifier_exists for a frontend host held by another environment, on `field` (the body's field that named it). */
export function takenHostError(host: string, field = "frontendHost"): AppError {
  return new AppError("identifier_exists", `The frontend host ${host} already serves another environment; choose another host.`, {
    fieldErrors: [{ field, code: "identifier_exists", message: "already serves another environment" }],
  });
}

/**
 * Runs a write that sets frontend hosts; a host held by another environment becomes
 * 409 identifier_exists, on `field` (the body's field that named the host or hosts).
 */
export async function refuseTakenHost<T>(host: string, write: () => Promise<T>, field = "frontendHost"): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (violatedConstraint(error) === "environment_frontend_hosts_pkey") throw takenHostError(host, field);
    throw error;
  }
}
