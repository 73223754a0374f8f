// One review as its organization sees it: whether the public sees it (published, hidden, or not
// public yet: pending, held at submission, or rejected), the text and answers, how it was verified,
// the moderation trail, and what a member can do: approve or reject a pending review (a held one
// once its hold is released), hide or show it with a reason, its photos and videos
// (ui/review-media.tsx), and reply in public once it is published.
import { useState } from 'preact/hooks';
import { api, type ItemIds, type Review } from '../api.ts';
import { useAppPath, useOrgId } from '../session.ts';
import { Badge, ErrorNotice, Field, Loading, Notice, Stars } from '../ui/components.tsx';
import { TextAreaField, TextField } from '../ui/fields.tsx';
import { formatDateTime } from '../ui/format.ts';
import { type Held, HeldReason, holdOpen, useHeld } from '../ui/held-reason.tsx';
import { useAction, useLoad } from '../ui/hooks.ts';
import { incentiveWords } from '../ui/incentive.ts';
import { ReviewMedia, trailReason } from '../ui/review-media.tsx';
import { VerificationBadge } from '../ui/review-list.tsx';
import {
  ACTION_LABEL,
  actorLabel,
  METHOD_LABEL,
  type PublicState,
  publicState,
  publicStateBadge,
  sourceWords,
} from '../ui/words.ts';

export function ReviewPage({ params }: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const ids: ItemIds = { orgId, id: params.id };
  const review = useLoad(
    (signal) => api.get('/organizations/{orgId}/reviews/{id}', { params: ids, signal }),
    [orgId, params.id],
  );
  const trail = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/reviews/{id}/moderation-history', { params: ids, query: { limit: 100 }, signal }),
    [orgId, params.id],
  );
  const members = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/members', { params: { orgId }, query: { limit: 100 }, signal }).catch(() => null),
    [orgId],
  );
  const held = useHeld(review.data);
  const names = new Map((members.data?.data ?? []).map((m) => [m.id, m.name || m.email]));
  const [notice, setNotice] = useState('');

  const changed = (r: Review, what: string) => {
    review.set(r);
    trail.reload();
    setNotice(what);
  };

  if (review.error) {
    return (
      <>
        <h1 tabIndex={-1}>Review</h1>
        <ErrorNotice error={review.error} />
        <p>
          <a href={appPath('/reviews')}>Back to the reviews</a>
        </p>
      </>
    );
  }
  if (!review.data) return <Loading what='Loading the review' />;
  const r = review.data;
  const badge = publicStateBadge(publicState(r), Boolean(held.data));
  // Who decided, for a decision made by a person or a key: the trail's entry of that decision.
  const decidedBy = trail.data?.data.find((e) => ['verify', 'approve', 'reject'].includes(e.action));

  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/reviews')}>Reviews</a>
      </p>
      <header class='page-header'>
        <h1 tabIndex={-1}>{r.title || `Review by ${r.reviewer_name}`}</h1>
      </header>
      {notice && <Notice tone='success'>{notice}</Notice>}
      <ErrorNotice error={held.error} />
      {held.data && (
        <HeldReason
          held={held.data}
          onReleased={() => {
            held.reload();
            trail.reload();
            setNotice('The hold is released: new reviews publish as usual. Approve or reject this review.');
          }}
        />
      )}
      <div class='review-grid'>
        <article class='card review-card'>
          <p class='review-row-head'>
            <Stars rating={r.rating} />
            <VerificationBadge status={r.verification_status} />
            <Badge tone={badge.tone}>{badge.label}</Badge>
          </p>
          <p class='review-text'>{r.content}</p>
          <dl class='facts'>
            <dt>Reviewer</dt>
            <dd>
              {r.reviewer_name} · {r.reviewer_email
                ? <a href={`mailto:${r.reviewer_email}`}>{r.reviewer_email}</a>
                : <span class='muted'>address erased at the reviewer's request</span>}
            </dd>
            <dt>Written</dt>
            <dd>{formatDateTime(r.created_at)}</dd>
            <dt>Source</dt>
            <dd>{sourceWords(r.source, r.source_platform)}</dd>
            <dt>Incentive</dt>
            <dd>{r.incentive ? `${incentiveWords(r.incentive)} (labelled as incentivized in public)` : 'None'}</dd>
            <dt>About</dt>
            <dd>
              {r.product
                ? (
                  <>
                    <a href={appPath(`/products/${r.product.id}`)}>{r.product.name}</a>{' '}
                    <span class='muted small'>({r.product.external_id})</span>
                  </>
                )
                : 'Your business'}
            </dd>
            {orderOf(r) && (
              <>
                <dt>Order</dt>
                <dd>
                  <a href={appPath(`/orders/${encodeURIComponent(orderOf(r)!)}`)}>{orderOf(r)}</a>
                </dd>
              </>
            )}
            {Object.entries(r.custom_fields).map(([k, v]) => (
              <>
                <dt key={`k-${k}`}>{k}</dt>
                <dd key={`v-${k}`}>{typeof v === 'boolean' ? (v ? 'Yes' : 'No') : String(v)}</dd>
              </>
            ))}
            {r.verification_method && (
              <>
                <dt>{r.verification_status === 'rejected' ? 'How it was rejected' : 'How it was verified'}</dt>
                <dd>
                  {r.verification_method === 'manual'
                    ? `${r.verification_status === 'rejected' ? 'Rejected' : 'Approved'} by ${
                      decidedBy ? actorLabel(decidedBy.actor, names) : 'your team'
                    }`
                    : METHOD_LABEL[r.verification_method]}
                  {r.verification_at && `, ${formatDateTime(r.verification_at)}`}
                  {decidedBy?.reason && ` (${decidedBy.reason})`}
                </dd>
              </>
            )}
          </dl>
          <ReviewMedia review={r} ids={ids} onChange={changed} />
          {repliable(r) ? <Reply review={r} ids={ids} onChange={changed} /> : (
            <p class='muted small reply'>
              {r.verification_status === 'pending'
                ? 'You can reply in public once the review is published.'
                : 'A rejected review is never public, so it takes no public reply.'}
            </p>
          )}
        </article>
        <aside class='side'>
          {r.verification_status === 'pending' && <Decide review={r} held={held.data} onChange={changed} />}
          <Visibility review={r} ids={ids} onChange={changed} />
          <section class='card'>
            <h2>Trail</h2>
            <ErrorNotice error={trail.error} />
            {trail.data && trail.data.data.length === 0 && <p class='muted'>No change yet.</p>}
            {trail.data && (
              <ol class='trail'>
                {trail.data.data.map((e) => (
                  <li key={e.id}>
                    <strong>{ACTION_LABEL[e.action] ?? e.action}</strong> · {formatDateTime(e.created_at)}
                    <br />
                    <span class='muted'>{actorLabel(e.actor, names)}</span>
                    {e.reason && <p class='trail-reason'>{trailReason(e.reason, r.media)}</p>}
                  </li>
                ))}
              </ol>
            )}
          </section>
        </aside>
      </div>
    </>
  );
}

