import { clientApi, latestEmail, type ClientApi } from "./client";
import { createUser, openSession, uniqueEmail, type newEnvironment } from "./fixtures";

export type TestEnvironment = Awaited<ReturnType<typeof newEnvironment>>;

/** A user of the environment signed in through a bearer session, with a Client API caller. */
export async function signedInUser(env: TestEnvironment, body: Record<string, unknown> = {}) {
  const email = uniqueEmail("org");
  const user = await createUser(env.api, { email, ...body });
  const { session, token } = await openSession(env.environmentId, user.id);
  const client: ClientApi = clientApi(env.publishableKey, { headers: { authorization: `Bearer ${token}` } });
  return { user, email, client, token, sessionId: session.id };
}

/** An organization created through the Client API by a fresh user, who is its owner. */
export async function organizationWithOwner(env: TestEnvironment, name = "Acme Inc") {
  const owner = await signedInUser(env);
  const res = await owner.client.post("/organizations", { name });
  if (res.status !== 201) throw new Error(`create organization answered ${res.status}: ${res.text}`);
  return { organization: res.body as { id: string; slug: string; name: string }, owner };
}

/** A fresh signed-in user added to the organization with `role` through the Server API. */
export async function memberWithRole(env: TestEnvironment, organizationId: string, role: string, body: Record<string, unknown> = {}) {
  const member = await signedInUser(env, body);
  const res = await env.api.post(`/organizations/${organizationId}/members`, { userId: member.user.id, role });
  if (res.status !== 201) throw new Error(`add member answered ${res.status}: ${res.text}`);
  return member;
}

/** The mail ticket: the `token` parameter of the link in the newest invitation email to an address. */
export async function emailedTicket(to: string): Promise<string> {
  const message = await latestEmail(to, "organization_invitation");
  const link = /https?:\/\/\S+\/invitations\/accept\?token=[^\s"<)\]]+/.exec(message.text)?.[0];
  if (!link) throw new Error(`no invitation link in: ${message.text}`);
  const ticket = new URL(link).searchParams.get("token");
  if (!ticket) throw new Error(`no ticket in ${link}`);
  return ticket;
}
