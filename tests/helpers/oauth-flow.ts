import { expect } from "vitest";
import { getDb } from "@/db/client";
import { publicUrl } from "@/lib/config/runtime";
import { findEnvironment } from "@/lib/environments/context";
import { linkBase } from "@/lib/environments/environment-links";
import { callbackUrl } from "@/lib/oauth/provider-client";
import type { ApiResponse } from "./api";
import type { ClientApi } from "./client";
import { newEnvironment } from "./fixtures";
import { startOidcProvider, type LoopbackOidcProvider } from "./oidc-provider";

/** Provider ids every OAuth test environment has, all backed by the same loopback provider. */
export const PROVIDER_IDS = ["idp", "other"] as const;

export const ALLOWED_APP = "https://app.example.com";
export const NATIVE_APP = "myapp://callback";

export type TestEnvironment = Awaited<ReturnType<typeof newEnvironment>> & { origin: string };

/**
 * Environments with the loopback provider configured as `idp` and `other`, their
 * app and native origins allowed and sign-in limits loose enough for a test file;
 * the provider knows every environment's callback URLs and is added through the
 * Server API. `settings` are patched in.
 */
export async function oauthEnvironments(count: number, settings: Record<string, unknown>[] = []) {
  const environments: TestEnvironment[] = [];
  for (let i = 0; i < count; i++) {
    const created = await newEnvironment();
    const limit = { limit: 10_000, windowSeconds: 10 };
    const patched = await created.api.patch("/environment", { rateLimits: { signIn: limit, codeAttempts: limit, emailSends: limit }, ...settings[i] });
    if (patched.status !== 200) throw new Error(`settings: ${patched.text}`);
    const origins = await created.api.put("/allowed-origins", { origins: [ALLOWED_APP, NATIVE_APP] });
    if (origins.status !== 200) throw new Error(`origins: ${origins.text}`);
    const context = await findEnvironment(getDb(), created.environmentId);
    if (!context) throw new Error("no environment");
    environments.push({ ...created, origin: linkBase(context, null).origin });
  }
  // Each environment's frontend host, and PUBLIC_URL (where an environment is named by pk).
  const origins = [...environments.map((environment) => environment.origin), new URL(publicUrl()).origin];
  const idp = await startOidcProvider({
    redirectUris: origins.flatMap((origin) => PROVIDER_IDS.map((id) => callbackUrl({ origin, publishableKey: null }, id))),
  });
  for (const environment of environments) {
    for (const id of PROVIDER_IDS) {
      const res = await environment.api.post("/oauth-providers", {
        id,
        type: "oidc",
        name: id === "idp" ? "Loopback IdP" : "Other IdP",
        issuer: idp.issuer,
        clientId: idp.client.clientId,
        clientSecret: idp.client.clientSecret,
      });
      if (res.status !== 201) throw new Error(`adding provider ${id}: ${res.status} ${res.text}`);
    }
  }
  return { environments, idp };
}

export function location(res: ApiResponse): string {
  expect(res.status, res.text).toBe(303);
  const value = res.headers.get("location");
  if (!value) throw new Error("no Location");
  return value;
}

/** GET authorize through the client (its cookie jar keeps gh_oauth); the provider URL it redirects to. */
export async function startSignIn(client: ClientApi, query = "", provider = "idp"): Promise<string> {
  return location(await client.get(`/auth/oauth2/${provider}/authorize${query}`));
}

/** The callback URL the provider sends the browser to after `login` signs in there (or denies). */
export function atProvider(idp: LoopbackOidcProvider, providerUrl: string, login: string, options?: { deny?: boolean }): Promise<URL> {
  return idp.signIn(providerUrl, login, options);
}

/** Delivers a URL of ours (callback, link/complete) to the client, as the browser's navigation. */
export function follow(client: ClientApi, url: URL | string, headers?: Record<string, string>): Promise<ApiResponse> {
  const target = new URL(url);
  return client.get(`${target.pathname.replace(/^\/_svc/, "")}${target.search}`, headers);
}

/** The whole web sign-in: authorize, the provider's login as `login`, the callback; the callback's response. */
export async function webSignIn(client: ClientApi, idp: LoopbackOidcProvider, login: string, query = ""): Promise<ApiResponse> {
  const providerUrl = await startSignIn(client, query);
  return follow(client, await atProvider(idp, providerUrl, login));
}

/** The value of a cookie the client holds, decoded. */
export function cookieValue(client: ClientApi, name: string): string | undefined {
  const raw = client.jar.get(name);
  return raw === undefined ? undefined : decodeURIComponent(raw);
}