type Changed = (r: Review, what: string) => void;

function Decide({ review, held, onChange }: { review: Review; held: Held | null | undefined; onChange: Changed }) {
  const orgId = useOrgId();
  const [reason, setReason] = useState('');
  const act = useAction(async (decision: 'approve' | 'reject') => {
    const r = await api.post(`/organizations/{orgId}/verification/${decision}`, {
      params: { orgId },
      body: { review_id: review.id, reason: reason.trim() || undefined },
    });
    onChange(r, decision === 'approve' ? 'The review is approved and verified.' : 'The review is rejected.');
  });
  if (holdOpen(held)) {
    return (
      <section class='card'>
        <h2>Held for a check</h2>
        <p class='muted small'>Approve or reject it once its hold is released (above).</p>
      </section>
    );
  }
  return (
    <section class='card'>
      <h2>{held ? 'Held for a check' : 'Awaiting verification'}</h2>
      <p class='muted small'>
        {held
          ? 'Approve it to publish it when you are sure it is genuine; a rejected review is never public.'
          : 'Approve it when you know the reviewer is a real customer; a rejected review is never public.'}
      </p>
      <ErrorNotice error={act.error} />
      <Field label='Reason (optional)' name='decision-reason'>
        {(p) => <input {...p} maxLength={1000} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />}
      </Field>
      <div class='actions'>
        <button type='button' class='button primary' disabled={act.pending} onClick={() => void act.run('approve')}>
          {review.is_hidden ? 'Approve' : 'Approve and publish'}
        </button>
        <button type='button' class='button danger' disabled={act.pending} onClick={() => void act.run('reject')}>
          Reject
        </button>
      </div>
    </section>
  );
}

