import type { DashboardMessages } from "@/lib/dashboard/i18n/messages";
import type { DashboardEnvironment } from "@/lib/dashboard/environments";
import styles from "./dashboard.module.css";

/**
 * Chooses the environment every page of the dashboard acts in: a GET form, so the
 * choice is in the URL (`?env=`), shareable, and works without JavaScript.
 */
export function EnvironmentSwitcher({ t, environments, current }: { t: DashboardMessages; environments: DashboardEnvironment[]; current: string | null }) {
  if (environments.length === 0) return <p className={styles.muted}>{t.environments.none}</p>;
  return (
    <form method="get" action="/dashboard" className={styles.switcher}>
      <label htmlFor="environment-switcher" className={styles.switcherLabel}>
        {t.environments.label}
      </label>
      <div className={styles.switcherRow}>
        <select id="environment-switcher" name="env" defaultValue={current ?? undefined} className={styles.select}>
          {environments.map((environment) => (
            <option key={environment.environmentId} value={environment.environmentId}>
              {environment.applicationName === environment.name ? environment.name : `${environment.applicationName} / ${environment.name}`}
            </option>
          ))}
        </select>
        <button type="submit" className={styles.switchButton}>
          {t.environments.switch}
        </button>
      </div>
    </form>
  );
}
