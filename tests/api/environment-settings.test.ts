import { describe, expect, it } from "vitest";
import { expectProblem, problemFields, type ServerApi } from "../helpers/api";
import { newEnvironment, uniqueEmail } from "../helpers/fixtures";

/**
 * CONTRACT §6 defaults ("at least these keys"); `branding.applicationName` is the
 * environment's name. Compared with toMatchObject: sections may grow more keys.
 */
function defaults(applicationName: string) {
  return {
    legal: { requireConsent: false, termsUrl: null, privacyUrl: null },
    signUp: { enabled: true, requireEmailVerification: true, captcha: { enabled: false } },
    passwordPolicy: { minLength: 8, maxLength: 256, rejectCommon: true },
    sessions: { lifetimeSeconds: 604800, inactivitySeconds: null, tokenLifetimeSeconds: 60 },
    rateLimits: { enabled: true },
    mfa: { required: false },
    organizations: { enabled: true, maxPerUser: 100, maxMembers: 10000 },
    branding: { applicationName, logoUrl: null, accentColor: null, defaultLocale: "en" },
    security: { frameAncestors: ["'none'"] },
    auditLog: { retentionDays: 365 },
  };
}

async function settingsOf(api: ServerApi) {
  const res = await api.get("/environment");
  expect(res.status).toBe(200);
  return res.body;
}

