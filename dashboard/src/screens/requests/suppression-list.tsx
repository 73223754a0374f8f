// The addresses that get no review requests: adding one, finding one, lifting one.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Badge, Empty, ErrorNotice, Loading, Notice, Pager } from '../../ui/components.tsx';
import { Confirm } from '../../ui/confirm.tsx';
import { formatDate } from '../../ui/format.ts';
import { useAction, useLoad } from '../../ui/hooks.ts';
import { SUPPRESSION_REASON } from './words.ts';

type Suppression = Schemas['Suppression'];

export function SuppressionList() {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState('');
  const [search, setSearch] = useState('');
  const list = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/suppressions', {
        params: { orgId },
        query: { email: filter || undefined, page, limit: 20 },
        signal,
      }),
    [orgId, page, filter],
  );
  const [email, setEmail] = useState('');
  const [notice, setNotice] = useState('');
  const add = useAction(async () => {
    const s = await api.post('/organizations/{orgId}/suppressions', {
      params: { orgId },
      body: { email: email.trim() },
    });
    setEmail('');
    setNotice(`${s.email} gets no more review requests.`);
    setPage(1);
    list.reload();
  });
  const lift = useAction(async (s: Suppression) => {
    await api.delete('/organizations/{orgId}/suppressions/{id}', { params: { orgId, id: s.id } });
    setNotice(`${s.email} may get review requests again.`);
    list.reload();
  });

  return (
    <section class='card' aria-labelledby='rr-suppressions'>
      <h2 id='rr-suppressions'>Suppression list</h2>
      <p class='muted small'>
        Addresses that never get review requests or reminders from you: customers who unsubscribed, addresses that
        bounced or marked a request as spam, and those you add here.
      </p>
      {notice && <Notice tone='success'>{notice}</Notice>}
      <form
        class='inline-form'
        onSubmit={(e) => {
          e.preventDefault();
          setNotice('');
          void add.run();
        }}
      >
        {add.error && <ErrorNotice error={add.error} />}
        <div class='field'>
          <label for='f-suppress-email'>Add an address</label>
          <input
            id='f-suppress-email'
            type='email'
            required
            maxLength={320}
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </div>
        <button type='submit' class='button' disabled={add.pending}>Add to the list</button>
      </form>
      <form
        class='inline-form'
        role='search'
        aria-label='Find an address on the suppression list'
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setFilter(search.trim());
        }}
      >
        <div class='field'>
          <label for='q-suppressed'>Find an address</label>
          <input id='q-suppressed' type='search' value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </div>
        <button type='submit' class='button'>Find</button>
      </form>
      <ErrorNotice error={list.error ?? lift.error} />
      {list.loading && !list.data && <Loading what='Loading the list' />}
      {list.data && list.data.data.length === 0 && (
        <Empty>{filter ? `${filter} is not on the list.` : 'No address is suppressed.'}</Empty>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <ul class='suppressions' aria-busy={list.loading}>
            {list.data.data.map((s) => (
              <li key={s.id}>
                <div class='suppression-head'>
                  <strong class='suppression-email'>{s.email ?? 'An erased address (kept only as a hash)'}</strong>
                  <Badge tone={s.reason === 'manual' ? 'plain' : 'bad'}>{SUPPRESSION_REASON[s.reason]}</Badge>
                </div>
                <p class='muted small'>
                  Since {formatDate(s.created_at)}
                  {s.request_id && (
                    <>
                      {' · '}
                      <a href={appPath(`/requests/${s.request_id}`)}>The request</a>
                    </>
                  )}
                </p>
                <Confirm
                  label='Lift'
                  about={s.email ?? 'the erased address'}
                  question={<>Lift the suppression? {s.email ?? 'The erased address'} may get review requests again.</>}
                  confirm='Yes, lift it'
                  pending={lift.pending}
                  onConfirm={() => void lift.run(s)}
                />
              </li>
            ))}
          </ul>
          <Pager meta={list.data.meta} onPage={setPage} />
        </>
      )}
    </section>
  );
}
