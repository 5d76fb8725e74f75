import { updateProfileAction } from "@/lib/hosted/actions/profile";
import { LOCALES, messagesFor, type Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { FormStatus } from "@/components/ui/form-status";
import { SelectField } from "@/components/ui/select-field";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { FormActions } from "@/components/ui/form-actions";
import styles from "./account.module.css";

interface ProfileSectionProps {
  t: Messages;
  flow: HostedFlow;
  user: { firstName: string | null; lastName: string | null; locale: string | null };
}

export function ProfileSection({ t, flow, user }: ProfileSectionProps) {
  const localeOptions = [
    { value: "", label: t.account.profile.localeAutomatic },
    ...LOCALES.map((locale) => ({ value: locale, label: messagesFor(locale).languageName, lang: locale })),
  ];
  return (
    <Card title={t.account.profile.title}>
      <ActionForm action={updateProfileAction} hidden={hostedFlowFields(flow)}>
        <div className={styles.columns}>
          <TextField name="firstName" label={t.fields.firstName} autoComplete="given-name" defaultValue={user.firstName ?? ""} />
          <TextField name="lastName" label={t.fields.lastName} autoComplete="family-name" defaultValue={user.lastName ?? ""} />
        </div>
        <SelectField name="locale" label={t.fields.locale} options={localeOptions} defaultValue={user.locale ?? ""} />
        <FormStatus />
        <FormActions>
          <SubmitButton>{t.account.profile.save}</SubmitButton>
        </FormActions>
      </ActionForm>
    </Card>
  );
}
