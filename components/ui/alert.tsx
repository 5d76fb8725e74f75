import type { ReactNode } from "react";
import styles from "./alert.module.css";

interface AlertProps {
  tone?: "info" | "success" | "error";
  title?: string;
  children: ReactNode;
  /** `status` or `alert` when the message appears in response to something the person did. */
  role?: "status" | "alert";
  id?: string;
}

/** A boxed message on the page (not a form's reply: that is FormStatus). */
export function Alert({ tone = "info", title, children, role, id }: AlertProps) {
  return (
    <div className={`${styles.alert} ${styles[tone]}`} role={role} id={id}>
      {title ? <p className={styles.title}>{title}</p> : null}
      <div>{children}</div>
    </div>
  );
}
