// A review's photos and videos: each photo a thumbnail button, sized by the item's width and height
// before it loads (no layout shift) and loaded only near the screen, that opens it large in a modal
// <dialog> (labelled, focus inside and kept there by Tab, the arrows move between the review's
// photos, Escape closes it and gives focus back to that photo's thumbnail); each video a link.
import { useRef, useState } from 'preact/hooks';
import type { PublicReview } from './data.ts';
import type { Strings } from './strings.ts';

export function Gallery({ media, t }: { media: PublicReview['media']; t: Strings }) {
  const box = useRef<HTMLDivElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const [at, setAt] = useState(0);
  // A photo without its sizes yet (or a video) is a link, as on the pages.
  const photos = media.filter((m) => m.type === 'image' && m.width && m.thumbnail_url);
  const k = photos.length;
  const p = photos[at];
  const thumbs = () => box.current!.querySelectorAll<HTMLElement>('ul button');
  const go = (i: number) => setAt((i + k) % k);
  return (
    <div ref={box}>
      <ul class='md'>
        {media.map((m) => {
          const i = photos.indexOf(m);
          return (
            <li key={m.id}>
              {i < 0 ? <a href={m.url} target='_blank' rel='noopener'>{t.video}</a> : (
                <button
                  type='button'
                  onClick={() => {
                    setAt(i);
                    dialog.current!.showModal();
                  }}
                >
                  <img
                    src={m.thumbnail_url!}
                    width={m.width!}
                    height={m.height!}
                    loading='lazy'
                    alt={t.photo(i + 1, k)}
                  />
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {k > 0 && (
        <dialog
          ref={dialog}
          aria-modal='true'
          aria-label={t.photo(at + 1, k)}
          onClose={() => thumbs()[at].focus()}
          onKeyDown={(e) => {
            e.stopPropagation(); // the carousel's arrow keys are not the dialog's
            const keys = [...dialog.current!.querySelectorAll('button')];
            const n = keys.indexOf(e.target as HTMLButtonElement);
            if (e.key === 'Tab') {
              // Focus stays inside: from the last button to the first, and back.
              e.preventDefault();
              keys[(n + (e.shiftKey ? keys.length - 1 : 1)) % keys.length].focus();
            }
            if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') go(at + (e.key === 'ArrowRight' ? 1 : -1));
          }}
        >
          <img src={p.url} width={p.width!} height={p.height!} alt={t.photo(at + 1, k)} />
          <div class='nav'>
            {k > 1 && (
              <>
                <button type='button' aria-label={t.photo(((at + k - 1) % k) + 1, k)} onClick={() => go(at - 1)}>
                  ←
                </button>
                <button type='button' aria-label={t.photo(((at + 1) % k) + 1, k)} onClick={() => go(at + 1)}>
                  →
                </button>
              </>
            )}
            <button type='button' onClick={() => dialog.current!.close()}>{t.close}</button>
          </div>
        </dialog>
      )}
    </div>
  );
}
