import type { ReactNode } from "react";
import styles from "./form.module.css";

/** A row of buttons at the end of a form, wrapping on narrow screens; buttons keep their natural width. */
export function FormActions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>;
}
