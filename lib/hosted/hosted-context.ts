import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { linkBase, type LinkBase } from "../environments/environment-links";
import { findClientEnvironment, requestHost } from "../environments/resolve-client-environment";
import { retryReadOnce, serviceUnavailableFor } from "../http/database-faults";
import { findActiveSession, type ActiveSession } from "../sessions/resolve-session";
import { hostedRequest } from "./action-request";
import { brandingOf, type Branding } from "./branding";
import { messagesFor, type Locale, type Messages } from "./i18n/messages";
import { LOCALE_COOKIE, pickLocale } from "./locale";

/** Everything a hosted page or action needs about who is asking, where, and in which language. */
export interface HostedContext {
  environment: EnvironmentContext;
  session: ActiveSession | null;
  request: Request;
  locale: Locale;
  t: Messages;
  branding: Branding;
  /** The host this flow's links and redirects stay on (the frontend host it arrived on, else PUBLIC_URL with pk). */
  links: LinkBase;
}

async function resolveHostedContext(publishableKey: string | null, method: "GET" | "POST"): Promise<HostedContext | null> {
  const request = await hostedRequest(publishableKey, method);
  const db = getDb();
  const environment = await findClientEnvironment(db, request);
  if (!environment) return null;
  const session = await findActiveSession(db, environment, request);
  const locale = pickLocale({
    // Read through cookies(), not the request: a switcher action's new value is visible in the same render.
    chosen: (await cookies()).get(LOCALE_COOKIE)?.value,
    userLocale: session?.user.locale,
    acceptLanguage: request.headers.get("accept-language"),
    defaultLocale: environment.settings.branding.defaultLocale,
  });
  const links = linkBase(environment, requestHost(request));
  return { environment, session, request, locale, t: messagesFor(locale), branding: brandingOf(environment), links };
}

/**
 * A page's context, resolved once per render (generateMetadata and the page share
 * it through React's cache). No environment for this Host or pk is a 404, shown by
 * app/(hosted)/not-found.tsx; a database that stays unreachable through the retry
 * is shown by app/(hosted)/error.tsx.
 */
export const loadHostedPage = cache(async (publishableKey: string | null): Promise<HostedContext> => {
  const context = await retryReadOnce(() => resolveHostedContext(publishableKey, "GET")).catch((error: unknown) => {
    // Next logs what a page throws: the AppError's one line, not the failed query and its parameters.
    throw serviceUnavailableFor(error, "hosted-page") ?? error;
  });
  if (!context) notFound();
  return context;
});

/** A server action's context; null when the environment is unknown (the form shows an error). */
export function loadActionContext(publishableKey: string | null): Promise<HostedContext | null> {
  // Only reads (and the idempotent last-active touch): safe to run again after a dropped connection.
  return retryReadOnce(() => resolveHostedContext(publishableKey, "POST"));
}
