import { describe, expect, it } from "vitest";
import { profileFromClaims, profileFromGitHub } from "@/lib/oauth/profile";

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
