import type { ReactNode } from "react";
import styles from "./badge.module.css";

/** A small status label next to an item (Primary, Verified, This device). */
export function Badge({ tone = "neutral", children }: { tone?: "neutral" | "success" | "accent"; children: ReactNode }) {
  return <span className={`${styles.badge} ${styles[tone]}`}>{children}</span>;
}
