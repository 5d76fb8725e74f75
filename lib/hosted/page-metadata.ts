import type { Metadata } from "next";
import { loadHostedPage } from "./hosted-context";
import type { Messages } from "./i18n/messages";
import { hostedFlowFromSearch, type SearchParams } from "../flows/hosted-flow";

export interface HostedPageProps {
  searchParams: Promise<SearchParams>;
}

/** "<page> · <application>" in the page's language; hosted pages are never indexed. */
export async function hostedMetadata(props: HostedPageProps, title: (t: Messages) => string, extra: Metadata = {}): Promise<Metadata> {
  const context = await loadHostedPage(hostedFlowFromSearch(await props.searchParams).publishableKey);
  return { title: `${title(context.t)} · ${context.branding.applicationName}`, robots: { index: false, follow: false }, ...extra };
}
