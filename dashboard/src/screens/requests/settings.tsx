// The section's settings: the daily limit and reminders, and the suppression list.
import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../../api.ts';
import { useOrgId, useWorkspace } from '../../session.ts';
import { ErrorNotice, Loading, PageHeader } from '../../ui/components.tsx';
import { CheckboxField, NumberField, SelectField } from '../../ui/fields.tsx';
import { formatNumber } from '../../ui/format.ts';
import { useAction, useLoad } from '../../ui/hooks.ts';
import { SettingsForm } from '../../ui/settings-form.tsx';
import { SuppressionList } from './suppression-list.tsx';
import { RequestTabs } from './tabs.tsx';

type Settings = Schemas['ReviewRequestSettings'];

export function RequestSettings(_: { params: Record<string, string> }) {
  return (
    <>
      <PageHeader title='Review request settings' />
      <RequestTabs />
      <div class='review-grid'>
        <SettingsCard />
        <SuppressionList />
      </div>
    </>
  );
}

function SettingsCard() {
  const orgId = useOrgId();
  const { isAdmin } = useWorkspace();
  const settings = useLoad(
    (signal) => api.get('/organizations/{orgId}/review-requests/settings', { params: { orgId }, signal }),
    [orgId],
  );
  const [draft, setDraft] = useState<{ quota: string; enabled: boolean; delay: string; max: string }>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    const s = settings.data;
    if (s) {
      setDraft({
        quota: String(s.daily_quota),
        enabled: s.reminders_enabled,
        delay: String(s.reminder_delay_days),
        max: String(s.reminder_max),
      });
    }
  }, [settings.data]);
  const save = useAction(async () => {
    const s = await api.patch('/organizations/{orgId}/review-requests/settings', {
      params: { orgId },
      body: {
        daily_quota: Number(draft!.quota),
        reminders_enabled: draft!.enabled,
        reminder_delay_days: Number(draft!.delay),
        reminder_max: Number(draft!.max),
      },
    });
    settings.set(s);
    setSaved(true);
  });
  const s = settings.data;
  const edit = (patch: Partial<NonNullable<typeof draft>>) => {
    setSaved(false);
    setDraft({ ...draft!, ...patch });
  };

  return (
    <section class='card' aria-labelledby='rr-limits'>
      <h2 id='rr-limits'>Daily limit and reminders</h2>
      <ErrorNotice error={settings.error} />
      {!s && !settings.error && <Loading what='Loading the settings' />}
      {s && (
        <p>
          <strong>{formatNumber(s.used_today)}</strong> of {formatNumber(s.daily_quota)} requests used today,{' '}
          {formatNumber(s.remaining_today)} left. The count starts again at midnight UTC.
        </p>
      )}
      {s && draft && !isAdmin && (
        <>
          <p>
            Reminders are {s.reminders_enabled
              ? `on: up to ${s.reminder_max} reminder${
                s.reminder_max > 1 ? 's' : ''
              }, ${s.reminder_delay_days} days apart, while no review came.`
              : 'off.'}
          </p>
          <p class='muted small'>Only the organization's owners and admins can change these settings.</p>
        </>
      )}
      {s && draft && isAdmin && (
        <SettingsForm save={save} saved={saved} savedText='The settings are saved.' submitLabel='Save settings'>
          <NumberField
            label='Daily limit'
            name='daily_quota'
            error={save.error}
            hint='Requests your organization may send per day (1 to 100,000). A send beyond it is refused, never queued.'
            min={1}
            max={100000}
            required
            value={draft.quota}
            onValue={(v) =>
              edit({ quota: v })}
          />
          <CheckboxField
            id='f-reminders_enabled'
            label='Send reminders to customers who have not written a review'
            checked={draft.enabled}
            onChecked={(on) =>
              edit({ enabled: on })}
          />
          <NumberField
            label='Days before a reminder'
            name='reminder_delay_days'
            error={save.error}
            hint='Counted from the request, and from the previous reminder (1 to 60).'
            min={1}
            max={60}
            required
            disabled={!draft.enabled}
            value={draft.delay}
            onValue={(v) =>
              edit({ delay: v })}
          />
          <SelectField
            label='Reminders per request'
            name='reminder_max'
            error={save.error}
            disabled={!draft.enabled}
            value={draft.max}
            onValue={(v) =>
              edit({ max: v })}
            options={[['1', 'One reminder'], ['2', 'Two reminders']]}
          />
        </SettingsForm>
      )}
    </section>
  );
}
