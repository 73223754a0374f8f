// One report: the review it is about, why it was reported, and its resolution or the form that
// records one. Resolving changes nothing of the review: hiding it is done on the review's page.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Badge, ErrorNotice, Stars } from '../../ui/components.tsx';
import { TextAreaField } from '../../ui/fields.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useAction } from '../../ui/hooks.ts';
import { actorLabel } from '../../ui/words.ts';
import { reasonLabel } from './words.ts';

type Report = Schemas['Report'];

export function ReportCard({ report, members, onResolved }: {
  report: Report;
  members: Map<string, string>;
  onResolved: (r: Report) => void;
}) {
  const appPath = useAppPath();
  const { review } = report;
  const heading = `report-${report.id}`;
  return (
    <article class='card report' aria-labelledby={heading}>
      <h2 id={heading} class='report-reason'>
        {reasonLabel(report.reason)}
        <span class='muted small'>reported {formatDateTime(report.created_at)}</span>
      </h2>
      {report.details ? <p class='report-details'>“{report.details}”</p> : <p class='muted small'>No details given.</p>}
      <blockquote class='report-review'>
        <p>
          <Stars rating={review.rating} /> {review.title && <strong>{review.title}</strong>}{' '}
          {review.is_hidden && <Badge>hidden</Badge>}
        </p>
        <p class='report-content'>{review.content}</p>
        <footer class='muted small'>
          {review.reviewer_name} · <a href={appPath(`/reviews/${review.id}`)}>Open the review to hide it or reply</a>
        </footer>
      </blockquote>
      {report.status === 'resolved'
        ? (
          <p class='report-resolution'>
            <strong>Resolved</strong> {formatDateTime(report.resolved_at)} by{' '}
            {actorLabel(report.resolved_by ?? '', members)}: {report.resolution}
          </p>
        )
        : <ResolveForm report={report} onResolved={onResolved} />}
    </article>
  );
}

function ResolveForm({ report, onResolved }: { report: Report; onResolved: (r: Report) => void }) {
  const orgId = useOrgId();
  const [resolution, setResolution] = useState('');
  const resolve = useAction(async () => {
    const r = await api.patch('/organizations/{orgId}/reports/{id}', {
      params: { orgId, id: report.id },
      body: { status: 'resolved', resolution: resolution.trim() },
    });
    onResolved(r);
  });
  return (
    <form
      class='report-resolve'
      onSubmit={(e) => {
        e.preventDefault();
        void resolve.run();
      }}
    >
      {resolve.error && !resolve.error.field('resolution') && <ErrorNotice error={resolve.error} />}
      <TextAreaField
        label='Resolution'
        name={`resolution-${report.id}`}
        error={resolve.error}
        hint='What you did about it: kept, hidden, asked the reviewer… The visitor is not told.'
        required
        maxLength={2000}
        rows={2}
        value={resolution}
        onValue={setResolution}
      />
      <button type='submit' class='button primary' disabled={resolve.pending}>Resolve</button>
    </form>
  );
}
