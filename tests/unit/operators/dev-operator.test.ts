import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { DEV_OPERATOR_EMAIL, seedDevelopmentOperator } from "@/lib/operators/dev-operator";
import { listOperators } from "@/lib/operators/operators";
import { describeSignInLink, setOperatorPassword } from "@/lib/operators/sign-in-link";

const context = { requestId: "req_dev_operator", ip: "127.0.0.1", userAgent: "vitest", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
const tokenOf = (url: string) => new URL(url).searchParams.get("token") ?? "";

describe("seedDevelopmentOperator (the first development start's dashboard login)", () => {
  const saved = process.env.GATEHOUSE_MODE;
  afterEach(() => {
    if (saved === undefined) delete process.env.GATEHOUSE_MODE;
    else process.env.GATEHOUSE_MODE = saved;
  });

  it("regression: production seeds no operator, even without any", async () => {
    process.env.GATEHOUSE_MODE = "production";
    expect(await seedDevelopmentOperator(getDb())).toBeNull();
    expect(await listOperators(getDb())).toHaveLength(0);
  });

  it("creates an owner once, prints a fresh link on each start until the password is chosen, then only the login", async () => {
    process.env.GATEHOUSE_MODE = "development";
    const first = await seedDevelopmentOperator(getDb());
    expect(first).toMatchObject({ email: DEV_OPERATOR_EMAIL, created: true });
    expect((await listOperators(getDb())).map((row) => [row.email, row.role])).toEqual([[DEV_OPERATOR_EMAIL, "owner"]]);

    const second = await seedDevelopmentOperator(getDb());
    expect(second).toMatchObject({ email: DEV_OPERATOR_EMAIL, created: false });
    // Only the newest link works.
    expect(await describeSignInLink(getDb(), tokenOf(first?.signInLink?.url ?? ""))).toBeNull();
    const token = tokenOf(second?.signInLink?.url ?? "");
    expect(await describeSignInLink(getDb(), token)).toEqual({ email: DEV_OPERATOR_EMAIL });

    await setOperatorPassword(getDb(), { token, password: "correct horse battery staple" }, context);
    expect(await seedDevelopmentOperator(getDb())).toEqual({ email: DEV_OPERATOR_EMAIL, created: false, signInLink: null });
    expect(await listOperators(getDb())).toHaveLength(1);
  });
});
