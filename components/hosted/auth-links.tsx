import type { ReactNode } from "react";
import styles from "./auth-links.module.css";

/** The secondary paths under an auth form ("forgot your password?", "create an account"). */
export function AuthLinks({ children }: { children: ReactNode }) {
  return <div className={styles.links}>{children}</div>;
}
