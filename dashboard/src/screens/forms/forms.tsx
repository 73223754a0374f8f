// Review forms: the pages where customers write a review. The list shows each form's link to share
// (copy or open it), how its reviews are verified and whether it takes reviews; a form's page edits
// its name, verification and own questions (form-page.tsx), switches it off or deletes it.
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { setQuery, useLocation } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Badge, Empty, ErrorNotice, Loading, Notice, PageHeader, Pager, useCopy } from '../../ui/components.tsx';
import { formatDate } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';
import { takeFlash } from './flash.ts';
import { MODE_LABEL, questions } from './words.ts';

type Form = Schemas['ReviewForm'];

export function Forms(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const { query } = useLocation();
  const page = query.get('page') ?? '';
  const list = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/review-forms', { params: { orgId }, query: { page, limit: 20 }, signal }),
    [orgId, page],
  );
  const [notice, setNotice] = useState('');
  useEffect(() => setNotice(takeFlash()), []);

  return (
    <>
      <PageHeader title='Review forms'>
        <a class='button primary' href={appPath('/forms/new')}>New form</a>
      </PageHeader>
      <p class='muted page-intro'>
        A form is a page where customers write a review of your business. Share its link in e-mails, on receipts or on
        your site; review requests send a form's link too.
      </p>
      {notice && <Notice tone='success'>{notice}</Notice>}
      <ErrorNotice error={list.error} />
      {list.loading && !list.data && <Loading what='Loading forms' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>
          <p>No forms yet. Create one to get a link where customers can write their review.</p>
          <a class='button primary' href={appPath('/forms/new')}>Create your first form</a>
        </Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <ul class='form-list' aria-busy={list.loading}>
            {list.data.data.map((f) => (
              <li key={f.id} class='form-row'>
                <div class='form-row-head'>
                  <a class='form-name' href={appPath(`/forms/${f.id}`)}>{f.name}</a>
                  <Badge tone={f.is_active ? 'good' : 'plain'}>{f.is_active ? 'Active' : 'Inactive'}</Badge>
                </div>
                <p class='review-meta'>
                  <span>Verification: {MODE_LABEL[f.verification_mode]}</span>
                  <span>{questions(f.custom_fields.length)}</span>
                  <span>Created {formatDate(f.created_at)}</span>
                </p>
                <div class='form-link'>
                  <span class='visually-hidden'>Link to {f.name}:</span>
                  <code class='form-url'>{f.submission_url}</code>
                  <span class='form-link-actions'>
                    <CopyButton value={f.submission_url} what={`the link to ${f.name}`} />
                    <a class='button' href={f.submission_url} target='_blank' rel='noopener'>
                      Open<span class='visually-hidden'>{` ${f.name} in a new tab`}</span>
                    </a>
                  </span>
                </div>
              </li>
            ))}
          </ul>
          <Pager meta={list.data.meta} onPage={(p) => setQuery({ page: p }, false)} />
        </>
      )}
    </>
  );
}

/** A "Copy link" button for one of several links on a page (CopyField is for one labelled value). */
function CopyButton({ value, what }: { value: string; what: string }) {
  const [copied, copy] = useCopy(value, () => globalThis.prompt?.('Copy this link:', value));
  return (
    <>
      <button type='button' class='button' onClick={copy}>
        {copied ? 'Copied' : 'Copy link'}
        <span class='visually-hidden'>{` to ${what.replace(/^the link to /, '')}`}</span>
      </button>
      <span class='visually-hidden' aria-live='polite'>{copied ? `Copied ${what}` : ''}</span>
    </>
  );
}
