"use server";

import { refresh } from "next/cache";
import { cookies } from "next/headers";
import { updateMeEndpoint } from "../../users/me-endpoints";
import { formText, successState, type FormState } from "../form-state";
import { messagesFor } from "../i18n/messages";
import { LOCALE_COOKIE, pickLocale } from "../locale";
import { runOperationAction } from "../run-action";

/** Profile names and preferred language (an empty choice means "automatic"). */
export async function updateProfileAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { firstName: formText(form, "firstName"), lastName: formText(form, "lastName"), locale: formText(form, "locale") };
  return runOperationAction(form, updateMeEndpoint, {
    describe: () => ({ fields: ["firstName", "lastName", "locale"], values }),
    input: () => ({ body: { firstName: values.firstName.trim() || null, lastName: values.lastName.trim() || null, locale: values.locale || null } }),
    then: async (user, context) => {
      refresh();
      // A new profile language may change the page's language: answer in the one the page will now use.
      const locale = pickLocale({
        chosen: (await cookies()).get(LOCALE_COOKIE)?.value,
        userLocale: user.locale,
        acceptLanguage: context.request.headers.get("accept-language"),
        defaultLocale: context.environment.settings.branding.defaultLocale,
      });
      return successState(messagesFor(locale).account.profile.saved, { values });
    },
  });
}
