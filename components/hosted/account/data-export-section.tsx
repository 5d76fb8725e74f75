import { requestDataExportAction } from "@/lib/hosted/actions/data-export";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import styles from "./account.module.css";

interface DataRequestItem {
  id: string;
  status: keyof Messages["account"]["data"]["statuses"];
  createdAt: string;
}

interface DataExportSectionProps {
  t: Messages;
  flow: HostedFlow;
  appName: string;
  dates: Intl.DateTimeFormat;
  requests: DataRequestItem[];
}

/** "Download my data": request a JSON copy (emailed as a one-time link) and see earlier requests. */
export function DataExportSection({ t, flow, appName, dates, requests }: DataExportSectionProps) {
  const copy = t.account.data;
  return (
    <Card title={copy.title} lead={<p>{format(copy.lead, { app: appName })}</p>} id="data-export">
      {requests.length > 0 ? (
        <>
          <h3 className={styles.subheading}>{copy.history}</h3>
          <ul className={styles.list}>
            {requests.map((request) => (
              <li key={request.id} className={styles.item} data-testid="data-request">
                <div className={styles.itemMain}>
                  <span className={styles.itemTitle}>{copy.statuses[request.status]}</span>
                  <span className={styles.meta}>{format(copy.requestedAt, { date: dates.format(new Date(request.createdAt)) })}</span>
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <ActionForm action={requestDataExportAction} hidden={hostedFlowFields(flow)} aria-label={copy.title}>
        <FormStatus />
        <FormActions>
          <SubmitButton variant="secondary">{copy.request}</SubmitButton>
        </FormActions>
      </ActionForm>
    </Card>
  );
}
