/**
 * The body of the next form of an oidc-provider development interaction page (login
 * or consent), as a browser would post it: the hidden `prompt`, and on the login
 * page the account to sign in as (any password). Shared by the tests' loopback
 * provider and the OAuth bench's.
 */
export function interactionForm(html: string, login: string): { action: string; fields: URLSearchParams } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !prompt) throw new Error(`no interaction form on the provider's page: ${html.slice(0, 200)}`);
  const fields = new URLSearchParams({ prompt });
  if (prompt === "login") {
    fields.set("login", login);
    fields.set("password", "any password");
  }
  return { action: action.replace(/&amp;/g, "&"), fields };
}
