import type { RawInput } from "../../operation/endpoint";

/** Rows a page of the users list shows: one bounded keyset page, never a scan of the whole result. */
export const USER_PAGE_SIZE = 25;

/** The status filter's choices: "any" omits the filter (the Server API's tri-state "omitted"). */
export const STATUS_FILTERS = ["any", "active", "banned", "deleted"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/**
 * The users list's URL query, as typed: `name`, `email` (fragments), `status`,
 * `after`/`before` (dates, YYYY-MM-DD, or any instant the Server API accepts), and
 * `cursor` (the previous page's nextCursor). Empty means "not filtered".
 */
export interface UserSearch {
  name: string;
  email: string;
  status: StatusFilter;
  after: string;
  before: string;
  cursor: string;
}

type Search = Record<string, string | string[] | undefined>;

function one(search: Search, name: string): string {
  const value = search[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

export function readUserSearch(search: Search): UserSearch {
  const status = one(search, "status");
  return {
    name: one(search, "name"),
    email: one(search, "email"),
    status: (STATUS_FILTERS as readonly string[]).includes(status) ? (status as StatusFilter) : "any",
    after: one(search, "after"),
    before: one(search, "before"),
    cursor: one(search, "cursor"),
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A day of the form's date inputs as the instant the Server API's bound wants: the
 * start of the day for "created after", its last millisecond for "created before"
 * (both inclusive, UTC). Anything else goes to the operation as typed, whose schema
 * says what is wrong with it.
 */
function instant(value: string, end: boolean): string {
  if (!DATE.test(value)) return value;
  return `${value}T${end ? "23:59:59.999" : "00:00:00.000"}Z`;
}

/** searchUsers' input for the list's query: each empty filter omitted (tri-state "any"). */
export function searchUsersInput(search: UserSearch): RawInput {
  const body: Record<string, unknown> = {};
  if (search.name) body.name = search.name;
  if (search.email) body.email = search.email;
  if (search.status !== "any") body.statuses = [search.status];
  if (search.after) body.createdAfter = instant(search.after, false);
  if (search.before) body.createdBefore = instant(search.before, true);
  const query: Record<string, string> = { limit: String(USER_PAGE_SIZE) };
  if (search.cursor) query.cursor = search.cursor;
  return { body, query };
}

/** The list's URL for this search (without a cursor unless given one). */
export function usersHref(environmentId: string, search: Partial<UserSearch> = {}): string {
  const query = new URLSearchParams({ env: environmentId });
  for (const key of ["name", "email", "status", "after", "before", "cursor"] as const) {
    const value = search[key];
    if (value && !(key === "status" && value === "any")) query.set(key, value);
  }
  return `/dashboard/users?${query.toString()}`;
}

/** A user's page in the dashboard. */
export function userHref(environmentId: string, userId: string): string {
  return `/dashboard/users/${encodeURIComponent(userId)}?env=${encodeURIComponent(environmentId)}`;
}
