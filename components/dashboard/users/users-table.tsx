import { TextLink } from "@/components/ui/text-link";
import type { DashboardMessages } from "@/lib/dashboard/i18n/messages";
import { dateTimeFormat } from "@/lib/hosted/format-date";
import type { Locale } from "@/lib/hosted/i18n/messages";
import { userHref, usersHref, type UserSearch } from "@/lib/dashboard/users/user-search";
import type { ServerUser } from "@/lib/users/schemas";
import { UserStatusBadge } from "./user-status-badge";
import styles from "./users.module.css";

interface Props {
  t: DashboardMessages;
  locale: Locale;
  environmentId: string;
  search: UserSearch;
  users: ServerUser[];
  nextCursor: string | null;
  filtered: boolean;
}

/** One keyset page of users, newest first, with a link to the next page (its cursor in the URL). */
export function UsersTable({ t, locale, environmentId, search, users, nextCursor, filtered }: Props) {
  const copy = t.users.table;
  const when = dateTimeFormat(locale);
  if (users.length === 0) {
    return (
      <p className={styles.muted} data-testid="users-empty">
        {filtered || search.cursor ? copy.empty : copy.emptyAll}
      </p>
    );
  }
  return (
    <>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <caption>{copy.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{copy.name}</th>
              <th scope="col">{copy.email}</th>
              <th scope="col">{copy.status}</th>
              <th scope="col">{copy.created}</th>
              <th scope="col">{copy.lastSignIn}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <tr key={user.id}>
                <th scope="row">
                  <TextLink href={userHref(environmentId, user.id)}>{user.name ?? user.email ?? copy.noName}</TextLink>
                </th>
                <td className={styles.mono}>{user.email ?? <span className={styles.muted}>{copy.noEmail}</span>}</td>
                <td>
                  <UserStatusBadge t={t} status={user.status} />
                </td>
                <td className={styles.nowrap}>{when.format(new Date(user.createdAt))}</td>
                <td className={styles.nowrap}>{user.lastSignInAt ? when.format(new Date(user.lastSignInAt)) : <span className={styles.muted}>{copy.never}</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label={copy.pagination} className={styles.pager}>
        {search.cursor ? <TextLink href={usersHref(environmentId, { ...search, cursor: "" })}>{copy.first}</TextLink> : null}
        {nextCursor ? <TextLink href={usersHref(environmentId, { ...search, cursor: nextCursor })}>{copy.next}</TextLink> : null}
      </nav>
    </>
  );
}
