import type { Branding } from "@/lib/hosted/branding";
import styles from "./hosted-shell.module.css";

/** The application's logo (when set) and name, at the top of every hosted page. */
export function BrandHeader({ branding }: { branding: Branding }) {
  return (
    <div className={styles.brand}>
      {branding.logoUrl ? (
        // A plain img: the logo is any URL the operator configured, which Next's image optimizer would have to fetch and allow-list.
        // eslint-disable-next-line @next/next/no-img-element
        <img src={branding.logoUrl} alt="" className={styles.logo} width={32} height={32} />
      ) : (
        <span className={styles.monogram} aria-hidden="true">
          {branding.applicationName.slice(0, 1).toUpperCase()}
        </span>
      )}
      <span className={styles.appName}>{branding.applicationName}</span>
    </div>
  );
}
