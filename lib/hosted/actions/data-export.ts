"use server";

import { refresh } from "next/cache";
import { getDb } from "@/db/client";
import { enforceRateLimit } from "../../rate-limit/enforce";
import { requestDataExport } from "../../users/data-requests";
import { requestDataExportOperation } from "../../users/me-operations";
import { successState, type FormState } from "../form-state";
import { runSessionAction } from "../run-action";

/** "Request my data": the lib builds the export in the background and emails a one-time download link. */
export async function requestDataExportAction(_state: FormState, form: FormData): Promise<FormState> {
  return runSessionAction(form, requestDataExportOperation, () => ({ fields: [] }), async (context) => {
    await enforceRateLimit(getDb(), context.environment, "emailSends", context.request, context.session.user.id);
    await requestDataExport(getDb(), context.environment, context.session, context.actor);
    refresh();
    return successState(context.t.account.data.requested);
  });
}
