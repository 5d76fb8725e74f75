import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { publicUrl } from "@/lib/config/runtime";
import { createEnvironment } from "@/lib/environments/create-environment";
import { clientApi } from "../helpers/client";
import { uniqueEmail } from "../helpers/fixtures";
import type { LoopbackOidcProvider } from "../helpers/oidc-provider";
import { atProvider, follow, location, oauthEnvironments, type TestEnvironment } from "../helpers/oauth-flow";

let idp: LoopbackOidcProvider;
let env: TestEnvironment;

beforeAll(async () => {
  const setup = await oauthEnvironments(1);
  idp = setup.idp;
  env = setup.environments[0] as TestEnvironment;
  // Another environment serves on PUBLIC_URL's own host (as the development seed's does, and the e2e run's main one).
  await createEnvironment(getDb(), { name: "Owner of the public host", frontendHost: new URL(publicUrl()).host });
});

afterAll(async () => {
  await idp.close();
});

describe("a flow started with pk on PUBLIC_URL's host, which is also another environment's frontend host", () => {
  it("regression: the callback looked for the flow in the host's environment (PUBLIC_URL's host compared in another spelling) and answered oauth_state_invalid", async () => {
    const client = clientApi(env.publishableKey);
    const onPublicUrl = { host: new URL(publicUrl()).host };
    const providerUrl = location(await client.get("/auth/oauth2/idp/authorize", onPublicUrl));
    const callback = await atProvider(idp, providerUrl, idp.addAccount({ email: uniqueEmail("public-host"), emailVerified: true }).sub);
    expect(new URL(callback).host).toBe(new URL(publicUrl()).host);
    const res = await follow(client, callback, { ...onPublicUrl, "x-api-key": "" });
    expect(new URL(location(res), publicUrl()).searchParams.get("error")).toBeNull();
    expect((await client.get("/users/me")).status).toBe(200);
  });
});
