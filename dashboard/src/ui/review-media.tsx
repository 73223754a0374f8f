// A review's photos and videos on its page: each as a thumbnail that opens large in a new tab,
// marked when hidden, with Hide or Show and the reason the trail keeps.
import { useState } from 'preact/hooks';
import { api, type ItemIds, type Review } from '../api.ts';
import { Badge, ErrorNotice } from './components.tsx';
import { TextField } from './fields.tsx';
import { useAction } from './hooks.ts';

type Media = Review['media'][number];
type Changed = (r: Review, what: string) => void;

/** What names an item to a person: "Photo 2", "Video 1", by its place in the review. */
const itemName = (m: Media, n: number) => `${m.type === 'image' ? 'Photo' : 'Video'} ${n}`;

/** A trail entry's reason, its `media <id>:` prefix (the API's) named as the page names the item. */
export function trailReason(reason: string, media: readonly Media[]): string {
  const m = /^media ([0-9a-f-]{36}): ([\s\S]*)$/.exec(reason);
  const i = m ? media.findIndex((x) => x.id === m[1]) : -1;
  return m && i >= 0 ? `${itemName(media[i], i + 1)}: ${m[2]}` : reason;
}

export function ReviewMedia({ review, ids, onChange }: { review: Review; ids: ItemIds; onChange: Changed }) {
  if (review.media.length === 0) return null;
  return (
    <section class='review-media' aria-labelledby='media-heading'>
      <h2 id='media-heading'>Photos and videos</h2>
      <ul class='media-list'>
        {review.media.map((m, i) => <MediaItem key={m.id} item={m} n={i + 1} ids={ids} onChange={onChange} />)}
      </ul>
    </section>
  );
}

function MediaItem({ item, n, ids, onChange }: { item: Media; n: number; ids: ItemIds; onChange: Changed }) {
  const [reason, setReason] = useState('');
  const action = item.is_hidden ? 'unhide' : 'hide';
  const what = itemName(item, n);
  const act = useAction(async () => {
    const r = await api.patch('/organizations/{orgId}/reviews/{id}/media/{mediaId}/moderate', {
      params: { ...ids, mediaId: item.id },
      body: { action, reason: reason.trim() },
    });
    setReason('');
    onChange(r, action === 'hide' ? `${what} is hidden from the public.` : `${what} is public again.`);
  });
  return (
    <li class={`media-item card${item.is_hidden ? ' is-hidden' : ''}`}>
      <div class='media-head'>
        <strong>{what}</strong>
        {item.is_hidden ? <Badge tone='bad'>Hidden</Badge> : <Badge tone='plain'>Public</Badge>}
      </div>
      {item.is_hidden
        ? <p class='media-placeholder muted small'>Not shown while hidden: its file answers “not found” to everyone.</p>
        : (
          <a class='media-open' href={item.url} target='_blank' rel='noopener noreferrer'>
            {item.type === 'image' && item.thumbnail_url
              ? <img src={item.thumbnail_url} alt={`${what}, open large in a new tab`} loading='lazy' />
              : <span class='media-placeholder'>Play the video in a new tab</span>}
          </a>
        )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act.run();
        }}
      >
        <ErrorNotice error={act.error} />
        <TextField
          label={item.is_hidden ? `Why show ${what.toLowerCase()}` : `Why hide ${what.toLowerCase()}`}
          name={`media-reason-${item.id}`}
          hint='Kept in the trail.'
          required
          maxLength={1000}
          value={reason}
          onValue={setReason}
        />
        <button type='submit' class={`button ${action === 'hide' ? 'danger' : 'primary'}`} disabled={act.pending}>
          {action === 'hide' ? `Hide ${what.toLowerCase()}` : `Show ${what.toLowerCase()}`}
        </button>
      </form>
    </li>
  );
}
