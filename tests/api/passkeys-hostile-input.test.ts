import { isoCBOR } from "@simplewebauthn/server/helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { expectProblem } from "../helpers/api";
import { clientApi, type ClientApi } from "../helpers/client";
import { STRONG_PASSWORD } from "../helpers/fixtures";
import { enableTotp, passkeyUser } from "../helpers/passkeys";
import { SoftwareAuthenticator } from "../helpers/webauthn-authenticator";

/**
 * Malformed and hostile WebAuthn responses, table-driven: a shape the schema refuses
 * is 400 invalid_request; a well-formed response whose content is garbage is the
 * ceremony's own refusal. Never a 5xx (CONTRACT §4).
 */

const b64 = (value: string | Uint8Array) => Buffer.from(value).toString("base64url");
const clientData = (data: unknown) => b64(JSON.stringify(data));

type AttestationPart = string | Uint8Array | Map<string, never>;
/** A CBOR attestation object with these entries, base64url. */
const attestation = (...entries: [string, AttestationPart][]) => b64(isoCBOR.encode(new Map<string, AttestationPart>(entries)));
const noStatement = (): [string, AttestationPart] => ["attStmt", new Map<string, never>()];

type Assertion = ReturnType<SoftwareAuthenticator["assert"]>;
type Registration = ReturnType<SoftwareAuthenticator["register"]>;

/** Changes one part of a good response. */
const withAssertion = (good: Assertion, part: Partial<Assertion["response"]>, top: Record<string, unknown> = {}) => ({
  ...good,
  ...top,
  response: { ...good.response, ...part },
});
const withAttestation = (good: Registration, part: Record<string, unknown>, top: Record<string, unknown> = {}) => ({
  ...good,
  ...top,
  response: { ...good.response, ...part },
});

