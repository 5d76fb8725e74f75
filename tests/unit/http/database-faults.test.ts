import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { isConnectionFault } from "@/db/connection-faults";
import { AppError } from "@/lib/errors";
import { mayRetryAfterFault, serviceUnavailableFor } from "@/lib/http/database-faults";

const withCode = (code: string) => Object.assign(new Error(code), { code });
const wrapped = (cause: Error) => new DrizzleQueryError("select 1", [], cause);

describe("isConnectionFault", () => {
  it.each(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "ECONNRESET", "ECONNREFUSED", "EPIPE", "57P01", "57P02", "57P03", "08006", "08P01"])(
    "%s, also wrapped by drizzle, is a connection fault",
    (code) => {
      expect(isConnectionFault(withCode(code))).toBe(true);
      expect(isConnectionFault(wrapped(withCode(code)))).toBe(true);
    },
  );

  it.each(["23505", "40001", "57014", "42P01", "invalid_request"])("%s is not: the statement, not the connection, failed", (code) => {
    expect(isConnectionFault(wrapped(withCode(code)))).toBe(false);
  });

  it("an AppError, a plain Error and a non-error are not", () => {
    expect(isConnectionFault(new AppError("invalid_request", "bad"))).toBe(false);
    expect(isConnectionFault(new Error("boom"))).toBe(false);
    expect(isConnectionFault("ECONNRESET")).toBe(false);
    expect(isConnectionFault(null)).toBe(false);
  });
});

describe("database fault policy", () => {
  it("retries only safe methods, and only after a connection fault", () => {
    const fault = wrapped(withCode("CONNECTION_CLOSED"));
    expect(mayRetryAfterFault("GET", fault)).toBe(true);
    expect(mayRetryAfterFault("HEAD", fault)).toBe(true);
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) expect(mayRetryAfterFault(method, fault)).toBe(false);
    expect(mayRetryAfterFault("GET", wrapped(withCode("23505")))).toBe(false);
  });

  it("maps a connection fault to 503 service_unavailable with Retry-After, and nothing else", () => {
    const error = serviceUnavailableFor(wrapped(withCode("57P01")), "req_unit");
    expect(error?.code).toBe("service_unavailable");
    expect(error?.status).toBe(503);
    expect(Number(error?.headers?.["retry-after"])).toBeGreaterThan(0);
    expect(serviceUnavailableFor(new Error("boom"), "req_unit")).toBeNull();
  });
});
