"use server";

import { refresh } from "next/cache";
import { requestDataExportEndpoint } from "../../users/me-endpoints";
import { successState, type FormState } from "../form-state";
import { runOperationAction } from "../run-action";

/** "Request my data": the export is built in the background and a one-time download link emailed. */
export async function requestDataExportAction(_state: FormState, form: FormData): Promise<FormState> {
  return runOperationAction(form, requestDataExportEndpoint, {
    describe: () => ({ fields: [] }),
    input: () => ({}),
    then: async (_result, context) => {
      refresh();
      return successState(context.t.account.data.requested);
    },
  });
}
