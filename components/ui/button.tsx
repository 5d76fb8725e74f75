import type { ButtonHTMLAttributes } from "react";
import styles from "./button.module.css";

export type ButtonVariant = "primary" | "secondary" | "danger" | "quiet";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Full width on every screen size (the main action of an auth card). */
  block?: boolean;
}

/** The one button: accent-coloured primary, outlined secondary, red danger, text-only quiet. */
export function Button({ variant = "primary", block, className, type = "button", ...props }: ButtonProps) {
  return <button type={type} className={`${styles.button} ${styles[variant]} ${block ? styles.block : ""} ${className ?? ""}`} {...props} />;
}
