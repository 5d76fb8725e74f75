import fs from "node:fs";
import { startOidcProvider } from "../helpers/oidc-provider";
import { withAdmin } from "../helpers/test-database";
import { e2eRun, type E2eEnvironments } from "./support/run-settings";
import { PROVIDER_ID, PROVIDER_NAME } from "./support/oauth";
import { serverApi } from "./support/server-api";

/**
 * After the server is up (Playwright starts the webServer first): configure the
 * test environments through the Server API, as an operator would. Rate limits go
 * off so the suite is not throttled; the branded environment gets its look and an
 * allowed origin on this same server (127.0.0.1 instead of localhost) to redirect to;
 * the enforced environment requires two-step verification of every user; the
 * consenting one requires consent to its terms. One loopback OpenID provider (in this,
 * the runner's process, for the whole run) is added to the main and consenting environments.
 */
export default async function globalSetup() {
  const run = e2eRun();
  const environments = JSON.parse(fs.readFileSync(run.environmentsFile, "utf8")) as E2eEnvironments;
  const main = serverApi(environments.main.secretKey);
  const branded = serverApi(environments.branded.secretKey);
  const sameServerOrigin = `http://127.0.0.1:${run.port}`;

  await main.patch("/environment", { rateLimits: { enabled: false } });
  await main.put("/allowed-origins", { origins: [sameServerOrigin] });
  await branded.patch("/environment", {
    rateLimits: { enabled: false },
    branding: { applicationName: "Northwind Travel", accentColor: "#0f766e" },
    legal: { termsUrl: "https://northwind.example/terms", privacyUrl: "https://northwind.example/privacy" },
  });
  await branded.put("/allowed-origins", { origins: [sameServerOrigin] });
  // The sign-in page asks for passkey options on load (conditional UI), which counts toward the IP's sign-in limit.
  await serverApi(environments.acme.secretKey).patch("/environment", { rateLimits: { enabled: false } });
  await serverApi(environments.enforced.secretKey).patch("/environment", { rateLimits: { enabled: false }, mfa: { required: true } });
  await serverApi(environments.gated.secretKey).patch("/environment", { rateLimits: { enabled: false } });
  const consenting = serverApi(environments.consenting.secretKey);
  await consenting.patch("/environment", {
    rateLimits: { enabled: false },
    legal: { requireConsent: true, termsUrl: "https://meadow.example/terms", privacyUrl: "https://meadow.example/privacy" },
  });

  // Every environment here is served on (or through PUBLIC_URL, which is) localhost:PORT: one callback URL.
  const idp = await startOidcProvider({ redirectUris: [`${run.baseUrl}/_svc/auth/oauth2/${PROVIDER_ID}/callback`], anyLogin: true });
  // Read by the workers (tests/e2e/support/oauth.ts), which Playwright starts after this with this environment.
  process.env.GH_E2E_IDP_ISSUER = idp.issuer;
  for (const api of [main, consenting]) {
    await api.post("/oauth-providers", {
      id: PROVIDER_ID,
      type: "oidc",
      name: PROVIDER_NAME,
      issuer: idp.issuer,
      clientId: idp.client.clientId,
      clientSecret: idp.client.clientSecret,
    });
  }

  return async () => {
    await idp.close();
    // The server is stopped after this; FORCE closes its connections to the run's database.
    if (run.adminUrl && run.databaseName) {
      const name = run.databaseName;
      await withAdmin(run.adminUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }
    fs.rmSync(run.runDir, { recursive: true, force: true });
  };
}
