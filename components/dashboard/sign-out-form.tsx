import { operatorSignOutAction } from "@/lib/dashboard/actions/sign-out";
import { Button } from "@/components/ui/button";

/** A plain form post: signs out with or without JavaScript. */
export function SignOutForm({ label }: { label: string }) {
  return (
    <form action={operatorSignOutAction}>
      <Button type="submit" variant="secondary" block>
        {label}
      </Button>
    </form>
  );
}
