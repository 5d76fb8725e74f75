import { describe, expect, it } from "vitest";
import { ALL_OPERATIONS } from "@/lib/openapi/operations";
import { call } from "../helpers/api";

describe("GET /api/openapi.json", () => {
  it("documents every Server API operation with its schemas and errors", async () => {
    const res = await call("GET", "/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    for (const operation of ALL_OPERATIONS) {
      const documented = res.body.paths[operation.path]?.[operation.method];
      expect(documented, `${operation.method} ${operation.path}`).toBeDefined();
      expect(documented.operationId).toBe(operation.operationId);
      // Public operations (boot probe, discovery) never answer 401; every other one documents it.
      if (operation.auth !== "none" && operation.auth !== "anyClient") expect(documented.responses["401"], operation.operationId).toBeDefined();
    }
    const create = res.body.paths["/api/server/v1/users"].post;
    expect(create.requestBody.content["application/json"].schema).toBeDefined();
    expect(res.body.components.schemas.User.properties.privateMetadata).toBeDefined();
    expect(res.body.components.schemas.Problem).toBeDefined();
  });

  it("has a route handler for every documented operation", async () => {
    const { resolveRoute } = await import("../helpers/route-table");
    for (const operation of ALL_OPERATIONS) {
      const path = operation.path.replace(/\{\w+\}/g, "00000000-0000-4000-8000-000000000000");
      expect(await resolveRoute(operation.method, path), `${operation.method} ${operation.path}`).not.toBeNull();
    }
  });
});

describe("GET /api/reference", () => {
  it("serves a local reference page and its assets, no CDN", async () => {
    const page = await call("GET", "/api/reference");
    expect(page.status).toBe(200);
    expect(page.text).toContain("/api/reference/assets/swagger-ui-bundle.js");
    expect(page.text).not.toMatch(/https?:\/\//);
    const asset = await call("GET", "/api/reference/assets/swagger-ui-bundle.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toContain("javascript");
    expect((await call("GET", "/api/reference/assets/..%2Fpackage.json")).status).toBe(404);
  });
});

describe("unknown Server API paths", () => {
  it("answer 404 problem+json with a pointer to the reference", async () => {
    const res = await call("POST", "/api/server/v1/userz", { body: {} });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body.code).toBe("resource_not_found");
    expect(res.body.detail).toContain("/api/reference");
  });
});
