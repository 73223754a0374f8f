// One report: its kind (a notice of illegal content, or against the policy) and age, the review it
// is about, why it was reported, and its decision or the one-step form that records one: hide the
// review or keep it, with the reasons (mailed to a reporter who left an address).
import { api, type Schemas } from '../../api.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Badge, Stars } from '../../ui/components.tsx';
import { DecisionForm } from '../../ui/decision-form.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { actorLabel } from '../../ui/words.ts';
import { ageLabel, KIND_LABEL, reasonLabel } from './words.ts';

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
        <Badge tone={report.kind === 'illegal' ? 'bad' : 'plain'}>{KIND_LABEL[report.kind] ?? report.kind}</Badge>
        <span class='muted small'>
          reported {formatDateTime(report.created_at)}
          {report.status === 'open' && <>{' '}· waiting {ageLabel(report.created_at, Date.now())}</>}
        </span>
      </h2>
      {report.legal_ground && (
        <p class='report-ground'>
          <strong>Legal ground named:</strong> {report.legal_ground}
        </p>
      )}
      {report.details ? <p class='report-details'>“{report.details}”</p> : <p class='muted small'>No details given.</p>}
      <blockquote class='report-review'>
        <p>
          <Stars rating={review.rating} /> {review.title && <strong>{review.title}</strong>}{' '}
          {review.is_hidden && <Badge>hidden</Badge>}
        </p>
        <p class='report-content'>{review.content}</p>
        <footer class='muted small'>
          {review.reviewer_name} · <a href={appPath(`/reviews/${review.id}`)}>Open the review</a>
        </footer>
      </blockquote>
      {report.status === 'resolved'
        ? (
          <p class='report-resolution'>
            <strong>
              {report.decision === 'hidden' ? 'Hidden' : report.decision === 'kept' ? 'Kept' : 'Resolved'}
            </strong>{' '}
            {formatDateTime(report.resolved_at)} by {actorLabel(report.resolved_by ?? '', members)}: {report.resolution}
          </p>
        )
        : <ResolveForm report={report} onResolved={onResolved} />}
    </article>
  );
}

function ResolveForm({ report, onResolved }: { report: Report; onResolved: (r: Report) => void }) {
  const orgId = useOrgId();
  return (
    <DecisionForm
      id={report.id}
      name='decision'
      hint='Recorded with the decision and mailed to the visitor if they left an address; if you hide the review, they are its ground.'
      choices={[
        { value: 'hidden', label: 'Hide the review', tone: 'danger' },
        { value: 'kept', label: 'Keep the review' },
      ] as const}
      decide={async (decision, resolution) => {
        onResolved(
          await api.patch('/organizations/{orgId}/reports/{id}', {
            params: { orgId, id: report.id },
            body: { status: 'resolved', decision, resolution },
          }),
        );
      }}
    />
  );
}
