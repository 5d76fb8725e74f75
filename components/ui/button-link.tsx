import type { ReactNode } from "react";
import type { ButtonVariant } from "./button";
import styles from "./button.module.css";

interface ButtonLinkProps {
  href: string;
  children: ReactNode;
  variant?: ButtonVariant;
  block?: boolean;
  /** Saves the target instead of opening it (`download` attribute), under this file name. */
  download?: string;
}

/**
 * A link that looks like a button: a navigation that is the page's next step
 * ("continue"), or a file to save. A full page load, never a client-side
 * transition, so the page it leaves keeps no state (shown-once codes).
 */
export function ButtonLink({ href, children, variant = "primary", block, download }: ButtonLinkProps) {
  return (
    <a href={href} download={download} className={`${styles.button} ${styles[variant]} ${block ? styles.block : ""}`}>
      {children}
    </a>
  );
}
