import { describe, expect, it } from "vitest";
import { profileFromClaims, profileFromGitHub, providerEmail } from "@/lib/oauth/profile";

describe("profileFromClaims", () => {
  it("maps the standard claims and lower-cases the email", () => {
    expect(
      profileFromClaims({
        sub: "248289761001",
        email: "Jane.Doe@Example.COM",
        email_verified: true,
        name: "Jane Doe",
        given_name: "Jane",
        family_name: "Doe",
        picture: "https://lh3.example/photo.jpg",
        preferred_username: "jane",
      }),
    ).toEqual({
      subject: "248289761001",
      email: "jane.doe@example.com",
      emailVerified: true,
      name: "Jane Doe",
      firstName: "Jane",
      lastName: "Doe",
      picture: "https://lh3.example/photo.jpg",
      username: "jane",
    });
  });

  it("verified only on the boolean true: the string \"true\", 1, or a missing claim do not count (takeover by an unverified address)", () => {
    for (const value of ["true", 1, "yes", undefined, null, false]) {
      expect(profileFromClaims({ sub: "s", email: "a@b.example", email_verified: value })?.emailVerified, String(value)).toBe(false);
    }
    expect(profileFromClaims({ sub: "s", email_verified: true })?.emailVerified, "verified without an address").toBe(false);
  });

  it("Apple's documented string \"true\" counts only for a provider flagged for it", () => {
    expect(profileFromClaims({ sub: "s", email: "a@privaterelay.appleid.com", email_verified: "true" }, { stringBooleans: true })?.emailVerified).toBe(true);
    expect(profileFromClaims({ sub: "s", email: "a@privaterelay.appleid.com", email_verified: "false" }, { stringBooleans: true })?.emailVerified).toBe(false);
  });

  it("no subject, no profile; hostile values are dropped, not stored", () => {
    expect(profileFromClaims({ email: "a@b.example" })).toBeNull();
    expect(profileFromClaims({ sub: "" })).toBeNull();
    expect(profileFromClaims({ sub: 42 })).toBeNull();
    const hostile = profileFromClaims({ sub: "s", email: "not an address", picture: "javascript:alert(1)", name: "x".repeat(600), given_name: { a: 1 } });
    expect(hostile).toMatchObject({ email: null, emailVerified: false, picture: null, name: null, firstName: null });
    expect(profileFromClaims({ sub: "s", picture: "data:image/png;base64,AAAA" })?.picture).toBeNull();
  });
});

// Regression (review finding 3): provider addresses were only lower-cased, so the
// KELVIN SIGN's address folded into `ken@x.com` and was trusted as verified for it,
// an IDN address missed its stored A-label form, and `<a,b>@x.com` was kept.
describe("providerEmail: normalized like our own addresses", () => {
  it.each([
    ["Jane.Doe@Example.COM", "jane.doe@example.com"],
    ["ann@bücher.de", "ann@xn--bcher-kva.de"],
    ["Ann@Bücher.DE", "ann@xn--bcher-kva.de"],
    ["ann@xn--bcher-kva.de", "ann@xn--bcher-kva.de"],
    ["  jörg@example.com ", "jörg@example.com"],
  ])("%j is %j exactly", (raw, address) => {
    expect(providerEmail(raw)).toEqual({ address, exact: true });
  });

  it.each([
    ["\u212Aen@x.com", "ken@x.com"],
    ["jose\u0301@example.com", "jos\u00e9@example.com"],
    ["JÖRG@example.com", "jörg@example.com"],
    ["ann@BÜCHER.de", "ann@xn--bcher-kva.de"],
    ["ann@\u212Aen.example", "ann@ken.example"],
  ])("%j only folds into %j: kept, not exact", (raw, address) => {
    expect(providerEmail(raw)).toEqual({ address, exact: false });
  });

  it.each(["<a,b>@x.com", "a,b@x.com", '"a b"@x.com', "a(c)@x.com", "a@x", "a@1.2.3.4", "not an address", "", `${"a".repeat(250)}@x.com`, 42, null])(
    "%j is no mailbox: null",
    (raw) => {
      expect(providerEmail(raw)).toBeNull();
    },
  );

  it("an asserted address counts as verified only when the provider's spelling is exactly the kept one", () => {
    expect(profileFromClaims({ sub: "s", email: "\u212Aen@x.com", email_verified: true })).toMatchObject({ email: "ken@x.com", emailVerified: false });
    expect(profileFromClaims({ sub: "s", email: "ann@bücher.de", email_verified: true })).toMatchObject({ email: "ann@xn--bcher-kva.de", emailVerified: true });
    expect(profileFromClaims({ sub: "s", email: "<a,b>@x.com", email_verified: true })).toMatchObject({ email: null, emailVerified: false });
    const github = profileFromGitHub({ id: 1, login: "k" }, [{ email: "\u212Aen@x.com", primary: true, verified: true }]);
    expect(github).toMatchObject({ email: "ken@x.com", emailVerified: false });
  });
});

describe("profileFromGitHub", () => {
  it("the numeric id as the subject and the primary address, verified only when GitHub says so", () => {
    const emails = [
      { email: "Secondary@Example.com", primary: false, verified: true },
      { email: "Primary@Example.com", primary: true, verified: false },
    ];
    expect(profileFromGitHub({ id: 583231, login: "octocat", name: "The Octocat", avatar_url: "https://avatars.githubusercontent.com/u/583231" }, emails)).toEqual({
      subject: "583231",
      email: "primary@example.com",
      emailVerified: false,
      name: "The Octocat",
      firstName: "The",
      lastName: "Octocat",
      picture: "https://avatars.githubusercontent.com/u/583231",
      username: "octocat",
    });
  });

  it("no primary address: no email; an id that is not a safe integer: no profile", () => {
    expect(profileFromGitHub({ id: 1, login: "x" }, [{ email: "a@b.example", primary: false, verified: true }])).toMatchObject({ email: null, emailVerified: false });
    expect(profileFromGitHub({ id: "1", login: "x" }, [])).toBeNull();
    expect(profileFromGitHub({ id: 2 ** 60, login: "x" }, [])).toBeNull();
  });
});
