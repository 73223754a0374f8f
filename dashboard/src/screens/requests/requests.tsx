// Review requests, the section's first screen: send one request by e-mail, and the list of requests
// with their statuses. The section's other screens: sending from a CSV file (bulk.tsx), the
// statistics (stats.tsx), the settings (settings.tsx) and one request (request-page.tsx).
import { useState } from 'preact/hooks';
import type { Schemas } from '../../api.ts';
import { useAppPath } from '../../session.ts';
import { ErrorNotice, Notice, PageHeader } from '../../ui/components.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { RequestList } from './request-list.tsx';
import { SendOne } from './send-one.tsx';
import { RequestTabs } from './tabs.tsx';
import { useForms } from '../../ui/use-forms.ts';

type ReviewRequest = Schemas['ReviewRequest'];

export function Requests(_: { params: Record<string, string> }) {
  const forms = useForms();
  const [sent, setSent] = useState<ReviewRequest>();
  const [tick, setTick] = useState(0);
  const appPath = useAppPath();
  return (
    <>
      <PageHeader title='Review requests' />
      <RequestTabs />
      <p class='muted section-intro'>
        Ask your customers for a review by e-mail. Everyone gets the same message, whatever they might think of you: the
        star links open your review form with that rating chosen, and any rating can be given.
      </p>
      {sent && (
        <Notice tone='success'>
          {sent.status === 'failed'
            ? (
              <>
                The request to {sent.email} was stored but not sent: the address is on your suppression list.{' '}
                <a href={appPath(`/requests/${sent.id}`)}>See the request</a>
              </>
            )
            : (
              <>
                Review request to {sent.email} is queued
                {Date.parse(sent.send_at) > Date.now() + 60_000 ? ` for ${formatDateTime(sent.send_at)}` : ''}.{' '}
                <a href={appPath(`/requests/${sent.id}`)}>Follow its progress</a>
              </>
            )}
        </Notice>
      )}
      <ErrorNotice error={forms.error} />
      {forms.data && (
        <SendOne
          forms={forms.data.data}
          onSent={(r) => {
            setSent(r);
            setTick((t) => t + 1);
          }}
        />
      )}
      <RequestList forms={forms.data?.data ?? []} tick={tick} />
    </>
  );
}
