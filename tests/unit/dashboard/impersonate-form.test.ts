import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { ImpersonateForm } from "@/components/dashboard/users/impersonate-form";
import { da } from "@/lib/dashboard/i18n/da";
import { en } from "@/lib/dashboard/i18n/en";
import { successState, type FormState } from "@/lib/hosted/form-state";

/* The Impersonate hand-off form once a token is minted: where it posts, and what the new tab may learn of the dashboard. */

const state: { current: FormState } = { current: successState("Ready") };

vi.mock("react", async (importOriginal) => ({ ...(await importOriginal<typeof import("react")>()), useActionState: () => [state.current, () => undefined, false] }));
vi.mock("@/lib/dashboard/actions/users", () => ({ impersonateUserAction: async () => state.current }));

function rendered(t = en): string {
  return renderToStaticMarkup(createElement(ImpersonateForm, { t, environmentId: "00000000-0000-4000-8000-000000000001", userId: "00000000-0000-4000-8000-000000000002" }));
}

describe("the Impersonate hand-off form", () => {
  it("regression: opens the landing with rel=\"noopener\" (not noreferrer, whose Origin: null the landing refuses) and names the origin it posts the token to, beside the button", () => {
    state.current = successState("Ready", { handoff: { action: "https://acme.example.test:8443/_svc/impersonation?x=1", fields: { token: "tok_secret" } } });
    const html = rendered();
    const handoff = /<form[^>]*target="_blank"[^>]*>/.exec(html)?.[0] ?? "";
    expect(handoff).toContain('action="https://acme.example.test:8443/_svc/impersonation?x=1"');
    expect(handoff).toContain('rel="noopener"');
    // The button keeps its accessible name; the origin is a separate text that describes it.
    const button = /<button[^>]*>Open as this user in a new tab<\/button>/.exec(html)?.[0] ?? "";
    const describedBy = /aria-describedby="([^"]+)"/.exec(button)?.[1];
    expect(describedBy).toBeTruthy();
    expect(html).toContain(`id="${describedBy}" class=`);
    expect(html).toMatch(new RegExp(`id="${describedBy}"[^>]*>Opens https://acme\\.example\\.test:8443</p>`));
    expect(rendered(da)).toContain("Åbner https://acme.example.test:8443");
  });

  it("shows no hand-off before a token is minted", () => {
    state.current = successState(null);
    expect(rendered()).not.toContain('target="_blank"');
  });
});
