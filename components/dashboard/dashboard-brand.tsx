import hosted from "@/components/hosted/hosted-shell.module.css";
import styles from "./dashboard.module.css";

/** "Gatehouse Dashboard", the mark at the top of every dashboard page, drawn like a hosted page's brand. */
export function DashboardBrand({ product, section }: { product: string; section: string }) {
  return (
    <div className={hosted.brand}>
      <span className={hosted.monogram} aria-hidden="true">
        {product.slice(0, 1)}
      </span>
      <span className={hosted.appName}>
        {product} <span className={styles.brandSection}>{section}</span>
      </span>
    </div>
  );
}
