// The product mode's Questions tab (docs/questions.md): beside the reviews, the product's published
// questions with their answers (read when the tab is first opened) and an Ask form, which sends
// the question to POST /public/questions/:slug; the asker confirms it by e-mail before it shows.
// The tabs' names are the widget's words (a fragment draws them too); the rest are its own, and its
// styles are the widget's (styles.ts).
import { useRef, useState } from 'preact/hooks';
import { getJson } from './data.ts';
import type { Strings } from './strings.ts';

type Answer = { id: string; content: string; author: string; author_name: string };
type Question = { id: string; question: string; asker_name: string; answers: Answer[] };

// None yet, ask heading, question, name, e-mail, send, sent, refused, buyer, business, unanswered
const WORDS: Record<string, string[]> = {
  en: [
    'No questions yet.',
    'Ask a question',
    'Your question',
    'Your name',
    'Your e-mail address',
    'Ask',
    'Thank you! Open the link we e-mailed you: your question shows once you confirm it.',
    'Your question was not sent: it needs 10 to 1,000 characters, your name and your e-mail address.',
    'Verified buyer',
    'The business',
    'Not answered yet.',
  ],
  de: [
    'Noch keine Fragen.',
    'Eine Frage stellen',
    'Ihre Frage',
    'Ihr Name',
    'Ihre E-Mail-Adresse',
    'Fragen',
    'Danke! Öffnen Sie den Link aus unserer E-Mail: Ihre Frage erscheint, sobald Sie sie bestätigen.',
    'Ihre Frage wurde nicht gesendet: Sie braucht 10 bis 1.000 Zeichen, Ihren Namen und Ihre E-Mail-Adresse.',
    'Verifizierter Käufer',
    'Der Händler',
    'Noch nicht beantwortet.',
  ],
};

export function QuestionsTab({ reviewsUrl, t }: { reviewsUrl: string; t: Strings }) {
  const w = WORDS[t.lang] ?? WORDS.en;
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<Question[] | null>(null);
  const [said, setSaid] = useState('');
  const tabs = useRef<HTMLDivElement>(null);
  // …/public/products/<slug>/<external id>/reviews: its questions, and where the business's questions go.
  const [, slug, id] = reviewsUrl.match(/products\/([^/]+)\/([^/]+)\/reviews$/)!;
  const base = reviewsUrl.slice(0, reviewsUrl.indexOf('/products/'));

  const show = async (questions: boolean) => {
    tabs.current!.parentElement!.classList.toggle('qa', questions);
    setOpen(questions);
    if (questions && !items) {
      setItems((await getJson<{ data: Question[] }>(`${base}/products/${slug}/${id}/questions?limit=20`))?.data ?? []);
    }
  };

  const ask = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const body = { ...Object.fromEntries(new FormData(form)), product_external_id: decodeURIComponent(id) };
    const res = await fetch(`${base}/questions/${slug}`, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).catch(() => null);
    setSaid(res?.status === 202 ? w[6] : w[7]);
    if (res?.status === 202) form.reset();
  };

  return (
    <div class='qtab' ref={tabs}>
      <div role='tablist'>
        {t.tabs.map((name, i) => (
          <button
            key={name}
            role='tab'
            type='button'
            aria-selected={open === (i > 0)}
            onClick={() => show(i > 0)}
          >
            {name}
          </button>
        ))}
      </div>
      {open && (
        <div role='tabpanel' aria-label={t.tabs[1]}>
          {items && !items.length && <p class='mu'>{w[0]}</p>}
          <ul class='items'>
            {items?.map((q) => (
              <li key={q.id} class='r'>
                <p class='title'>{q.question}</p>
                <p class='mu'>{q.asker_name}</p>
                {q.answers.length
                  ? q.answers.map((a) => (
                    <p key={a.id}>
                      <b>{`${a.author_name} · ${a.author === 'verified_buyer' ? w[8] : w[9]}: `}</b>
                      {a.content}
                    </p>
                  ))
                  : <p class='mu'>{w[10]}</p>}
              </li>
            ))}
          </ul>
          <form onSubmit={ask}>
            <b>{w[1]}</b>
            <label for='q-text'>{w[2]}</label>
            <textarea id='q-text' name='question' required minLength={10} maxLength={1000} />
            <label for='q-name'>{w[3]}</label>
            <input id='q-name' name='name' required maxLength={200} autoComplete='name' />
            <label for='q-mail'>{w[4]}</label>
            <input id='q-mail' name='email' type='email' required maxLength={320} autoComplete='email' />
            <button type='submit'>{w[5]}</button>
            <p role='status'>{said}</p>
          </form>
        </div>
      )}
    </div>
  );
}