function Visibility({ review, ids, onChange }: { review: Review; ids: ItemIds; onChange: Changed }) {
  const [reason, setReason] = useState('');
  const action = review.is_hidden ? 'unhide' : 'hide';
  const [heading, hint] = VISIBILITY[publicState(review)];
  const act = useAction(async () => {
    const r = await api.patch('/organizations/{orgId}/reviews/{id}/moderate', {
      params: ids,
      body: { action, reason: reason.trim() },
    });
    setReason('');
    onChange(r, action === 'hide' ? 'The review is hidden from the public.' : 'The review is public again.');
  });
  // A rejected review is never public: there is nothing to hide.
  const hideable = publicState(review) !== 'rejected';
  return (
    <section class='card'>
      <h2>{heading}</h2>
      {hint && <p class='muted small'>{hint}</p>}
      {hideable && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act.run();
          }}
        >
          {act.error && !act.error.field('reason') && <ErrorNotice error={act.error} />}
          <TextField
            label={review.is_hidden ? 'Why show it again' : 'Why hide it'}
            name='reason'
            error={act.error}
            hint='Kept in the trail, and shown by reason on your public transparency page. The review itself is never deleted.'
            required
            maxLength={1000}
            value={reason}
            onValue={setReason}
          />
          <button type='submit' class={`button ${action === 'hide' ? 'danger' : 'primary'}`} disabled={act.pending}>
            {action === 'hide' ? 'Hide review' : 'Show review'}
          </button>
        </form>
      )}
    </section>
  );
}

/** The visibility card's heading and what it adds: what the public sees of the review now. */
const VISIBILITY: Record<PublicState, [heading: string, hint: string | null]> = {
  published: ['Visible to the public', null],
  hidden: ['Hidden from the public', null],
  pending: ['Not public yet', 'It is published once approved. Hide it now and it stays hidden then too.'],
  rejected: ['Not public', 'A rejected review is never public.'],
};

/**
 * Whether the review takes a public reply: a published one, or one hidden since (it keeps its reply,
 * which shows again with it); never a pending or rejected one (the API answers 409).
 */
const repliable = (r: Review) => r.verification_status !== 'pending' && r.verification_status !== 'rejected';

function Reply({ review, ids, onChange }: { review: Review; ids: ItemIds; onChange: Changed }) {
  const [editing, setEditing] = useState(false);
  const [content, setContent] = useState(review.reply?.content ?? '');
  const save = useAction(async () => {
    await api.put('/organizations/{orgId}/reviews/{id}/reply', { params: ids, body: { content: content.trim() } });
    const r = await api.get('/organizations/{orgId}/reviews/{id}', { params: ids });
    setEditing(false);
    onChange(r, 'Your reply is published under the review.');
  });
  const withdraw = useAction(async () => {
    await api.delete('/organizations/{orgId}/reviews/{id}/reply', { params: ids });
    const r = await api.get('/organizations/{orgId}/reviews/{id}', { params: ids });
    setContent('');
    onChange(r, 'Your reply is withdrawn.');
  });

  if (review.reply && !editing) {
    return (
      <section class='reply' aria-labelledby='reply-heading'>
        <h2 id='reply-heading'>Your public reply</h2>
        <p class='review-text'>{review.reply.content}</p>
        <p class='muted small'>
          Replied {formatDateTime(review.reply.created_at)}
          {review.reply.updated_at !== review.reply.created_at && `, edited ${formatDateTime(review.reply.updated_at)}`}
        </p>
        <ErrorNotice error={withdraw.error} />
        <div class='actions'>
          <button
            type='button'
            class='button'
            onClick={() => {
              setContent(review.reply!.content);
              setEditing(true);
            }}
          >
            Edit reply
          </button>
          <button type='button' class='button danger' disabled={withdraw.pending} onClick={() => void withdraw.run()}>
            Withdraw reply
          </button>
        </div>
      </section>
    );
  }
  return (
    <form
      class='reply'
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <h2>{review.reply ? 'Edit your reply' : 'Reply in public'}</h2>
      {save.error && !save.error.field('content') && <ErrorNotice error={save.error} />}
      <TextAreaField
        label='Reply'
        name='content'
        error={save.error}
        hint='Shown under the review on your public page and in the widget.'
        required
        rows={4}
        maxLength={5000}
        value={content}
        onValue={setContent}
      />
      <div class='actions'>
        <button type='submit' class='button primary' disabled={save.pending}>
          {review.reply ? 'Save reply' : 'Publish reply'}
        </button>
        {editing && <button type='button' class='button' onClick={() => setEditing(false)}>Cancel</button>}
      </div>
    </form>
  );
}

/** The order a review was written for (through an order's review request), when the API names one. */
const orderOf = (r: Review): string | null => r.order_id;
