import { afterEach, describe, expect, it } from "vitest";
import type { EnvironmentContext } from "@/lib/environments/context";
import { readSettings } from "@/lib/environments/settings";
import { relyingParty } from "@/lib/passkeys/relying-party";

function environment(fields: Partial<EnvironmentContext> = {}): EnvironmentContext {
  return {
    id: "3c7d1f5e-8a4b-4c2d-9e1f-0a1b2c3d4e5f",
    applicationId: "3c7d1f5e-8a4b-4c2d-9e1f-0a1b2c3d4e50",
    name: "Acme",
    kind: "production",
    publishableKey: "pk_live_0123456789abcdefghij",
    frontendHosts: ["auth.acme.example", "login.acme.example"],
    allowedOrigins: [],
    settings: readSettings({ branding: { applicationName: "Acme Cloud" } }),
    ...fields,
  };
}

describe("the relying party of a request", () => {
  const saved = process.env.PUBLIC_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
  });

  it("on a frontend host: that host is the RP ID; its own origins under PUBLIC_URL's scheme are expected", () => {
    process.env.PUBLIC_URL = "https://gatehouse.example";
    const rp = relyingParty(environment(), "login.acme.example");
    expect(rp).toEqual({ id: "login.acme.example", name: "Acme Cloud", origins: ["https://login.acme.example"] });
  });

  it("the RP ID comes from the environment's stored host, never from the request: another name or a port it does not list falls back", () => {
    process.env.PUBLIC_URL = "https://gatehouse.example";
    expect(relyingParty(environment(), "evil.example").id).toBe("gatehouse.example");
    expect(relyingParty(environment(), "AUTH.ACME.EXAMPLE:8443").id).toBe("auth.acme.example");
  });

  it("reached by publishable key on Gatehouse's host: PUBLIC_URL's host and origin, and the frontend hosts under it", () => {
    process.env.PUBLIC_URL = "http://localhost:3000";
    const rp = relyingParty(environment({ frontendHosts: ["acme.localhost", "acme.example"] }), "localhost:3000");
    expect(rp.id).toBe("localhost");
    // acme.localhost may use RP ID localhost (a subdomain); acme.example never can.
    expect(rp.origins.sort()).toEqual(["http://acme.localhost:3000", "http://localhost:3000"]);
  });

  it("allowed origins count only on the RP ID or a subdomain of it, and only on the web", () => {
    process.env.PUBLIC_URL = "https://gatehouse.example";
    const rp = relyingParty(
      environment({
        frontendHosts: ["acme.example"],
        allowedOrigins: ["https://app.acme.example", "http://localhost:5173", "https://acme.example.evil.com", "https://evilacme.example", "myapp://acme.example"],
      }),
      "acme.example",
    );
    expect(rp.origins).toEqual(["https://acme.example", "https://app.acme.example"]);
  });

  it("a frontend host with its own port keeps it; one without takes PUBLIC_URL's", () => {
    process.env.PUBLIC_URL = "http://localhost:3000";
    const rp = relyingParty(environment({ frontendHosts: ["acme.localhost", "acme.localhost:8443"] }), "acme.localhost:8443");
    expect(rp.id).toBe("acme.localhost");
    expect(rp.origins).toEqual(["http://acme.localhost:3000", "http://acme.localhost:8443"]);
  });
});