async function patchSettings(api: ServerApi, body: unknown) {
  const res = await api.patch("/environment", body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("GET /api/server/v1/environment", () => {
  it("returns the settings with the contract's defaults", async () => {
    const { api } = await newEnvironment();
    const settings = await settingsOf(api);
    expect(settings).toMatchObject(defaults(settings.branding.applicationName));
    expect(Object.keys(settings).sort()).toEqual(Object.keys(defaults("")).sort());
    expect(settings.branding.applicationName).toMatch(/^Test app \d+$/);
  });
});

describe("PATCH /api/server/v1/environment", () => {
  it("deep-merges a partial object, returns the result and keeps it", async () => {
    const { api } = await newEnvironment();
    const before = await settingsOf(api);
    const after = await patchSettings(api, {
      passwordPolicy: { minLength: 12 },
      branding: { accentColor: "#4f46e5" },
      signUp: { captcha: { enabled: true } },
    });
    // Exactly the three leaves changed; every sibling at every level is as before.
    const expected = structuredClone(before);
    expected.passwordPolicy.minLength = 12;
    expected.branding.accentColor = "#4f46e5";
    expected.signUp.captcha.enabled = true;
    expect(after).toEqual(expected);
    expect(await settingsOf(api)).toEqual(after);
  });

  it("an empty patch changes nothing", async () => {
    const { api } = await newEnvironment();
    const before = await settingsOf(api);
    expect(await patchSettings(api, {})).toEqual(before);
    expect(await patchSettings(api, { legal: {} })).toEqual(before);
  });

  it("null resets a key to its default", async () => {
    const { api } = await newEnvironment();
    const name = (await settingsOf(api)).branding.applicationName;
    await patchSettings(api, {
      passwordPolicy: { minLength: 14, rejectCommon: false },
      sessions: { inactivitySeconds: 3600, tokenLifetimeSeconds: 120 },
      branding: { logoUrl: "https://cdn.example.com/logo.png", defaultLocale: "da" },
    });
    const reset = await patchSettings(api, {
      passwordPolicy: { minLength: null },
      sessions: { inactivitySeconds: null },
      branding: { logoUrl: null },
    });
    expect(reset.passwordPolicy).toMatchObject({ minLength: 8, maxLength: 256, rejectCommon: false });
    expect(reset.sessions).toMatchObject({ lifetimeSeconds: 604800, inactivitySeconds: null, tokenLifetimeSeconds: 120 });
    expect(reset.branding).toMatchObject({ applicationName: name, logoUrl: null, accentColor: null, defaultLocale: "da" });
  });

  it("null on a whole section resets every key in it", async () => {
    const { api } = await newEnvironment();
    await patchSettings(api, { passwordPolicy: { minLength: 20, maxLength: 64, rejectCommon: false }, mfa: { required: true } });
    const reset = await patchSettings(api, { passwordPolicy: null });
    expect(reset.passwordPolicy).toMatchObject({ minLength: 8, maxLength: 256, rejectCommon: true });
    expect(reset.mfa).toMatchObject({ required: true });
  });

  it("refuses unknown keys at the top and nested, with invalid_request, and changes nothing", async () => {
    const { api } = await newEnvironment();
    const before = await settingsOf(api);
    for (const body of [
      { unknownSection: true },
      { passwordPolicy: { minLength: 10, requireSymbols: true } },
      { signUp: { captcha: { enabled: true, provider: "x" } } },
      { rateLimits: { enabled: true, perMinute: 100 } },
    ]) {
      expectProblem(await api.patch("/environment", body), 400, "invalid_request");
    }
    expect(await settingsOf(api)).toEqual(before);
  });

  it("refuses wrong types and out-of-range values, naming the field", async () => {
    const { api } = await newEnvironment();
    const before = await settingsOf(api);
    const cases: [unknown, string][] = [
      [{ passwordPolicy: { minLength: "12" } }, "passwordPolicy.minLength"],
      [{ passwordPolicy: { minLength: 4 } }, "passwordPolicy.minLength"],
      [{ passwordPolicy: { minLength: 12.5 } }, "passwordPolicy.minLength"],
      [{ passwordPolicy: { maxLength: 5000 } }, "passwordPolicy.maxLength"],
      [{ passwordPolicy: { minLength: 100, maxLength: 50 } }, "passwordPolicy.minLength"],
      [{ sessions: { lifetimeSeconds: 10 } }, "sessions.lifetimeSeconds"],
      [{ sessions: { tokenLifetimeSeconds: 86400 } }, "sessions.tokenLifetimeSeconds"],
      [{ mfa: { required: "yes" } }, "mfa.required"],
      [{ mfa: true }, "mfa"],
      [{ organizations: { maxMembers: 0 } }, "organizations.maxMembers"],
      [{ organizations: { enabled: "no" } }, "organizations.enabled"],
      [{ legal: { termsUrl: "javascript:alert(1)" } }, "legal.termsUrl"],
      [{ legal: { termsUrl: "not a url" } }, "legal.termsUrl"],
      [{ branding: { accentColor: "red" } }, "branding.accentColor"],
      [{ branding: { defaultLocale: "fr" } }, "branding.defaultLocale"],
      [{ branding: { applicationName: "   " } }, "branding.applicationName"],
      [{ branding: { logoUrl: "ftp://example.com/logo.png" } }, "branding.logoUrl"],
    ];
    for (const [body, field] of cases) {
      const res = await api.patch("/environment", body);
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res)).toContain(field);
    }
    expect(await settingsOf(api)).toEqual(before);
  });

  it("refuses a body that is not an object", async () => {
    const { api } = await newEnvironment();
    for (const body of [[], "settings", 1, true]) {
      expectProblem(await api.patch("/environment", body), 400, "invalid_request");
    }
  });

  it("requiring legal consent needs a document to consent to", async () => {
    const { api } = await newEnvironment();
    const res = await api.patch("/environment", { legal: { requireConsent: true } });
    expectProblem(res, 400, "invalid_request");
    expect(problemFields(res)).toContain("legal.termsUrl");
    const ok = await patchSettings(api, { legal: { requireConsent: true, termsUrl: "https://example.com/terms" } });
    expect(ok.legal).toEqual({ requireConsent: true, termsUrl: "https://example.com/terms", privacyUrl: null });
    // Removing the last document while consent is required is refused too.
    expectProblem(await api.patch("/environment", { legal: { termsUrl: null } }), 400, "invalid_request");
  });

  describe("rateLimits.enabled", () => {
    it("can be switched off in a development environment", async () => {
      const { api } = await newEnvironment({ kind: "development" });
      expect((await patchSettings(api, { rateLimits: { enabled: false } })).rateLimits.enabled).toBe(false);
      expect((await settingsOf(api)).rateLimits.enabled).toBe(false);
      expect((await patchSettings(api, { rateLimits: null })).rateLimits.enabled).toBe(true);
    });

    it("cannot be switched off in a production (pk_live_) environment", async () => {
      const { api, publishableKey, secretKey } = await newEnvironment({ kind: "production" });
      expect(publishableKey).toMatch(/^pk_live_/);
      expect(secretKey).toMatch(/^sk_live_/);
      const res = await api.patch("/environment", { rateLimits: { enabled: false }, mfa: { required: true } });
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res)).toEqual(["rateLimits.enabled"]);
      const settings = await settingsOf(api);
      expect(settings.rateLimits.enabled).toBe(true);
      expect(settings.mfa).toEqual({ required: false });
      // Other settings of a production environment can still change.
      expect((await patchSettings(api, { mfa: { required: true }, rateLimits: { enabled: true } })).mfa).toEqual({ required: true });
    });
  });

  it("the password policy applies to the next user created", async () => {
    const { api } = await newEnvironment();
    const tenChars = "zebra-quilt";
    expect((await api.post("/users", { email: uniqueEmail(), password: tenChars })).status).toBe(201);
    await patchSettings(api, { passwordPolicy: { minLength: 16 } });
    const res = await api.post("/users", { email: uniqueEmail(), password: tenChars });
    expectProblem(res, 400, "password_too_weak");
    expect(res.body.detail).toContain("16");
    await patchSettings(api, { passwordPolicy: { rejectCommon: false, minLength: 8 } });
    expect((await api.post("/users", { email: uniqueEmail(), password: "password" })).status).toBe(201);
  });

  it("refuses a top-level __proto__ key like any unknown key (regression: it was dropped silently with 200)", async () => {
    const { api } = await newEnvironment({ kind: "production" });
    const before = await settingsOf(api);
    const res = await api.raw("PATCH", "/environment", {
      rawBody: '{"__proto__":{"rateLimits":{"enabled":false}}}',
      headers: { "content-type": "application/json" },
    });
    expectProblem(res, 400, "invalid_request");
    expect(await settingsOf(api)).toEqual(before);
    expect(({} as Record<string, unknown>).rateLimits).toBeUndefined();
  });

  it("refuses a nested __proto__ key", async () => {
    const { api } = await newEnvironment();
    const before = await settingsOf(api);
    const res = await api.raw("PATCH", "/environment", {
      rawBody: '{"legal":{"__proto__":{"requireConsent":true}}}',
      headers: { "content-type": "application/json" },
    });
    expectProblem(res, 400, "invalid_request");
    expect(await settingsOf(api)).toEqual(before);
  });

  it("each environment has its own settings", async () => {
    const a = await newEnvironment();
    const b = await newEnvironment();
    await patchSettings(a.api, { mfa: { required: true } });
    expect((await settingsOf(a.api)).mfa).toEqual({ required: true });
    expect((await settingsOf(b.api)).mfa).toEqual({ required: false });
  });
});

describe("security.frameAncestors", () => {
  it("takes 'none', 'self' or origins, stores origins normalised, and refuses anything else", async () => {
    const { api } = await newEnvironment();
    expect((await patchSettings(api, { security: { frameAncestors: ["'self'", "HTTPS://App.Example.com:443", "http://localhost:3000"] } })).security).toEqual({
      frameAncestors: ["'self'", "https://app.example.com", "http://localhost:3000"],
    });
    for (const frameAncestors of [[], ["*"], ["https://*.example.com"], ["javascript:alert(1)"], ["https://app.example.com/path"], ["'none'", "'self'"], ["none"], "'none'"]) {
      const res = await api.patch("/environment", { security: { frameAncestors } });
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res).some((field) => field.startsWith("security.frameAncestors")), JSON.stringify(frameAncestors)).toBe(true);
    }
    expect((await patchSettings(api, { security: { frameAncestors: null } })).security.frameAncestors).toEqual(["'none'"]);
  });
});
