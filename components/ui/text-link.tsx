import NextLink from "next/link";
import type { ReactNode } from "react";
import styles from "./text-link.module.css";

interface TextLinkProps {
  href: string;
  children: ReactNode;
  /** Opens in a new tab (documents such as terms), telling screen-reader users so. */
  external?: { newTabLabel: string };
  lang?: string;
}

/** An underlined link in the page's link colour; same-site paths navigate client-side. */
export function TextLink({ href, children, external, lang }: TextLinkProps) {
  if (external) {
    return (
      <a href={href} className={styles.link} target="_blank" rel="noopener noreferrer" lang={lang}>
        {children}
        <span className={styles.visuallyHidden}> {external.newTabLabel}</span>
      </a>
    );
  }
  if (/^https?:/i.test(href)) {
    return (
      <a href={href} className={styles.link} lang={lang}>
        {children}
      </a>
    );
  }
  return (
    <NextLink href={href} className={styles.link} lang={lang}>
      {children}
    </NextLink>
  );
}
