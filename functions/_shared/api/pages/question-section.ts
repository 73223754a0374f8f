// The Questions section of a product's page (docs/questions.md): its published questions with
// their answers, and the Ask form, which posts to /p/:slug/products/:externalId/questions
// (question-links.ts) and works without script. Every text is escaped by `markup`.
import { markup, raw } from './html.ts';

export type PublicAnswerItem = {
  id: string;
  content: string;
  author: 'business' | 'verified_buyer';
  author_name: string;
  created_at: string;
  helpful_count: number;
};
export type PublicQuestionItem = {
  id: string;
  question: string;
  asker_name: string;
  created_at: string;
  answers: PublicAnswerItem[];
};

/** How many questions a product's page shows. */
export const QUESTIONS_ON_PAGE = 10;

export const QUESTION_STYLE = raw(`
.questions{margin:2rem 0 1rem;border-top:2px solid #d0d7de;padding-top:1rem}
.questions h2{margin:0 0 .75rem}
.question{border-top:1px solid #d0d7de;padding:.75rem 0}
.question h3{font-size:1.05rem;margin:0 0 .25rem;overflow-wrap:anywhere}
.question p{margin:.25rem 0;white-space:pre-line;overflow-wrap:anywhere}
.answer{margin:.5rem 0 0 1rem;padding-left:.75rem;border-left:3px solid #d0d7de}
.ask{margin-top:1.25rem;border:1px solid #d0d7de;border-radius:.75rem;padding:1rem}
.ask h3{margin:0 0 .5rem}
.ask p.field{margin:0 0 .75rem}
`);

const day = (iso: string) => iso.slice(0, 10);

function answerItem(a: PublicAnswerItem) {
  return markup`<div class="answer"><p>${a.content}</p><p class="meta"><span>${a.author_name}</span>${
    a.author === 'verified_buyer'
      ? markup`<span class="badge">Verified buyer</span>`
      : markup`<span class="label">The business</span>`
  }<time datetime="${a.created_at}">${day(a.created_at)}</time></p></div>`;
}

/** The section: the questions (or a line saying there are none) and the Ask form. */
export function questionSection(askUrl: string, productName: string, questions: PublicQuestionItem[]) {
  const items = questions.length === 0
    ? markup`<p>No questions about ${productName} yet.</p>`
    : questions.map((q) =>
      markup`<article class="question" id="question-${q.id}"><h3>${q.question}</h3><p class="meta"><span>Asked by ${q.asker_name}</span><time datetime="${q.created_at}">${
        day(q.created_at)
      }</time></p>${q.answers.length === 0 ? markup`<p>Not answered yet.</p>` : q.answers.map(answerItem)}</article>`
    );
  return markup`<section class="questions" aria-labelledby="questions-heading">
<h2 id="questions-heading">Questions and answers</h2>
${items}
<form class="ask" method="post" action="${askUrl}">
<h3>Ask a question</h3>
<p class="field"><label for="ask-question">Your question</label><textarea id="ask-question" name="question" required minlength="10" maxlength="1000"></textarea></p>
<p class="field"><label for="ask-name">Your name</label><input type="text" id="ask-name" name="name" required maxlength="200" autocomplete="name"></p>
<p class="field"><label for="ask-email">Your e-mail address</label><input type="email" id="ask-email" name="email" required maxlength="320" autocomplete="email"></p>
<p class="fine">We e-mail you a link to confirm your question before it shows. Your address is never shown.</p>
<button type="submit">Ask</button>
</form>
</section>`;
}
