import { executeOperation } from "../http/pipeline";
import { getMfaStatusEndpoint } from "../mfa/endpoints";
import type { AnyEndpoint, RawInput } from "../operation/endpoint";
import type { RequestContext } from "../operation/request-context";
import { ResponseEffects } from "../operation/response-effects";
import { SeeOther } from "../operation/see-other";
import { StreamedBody } from "../operation/streamed-body";
import type { OperatorAccount } from "../operators/operator-sessions";
import { listPasskeysEndpoint } from "../passkeys/endpoints";
import { isRecentlyVerified } from "../sessions/reverification";
import { retryReadOnce } from "../http/database-faults";
import { dashboardRequestContext } from "./dashboard-request";
import { currentOperatorAccount, signInRedirect } from "./operator-session";

type ResultOf<E extends AnyEndpoint> = Exclude<Awaited<ReturnType<E["handle"]>>, SeeOther | StreamedBody>;

/**
 * Runs a Client API operation on the signed-in operator's own account, which is a
 * user of the internal environment: the second-factor operations end-users run from
 * their account page (lib/mfa, lib/passkeys), through the very pipeline the route
 * kit uses, so their auth level (a recent sign-in for every factor change: 403
 * reverification_required), schemas, declared rate limits, rules and notices are
 * the end-users' own. The operation acts as the operator's user; events name them.
 */
export async function runOnOperatorAccount<E extends AnyEndpoint>(
  target: E,
  account: OperatorAccount,
  input: RawInput,
  context: RequestContext,
): Promise<ResultOf<E>> {
  const result = await executeOperation(target, { environment: account.environment, session: account.session, context }, input, new ResponseEffects());
  // These operations answer with a body; none of them sends a browser on.
  if (result instanceof SeeOther) throw new Error(`${target.operation.operationId} answered a redirect on an operator's account`);
  if (result instanceof StreamedBody) throw new Error(`${target.operation.operationId} answered a stream on an operator's account`);
  return result as ResultOf<E>;
}

/** The signed-in operator's account for a form's action; a signed-out browser goes to the sign-in page. */
export async function requireOperatorAccount(): Promise<OperatorAccount> {
  return (await currentOperatorAccount()) ?? signInRedirect();
}

/**
 * What /dashboard/account shows: the operator's second factors (read through the
 * Client API's own operations on their account), their passkeys, and whether their
 * sign-in is recent enough to change them (the internal environment's
 * reverification window, as for an end-user's sensitive changes).
 */
export async function loadOperatorSecurity() {
  const account = await requireOperatorAccount();
  const context = await dashboardRequestContext("GET");
  const [status, passkeys] = await retryReadOnce(() =>
    Promise.all([runOnOperatorAccount(getMfaStatusEndpoint, account, {}, context), runOnOperatorAccount(listPasskeysEndpoint, account, {}, context)]),
  );
  const { environment, session } = account;
  const windowSeconds = environment.settings.sessions.reverificationSeconds;
  return {
    operator: account.operator,
    status,
    passkeys: passkeys.items,
    recentSignIn: isRecentlyVerified(environment, session),
    reverificationMinutes: Math.round(windowSeconds / 60),
    applicationName: environment.settings.branding.applicationName,
  };
}

export type OperatorSecurity = Awaited<ReturnType<typeof loadOperatorSecurity>>;
