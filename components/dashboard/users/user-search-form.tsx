import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { Button } from "@/components/ui/button";
import { TextLink } from "@/components/ui/text-link";
import type { DashboardMessages } from "@/lib/dashboard/i18n/messages";
import { STATUS_FILTERS, usersHref, type UserSearch } from "@/lib/dashboard/users/user-search";
import field from "@/components/ui/field.module.css";
import styles from "./users.module.css";

interface Props {
  t: DashboardMessages;
  environmentId: string;
  search: UserSearch;
  /** Field → message, from the operation's refusal of this search. */
  errors: Record<string, string>;
}

function DateField({ name, label, value, error }: { name: string; label: string; value: string; error?: string }) {
  const id = `user-search-${name}`;
  return (
    <div className={field.field}>
      <label htmlFor={id} className={field.label}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="date"
        defaultValue={value}
        className={field.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <p id={`${id}-error`} className={field.error}>
        {error}
      </p>
    </div>
  );
}

/**
 * The users list's search: a plain GET form, so a search is a URL (bookmarkable,
 * works without JavaScript) and every page of it one bounded operation.
 */
export function UserSearchForm({ t, environmentId, search, errors }: Props) {
  const copy = t.users.search;
  return (
    <form method="get" action="/dashboard/users" role="search" aria-label={copy.title} className={styles.searchForm}>
      <input type="hidden" name="env" value={environmentId} />
      <TextField name="name" label={copy.name} defaultValue={search.name} error={errors.name} autoComplete="off" />
      <TextField name="email" label={copy.email} defaultValue={search.email} error={errors.email} autoComplete="off" spellCheck={false} autoCapitalize="none" />
      <SelectField
        name="status"
        label={copy.status}
        defaultValue={search.status}
        options={STATUS_FILTERS.map((status) => ({ value: status, label: status === "any" ? copy.statusAny : t.users.statuses[status] }))}
      />
      <DateField name="after" label={copy.createdAfter} value={search.after} error={errors.createdAfter} />
      <DateField name="before" label={copy.createdBefore} value={search.before} error={errors.createdBefore} />
      <div className={styles.searchButtons}>
        <Button type="submit">{copy.submit}</Button>
        <TextLink href={usersHref(environmentId)}>{copy.clear}</TextLink>
      </div>
    </form>
  );
}
