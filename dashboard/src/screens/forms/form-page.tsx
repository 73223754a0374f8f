// One review form, or a new one: sharing its link and switching it on or off, the editor of its name,
// verification and questions, and deleting it.
import { useEffect, useState } from 'preact/hooks';
import { api, type ItemIds, type Schemas } from '../../api.ts';
import { navigate } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { ErrorNotice, Loading, Notice, PageHeader } from '../../ui/components.tsx';
import { useLoad } from '../../ui/hooks.ts';
import { DeleteForm } from './delete-form.tsx';
import { Editor } from './editor.tsx';
import { setFlash, takeFlash } from './flash.ts';
import { Sharing } from './sharing.tsx';

type Form = Schemas['ReviewForm'];

export function FormPage({ params }: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const isNew = params.id === 'new';
  const ids: ItemIds = { orgId, id: params.id };
  const loaded = useLoad(
    (
      signal,
    ) => (isNew ? Promise.resolve(null) : api.get('/organizations/{orgId}/review-forms/{id}', { params: ids, signal })),
    [orgId, params.id],
  );
  const [notice, setNotice] = useState('');
  // The same screen stays mounted from /forms/new to the new form's page: its message comes with the id.
  useEffect(() => setNotice(takeFlash()), [params.id]);

  if (loaded.error) {
    return (
      <>
        <p class='breadcrumb'>
          <a href={appPath('/forms')}>Review forms</a>
        </p>
        <h1 tabIndex={-1}>Review form</h1>
        <ErrorNotice error={loaded.error} />
      </>
    );
  }
  if (!isNew && !loaded.data) return <Loading what='Loading the form' />;
  const form = loaded.data ?? null;

  return (
    <>
      <p class='breadcrumb'>
        <a href={appPath('/forms')}>Review forms</a>
      </p>
      <PageHeader title={form ? form.name : 'New review form'} />
      {notice && <Notice tone='success'>{notice}</Notice>}
      {form && (
        <Sharing
          form={form}
          ids={ids}
          onChange={(f, what) => {
            loaded.set(f);
            setNotice(what);
          }}
        />
      )}
      <Editor
        key={form?.id ?? 'new'}
        form={form}
        onSaved={(f) => {
          if (form) {
            loaded.set(f);
            setNotice('Your changes are saved. The form asks them from now on.');
          } else {
            setFlash('The form is created. Share its link to start collecting reviews.');
            navigate(appPath(`/forms/${f.id}`), true);
          }
        }}
        onInput={() => setNotice('')}
      />
      {form && <DeleteForm form={form} ids={ids} />}
    </>
  );
}