/** Bodies that are not a WebAuthn response at all: every response-taking endpoint refuses them with 400 invalid_request. */
const MALFORMED: [string, unknown][] = [
  ["no response", {}],
  ["a null response", { response: null }],
  ["a string response", { response: "response" }],
  ["an array response", { response: [] }],
  ["an empty response object", { response: {} }],
  ["no inner response", { response: { id: "AAAA", rawId: "AAAA", type: "public-key" } }],
  ["a password credential", { response: { id: "AAAA", rawId: "AAAA", type: "password", response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA", attestationObject: "AAAA" } } }],
  ["base64 (not base64url) in the id", { response: { id: "a+b/c", rawId: "a+b/c", type: "public-key", response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA", attestationObject: "AAAA" } } }],
  ["a number as clientDataJSON", { response: { id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: 7, authenticatorData: "AAAA", signature: "AAAA", attestationObject: "AAAA" } } }],
  ["a 60 KB clientDataJSON", { response: { id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: "A".repeat(60_000), authenticatorData: "AAAA", signature: "AAAA", attestationObject: "AAAA" } } }],
  ["a 2,000-character credential id", { response: { id: "A".repeat(2000), rawId: "A".repeat(2000), type: "public-key", response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA", attestationObject: "AAAA" } } }],
  ["an unknown top-level field", { response: { id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA", attestationObject: "AAAA" } }, admin: true }],
];

describe("hostile WebAuthn input", () => {
  let ctx: Awaited<ReturnType<typeof passkeyUser>> & { browser: ClientApi; mfaToken: string };
  beforeAll(async () => {
    const user = await passkeyUser();
    await enableTotp(user.environmentId, user.userId);
    const browser = clientApi(user.publishableKey);
    const login = await browser.post("/auth/login", { email: user.email, password: STRONG_PASSWORD });
    ctx = { ...user, browser, mfaToken: login.body.mfaToken };
  });

  const ENDPOINTS: [string, (body: Record<string, unknown>) => Promise<{ status: number; text: string }>][] = [
    ["POST /auth/passkey/verify", (body) => ctx.browser.post("/auth/passkey/verify", body)],
    ["POST /auth/mfa/passkey/verify", (body) => ctx.browser.post("/auth/mfa/passkey/verify", { mfaToken: ctx.mfaToken, ...body })],
    ["POST /auth/reverify/passkey", (body) => ctx.client.post("/auth/reverify/passkey", body)],
    ["POST /users/me/passkeys", (body) => ctx.client.post("/users/me/passkeys", body)],
  ];

  for (const [endpoint, send] of ENDPOINTS) {
    for (const [name, body] of MALFORMED) {
      it(`${endpoint}: ${name} → 400 invalid_request`, async () => {
        expectProblem((await send(body as Record<string, unknown>)) as never, 400, "invalid_request");
      });
    }
  }

  it("POST /auth/passkey/verify: well-formed garbage is refused like any failed sign-in (401), never a 5xx", async () => {
    const options = (await ctx.browser.post("/auth/passkey/options")).body.options;
    const good = ctx.authenticator.assert(options);
    const cases: [string, unknown][] = [
      ["clientDataJSON that is not JSON", withAssertion(good, { clientDataJSON: b64("not json") })],
      ["clientDataJSON that is a JSON array", withAssertion(good, { clientDataJSON: clientData([1, 2]) })],
      ["clientDataJSON that is JSON null", withAssertion(good, { clientDataJSON: clientData(null) })],
      ["a numeric challenge", withAssertion(good, { clientDataJSON: clientData({ type: "webauthn.get", challenge: 12345, origin: ctx.origin }) })],
      ["an object as the origin", withAssertion(good, { clientDataJSON: clientData({ type: "webauthn.get", challenge: options.challenge, origin: { href: ctx.origin } }) })],
      ["a cross-origin iframe's response", withAssertion(good, { clientDataJSON: clientData({ type: "webauthn.get", challenge: options.challenge, origin: ctx.origin, crossOrigin: true, topOrigin: "https://evil.example" }) })],
      ["a bogus token binding", withAssertion(good, { clientDataJSON: clientData({ type: "webauthn.get", challenge: options.challenge, origin: ctx.origin, tokenBinding: "yes" }) })],
      ["two bytes of authenticator data", withAssertion(good, { authenticatorData: "AAA" })],
      ["a one-byte signature", withAssertion(good, { signature: "AA" })],
      ["a 2 KB random signature", withAssertion(good, { signature: b64(new Uint8Array(1500).fill(0x30)) })],
      ["rawId different from id", withAssertion(good, {}, { rawId: b64("another credential") })],
      ["an unknown credential id", withAssertion(good, {}, { id: b64("x"), rawId: b64("x") })],
    ];
    for (const [name, response] of cases) {
      const res = await ctx.browser.post("/auth/passkey/verify", { response });
      expect(res.status, `${name}: ${res.text}`).toBe(401);
      expect(res.body.code, name).toBe("invalid_credentials");
    }
    // None of that spent the challenge: the genuine response still signs in.
    expect((await ctx.browser.post("/auth/passkey/verify", { response: good })).status).toBe(200);
  });

  it("POST /auth/mfa/passkey/verify: well-formed garbage is 400 invalid_code, never a 5xx", async () => {
    const user = await passkeyUser();
    await enableTotp(user.environmentId, user.userId);
    const browser = clientApi(user.publishableKey);
    const mfaToken = (await browser.post("/auth/login", { email: user.email, password: STRONG_PASSWORD })).body.mfaToken;
    const options = (await browser.post("/auth/mfa/passkey/options", { mfaToken })).body.options;
    const good = user.authenticator.assert(options);
    for (const response of [withAssertion(good, { clientDataJSON: b64("{") }), withAssertion(good, { authenticatorData: "AAAA" }), withAssertion(good, { signature: "AAAA" })]) {
      expectProblem(await browser.post("/auth/mfa/passkey/verify", { mfaToken, response }), 400, "invalid_code");
    }
    for (const mfaToken of [12, null, "", "x".repeat(600)]) {
      expectProblem(await browser.post("/auth/mfa/passkey/options", { mfaToken }), 400, "invalid_request");
    }
  });

  it("POST /users/me/passkeys: a well-formed response with garbage inside is 400 invalid_request, never a 5xx, and stores nothing", async () => {
    const options = (await ctx.client.post("/users/me/passkeys/registration-options")).body;
    const fresh = new SoftwareAuthenticator(ctx.origin);
    const good = fresh.register(options);
    const authData = new Uint8Array(37);
    const cases: [string, unknown][] = [
      ["an attestation object that is not CBOR", withAttestation(good, { attestationObject: b64("not cbor") })],
      ["CBOR that is not a map", withAttestation(good, { attestationObject: b64(isoCBOR.encode([1, 2, 3])) })],
      ["an attestation object with no authData", withAttestation(good, { attestationObject: attestation(["fmt", "none"], noStatement()) })],
      ["authData without attested credential data", withAttestation(good, { attestationObject: attestation(["fmt", "none"], noStatement(), ["authData", authData]) })],
      ["an unknown attestation format", withAttestation(good, { attestationObject: attestation(["fmt", "evil"], noStatement(), ["authData", authData]) })],
      ["clientDataJSON that is not JSON", withAttestation(good, { clientDataJSON: b64("][") })],
      ["a response id that is not the credential's", withAttestation(good, {}, { id: b64("other"), rawId: b64("other") })],
    ];
    for (const [name, response] of cases) {
      const res = await ctx.client.post("/users/me/passkeys", { response });
      expect(res.status, `${name}: ${res.text}`).toBe(400);
      expect(res.body.code, name).toBe("invalid_request");
    }
    expect((await ctx.client.get("/users/me/passkeys")).body.items).toHaveLength(1);
    // Transports a browser does not know of yet are left out, not refused.
    const res = await ctx.client.post("/users/me/passkeys", { response: withAttestation(good, { transports: ["usb", "teleport"] }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.transports).toEqual(["usb"]);
  });

  it("POST /users/me/passkeys: a key type it did not offer (RS1) is 400", async () => {
    const options = (await ctx.client.post("/users/me/passkeys/registration-options")).body;
    // The same ceremony with ES256 removed from what the server offers: the authenticator still answers with ES256.
    const response = new SoftwareAuthenticator(ctx.origin).register(options);
    const decoded = isoCBOR.decodeFirst<Map<string, Uint8Array>>(new Uint8Array(Buffer.from(response.response.attestationObject, "base64url")));
    const authData = Buffer.from(decoded.get("authData") ?? new Uint8Array());
    // The COSE key's alg (-7, CBOR 0x26) rewritten as RS1 (-65535), which nobody offers.
    const at = authData.indexOf(Buffer.from([0x03, 0x26]), 37 + 16 + 2 + 16);
    expect(at).toBeGreaterThan(0);
    const rewritten = Buffer.concat([authData.subarray(0, at + 1), Buffer.from([0x39, 0xff, 0xfe]), authData.subarray(at + 2)]);
    const attestationObject = attestation(["fmt", "none"], noStatement(), ["authData", new Uint8Array(rewritten)]);
    expectProblem(await ctx.client.post("/users/me/passkeys", { response: withAttestation(response, { attestationObject }) }), 400, "invalid_request");
  });

  it("PATCH /users/me/passkeys/{id}: wrong types for the name are 400", async () => {
    for (const body of [{ name: 12 }, { name: null }, { name: ["a"] }, {}, { name: "ok", extra: 1 }]) {
      expectProblem(await ctx.client.patch(`/users/me/passkeys/${ctx.passkey.id}`, body), 400, "invalid_request");
    }
  });
});
