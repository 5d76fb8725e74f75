import { chooseLocaleAction } from "@/lib/hosted/actions/locale";
import { LOCALES, messagesFor, type Locale, type Messages } from "@/lib/hosted/i18n/messages";
import styles from "./hosted-shell.module.css";

/**
 * Language buttons, each named in its own language. A plain form post: the choice
 * is stored in a cookie and the same page comes back, with or without JavaScript.
 */
export function LocaleSwitcher({ locale, t, returnTo }: { locale: Locale; t: Messages; returnTo: string }) {
  return (
    <form action={chooseLocaleAction} className={styles.switcher} aria-label={t.common.changeLanguage}>
      <input type="hidden" name="returnTo" value={returnTo} />
      {LOCALES.map((option) => (
        <button
          key={option}
          type="submit"
          name="locale"
          value={option}
          lang={option}
          aria-pressed={option === locale}
          className={styles.localeButton}
        >
          {messagesFor(option).languageName}
        </button>
      ))}
    </form>
  );
}
