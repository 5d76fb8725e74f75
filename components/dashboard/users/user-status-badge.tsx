import { Badge } from "@/components/ui/badge";
import type { DashboardMessages } from "@/lib/dashboard/i18n/messages";
import type { ServerUser } from "@/lib/users/schemas";

/** A user's status as a badge: active reads calm, banned and deleted stand out. */
export function UserStatusBadge({ t, status }: { t: DashboardMessages; status: ServerUser["status"] }) {
  return <Badge tone={status === "active" ? "success" : status === "banned" ? "accent" : "neutral"}>{t.users.statuses[status]}</Badge>;
}
