// One question: what it is about (a product, or the business), who asked and when, its text, every
// answer with its author (the business or a verified buyer, hidden ones marked), the business's
// answer form (folded once the question has a visible answer; once the business has answered, it
// edits that one answer), and hiding or showing again the
// question or an answer with reasons.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { useOrgId } from '../../session.ts';
import { Badge, ErrorNotice } from '../../ui/components.tsx';
import { DecisionForm } from '../../ui/decision-form.tsx';
import { TextAreaField } from '../../ui/fields.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { useAction } from '../../ui/hooks.ts';

type Question = Schemas['Question'];
type Answer = Schemas['QuestionAnswer'];

const AUTHOR: Record<Answer['author'], string> = { business: 'Business', verified_buyer: 'Verified buyer' };

export function QuestionCard({ question, onChanged }: { question: Question; onChanged: () => void }) {
  const heading = `question-${question.id}`;
  // The business has one answer per question (the API edits it in place): shown or hidden, it is edited.
  const own = question.answers.filter((a) => a.author === 'business').at(-1);
  return (
    <article class='card question' aria-labelledby={heading}>
      <h2 id={heading} class='report-reason'>
        {question.product ? question.product.name : 'About your business'}
        {question.status !== 'published' && <Badge>{question.status}</Badge>}
        <span class='muted small'>asked by {question.asker_name} · {formatDateTime(question.created_at)}</span>
      </h2>
      <p class='report-content question-text'>{question.question}</p>
      {question.answers.length > 0
        ? (
          <ul class='question-answers' aria-label='Answers'>
            {question.answers.map((a) => <AnswerItem key={a.id} answer={a} onChanged={onChanged} />)}
          </ul>
        )
        : <p class='muted small'>No answer yet.</p>}
      {question.status === 'published' && (own || question.answered
        ? (
          <details class='question-moderate'>
            <summary>{own ? 'Edit your answer' : 'Add your answer'}</summary>
            <AnswerForm question={question} own={own} onChanged={onChanged} />
          </details>
        )
        : <AnswerForm question={question} onChanged={onChanged} />)}
      {question.status !== 'pending' && (
        <Moderate
          kind='question'
          id={question.id}
          hidden={question.status === 'hidden'}
          onChanged={onChanged}
        />
      )}
    </article>
  );
}

function AnswerItem({ answer, onChanged }: { answer: Answer; onChanged: () => void }) {
  return (
    <li class='report-review question-answer'>
      <p class='muted small'>
        <strong>{answer.author_name}</strong> <Badge tone='plain'>{AUTHOR[answer.author]}</Badge>{' '}
        {answer.is_hidden && <Badge>hidden</Badge>} · {formatDateTime(answer.created_at)}
      </p>
      <p class='report-content'>{answer.content}</p>
      <Moderate kind='answer' id={answer.id} hidden={answer.is_hidden} onChanged={onChanged} />
    </li>
  );
}

/** The business's answer: written, or (`own`) edited in place, its old text kept in the trail. */
function AnswerForm({ question, own, onChanged }: { question: Question; own?: Answer; onChanged: () => void }) {
  const orgId = useOrgId();
  const [content, setContent] = useState(own?.content ?? '');
  const action = useAction(async () => {
    await api.post('/organizations/{orgId}/questions/{id}/answers', {
      params: { orgId, id: question.id },
      body: { content: content.trim() },
    });
    if (!own) setContent('');
    onChanged();
  });
  return (
    <form
      class='question-answer-form'
      onSubmit={(e) => {
        e.preventDefault();
        void action.run();
      }}
    >
      {action.error && !action.error.field('content') && <ErrorNotice error={action.error} />}
      <TextAreaField
        label='Your answer'
        name={`content-${question.id}`}
        error={action.error}
        hint={own
          ? `Replaces your answer's text at once${
            own.is_hidden ? ' (it stays hidden until you show it again)' : ''
          }; the old text stays in the trail.`
          : 'Published at once under your public display name. You can edit it later.'}
        required
        maxLength={5000}
        rows={3}
        value={content}
        onValue={setContent}
      />
      <div class='actions'>
        <button type='submit' class='button primary' disabled={action.pending}>
          {own ? 'Save your answer' : 'Publish the answer'}
        </button>
      </div>
    </form>
  );
}

/** Hiding (or showing again) a question or an answer: folded until asked for, then the reasons and the button. */
function Moderate({ kind, id, hidden, onChanged }: {
  kind: 'question' | 'answer';
  id: string;
  hidden: boolean;
  onChanged: () => void;
}) {
  const orgId = useOrgId();
  const label = `${hidden ? 'Show' : 'Hide'} this ${kind}`;
  return (
    <details class='question-moderate'>
      <summary>{label}</summary>
      <DecisionForm
        id={`${kind}-${id}`}
        name='action'
        hint='Recorded in the questions’ moderation trail.'
        choices={[
          hidden
            ? { value: 'unhide', label: `Show the ${kind} again`, tone: 'primary' }
            : { value: 'hide', label: `Hide the ${kind}`, tone: 'danger' },
        ] as const}
        decide={async (action, reason) => {
          const path = kind === 'question'
            ? '/organizations/{orgId}/questions/{id}/moderate' as const
            : '/organizations/{orgId}/answers/{id}/moderate' as const;
          await api.patch(path, { params: { orgId, id }, body: { action, reason } });
          onChanged();
        }}
      />
    </details>
  );
}
