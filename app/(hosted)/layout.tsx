import type { ReactNode } from "react";

/**
 * The hosted pages' segment. Each page draws its own shell, because the branding
 * and language depend on the environment the page resolves; this layout exists
 * so that not-found.tsx here catches an unknown environment.
 */
export default function HostedLayout({ children }: { children: ReactNode }) {
  return children;
}
