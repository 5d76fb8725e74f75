import { useId, type ReactNode } from "react";
import styles from "./card.module.css";

interface CardProps {
  title: string;
  /** h1 for the page's card, h2 for sections of the account page. */
  level?: 1 | 2;
  lead?: ReactNode;
  children: ReactNode;
  id?: string;
  tone?: "default" | "danger";
}

/** A titled white panel; a labelled region for assistive technology. */
export function Card({ title, level = 2, lead, children, id, tone = "default" }: CardProps) {
  const titleId = useId();
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <section className={`${styles.card} ${tone === "danger" ? styles.danger : ""}`} aria-labelledby={titleId} id={id}>
      <Heading id={titleId} className={level === 1 ? styles.pageTitle : styles.title} tabIndex={-1}>
        {title}
      </Heading>
      {lead ? <div className={styles.lead}>{lead}</div> : null}
      {children}
    </section>
  );
}
