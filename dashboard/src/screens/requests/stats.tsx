// Review request statistics for a period: how many were requested and sent, the delivery, open,
// click and review rates, the count of each status, and the daily series as a chart (uPlot, loaded
// only when this screen opens, so that the dashboard's first load stays small) with the same
// numbers as a table for screen readers and for anyone who wants the figures.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type Schemas } from '../../api.ts';
import { setQuery, useLocation } from '../../router.ts';
import { useAppPath, useOrgId } from '../../session.ts';
import { Empty, ErrorNotice, Loading, Notice, PageHeader } from '../../ui/components.tsx';
import { formatNumber } from '../../ui/format.ts';
import { useLoad } from '../../ui/hooks.ts';
import { period, PERIODS, utcDay } from './stats-period.ts';
import { StatusBadge } from './status-badge.tsx';
import { RequestTabs } from './tabs.tsx';
import { STATUS_LABEL } from './words.ts';

type Stats = Schemas['ReviewRequestStats'];
type Day = Stats['daily'][number];

/** The daily series drawn, each with its own line pattern so that colour is never the only key. */
const SERIES: { key: keyof Omit<Day, 'date'>; label: string; color: string; dash?: number[]; width?: number }[] = [
  { key: 'requested', label: 'Requested', color: '#6e7781', dash: [6, 4] },
  { key: 'sent', label: 'Sent', color: '#1f5fbf' },
  { key: 'opened', label: 'Opened', color: '#8250df', dash: [2, 3] },
  { key: 'clicked', label: 'Clicked', color: '#bc4c00', dash: [10, 3, 2, 3] },
  { key: 'completed', label: 'Reviewed', color: '#1a7f37', width: 3 },
];

const TABLE_COLUMNS: { key: keyof Omit<Day, 'date'>; label: string }[] = [
  { key: 'requested', label: 'Requested' },
  { key: 'sent', label: 'Sent' },
  { key: 'delivered', label: 'Delivered' },
  { key: 'opened', label: 'Opened' },
  { key: 'clicked', label: 'Clicked' },
  { key: 'completed', label: 'Reviewed' },
  { key: 'bounced', label: 'Bounced' },
  { key: 'complained', label: 'Spam' },
  { key: 'unsubscribed', label: 'Unsubscribed' },
  { key: 'failed', label: 'Not sent' },
];

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const dayFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const formatDay = (date: string) => dayFmt.format(new Date(`${date}T00:00:00Z`));

export function RequestStats(_: { params: Record<string, string> }) {
  const orgId = useOrgId();
  const appPath = useAppPath();
  const { query } = useLocation();
  const p = period(query);
  const stats = useLoad(
    (signal) =>
      api.get('/organizations/{orgId}/review-requests/stats', {
        params: { orgId },
        query: { startDate: p.startDate, endDate: p.endDate },
        signal,
      }),
    [orgId, p.startDate, p.endDate],
  );
  const s = stats.data;

  return (
    <>
      <PageHeader title='Review request statistics' />
      <RequestTabs />
      <div class='filters stats-period'>
        <div class='field'>
          <label for='stats-period'>Period</label>
          <select
            id='stats-period'
            value={p.choice}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setQuery(
                v === 'custom'
                  ? { period: v, startDate: p.startDate, endDate: p.endDate }
                  : { period: v, startDate: null, endDate: null },
              );
            }}
          >
            {PERIODS.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </select>
        </div>
        {p.choice === 'custom' && (
          <>
            <div class='field'>
              <label for='stats-from'>From</label>
              <input
                id='stats-from'
                type='date'
                value={p.startDate}
                max={p.endDate}
                onChange={(e) => e.currentTarget.value && setQuery({ startDate: e.currentTarget.value })}
              />
            </div>
            <div class='field'>
              <label for='stats-to'>Until</label>
              <input
                id='stats-to'
                type='date'
                value={p.endDate}
                min={p.startDate}
                onChange={(e) => e.currentTarget.value && setQuery({ endDate: e.currentTarget.value })}
              />
            </div>
          </>
        )}
      </div>
      <p class='muted small'>
        Requests created from {formatDay(p.startDate)} to {formatDay(p.endDate)}{' '}
        (days in UTC, at most 366). Rates are shares of the requests whose e-mail was sent.
      </p>
      <ErrorNotice error={stats.error} />
      {!s && !stats.error && <Loading what='Loading the statistics' />}
      {s && (
        <div aria-busy={stats.loading}>
          <ul class='stat-cards'>
            <Stat label='Requests' value={formatNumber(s.total)} note={`${formatNumber(s.sent)} e-mails sent`} />
            <Stat
              label='Delivered'
              value={percent.format(s.delivery_rate)}
              note='Reported by the mail provider, where it reports deliveries'
            />
            <Stat
              label='Opened'
              value={percent.format(s.open_rate)}
              note='An estimate: mail apps block or preload images'
            />
            <Stat label='Clicked' value={percent.format(s.click_rate)} note='Followed a link to your review form' />
            <Stat
              label='Reviewed'
              value={percent.format(s.completion_rate)}
              note={`${formatNumber(s.by_status.completed)} review${s.by_status.completed === 1 ? '' : 's'} written`}
            />
          </ul>
          {s.total === 0
            ? (
              <Empty>
                No review requests were created in this period. <a href={appPath('/requests')}>Send a request</a> or
                {' '}
                <a href={appPath('/requests/bulk')}>upload a CSV file</a> to see them here.
              </Empty>
            )
            : (
              <>
                <section class='card' aria-labelledby='stats-daily'>
                  <h2 id='stats-daily'>Day by day</h2>
                  <Chart stats={s} />
                  <details class='stats-table'>
                    <summary>The daily numbers as a table</summary>
                    <DailyTable stats={s} />
                  </details>
                </section>
                <section class='card' aria-labelledby='stats-status'>
                  <h2 id='stats-status'>Where the requests are now</h2>
                  <ul class='status-counts'>
                    {(Object.keys(STATUS_LABEL) as (keyof typeof STATUS_LABEL)[]).map((k) => (
                      <li key={k}>
                        <a href={appPath(`/requests?status=${k}&startDate=${s.startDate}&endDate=${s.endDate}`)}>
                          <StatusBadge status={k} />
                          <span class='status-count'>{formatNumber(s.by_status[k])}</span>
                          <span class='visually-hidden'>requests: show them</span>
                        </a>
                      </li>
                    ))}
                  </ul>
                </section>
              </>
            )}
        </div>
      )}
    </>
  );
}

function Stat({ label, value, note }: { label: string; value: string; note: string }) {
  return (
    <li class='stat-card'>
      <span class='stat-label'>{label}</span>
      <span class='stat-value'>{value}</span>
      <span class='muted small'>{note}</span>
    </li>
  );
}

function DailyTable({ stats }: { stats: Stats }) {
  return (
    <div class='table-wrap' role='region' aria-label='Daily numbers' tabIndex={0}>
      <table class='stats-daily-table'>
        <caption>
          Review requests per day, {formatDay(stats.startDate)} to {formatDay(stats.endDate)}
        </caption>
        <thead>
          <tr>
            <th scope='col'>Day</th>
            {TABLE_COLUMNS.map((c) => <th key={c.key} scope='col' class='num'>{c.label}</th>)}
          </tr>
        </thead>
        <tbody>
          {stats.daily.map((d) => (
            <tr key={d.date}>
              <th scope='row'>{formatDay(d.date)}</th>
              {TABLE_COLUMNS.map((c) => <td key={c.key} class='num'>{formatNumber(d[c.key])}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The daily series drawn by uPlot, which this screen loads when it first draws a chart. */
function Chart({ stats }: { stats: Stats }) {
  const box = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<ApiError>();
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let cancelled = false;
    let chart: { destroy(): void; setSize(s: { width: number; height: number }): void } | undefined;
    let observer: ResizeObserver | undefined;
    (async () => {
      const [{ default: uPlot }] = await Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]);
      if (cancelled) return;
      const css = getComputedStyle(document.documentElement);
      const ink = css.getPropertyValue('--muted').trim() || '#57606a';
      const grid = css.getPropertyValue('--border').trim() || '#d5d9de';
      const height = () => (el.clientWidth < 500 ? 220 : 280);
      const axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
      const x = stats.daily.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
      const few = stats.daily.length <= 31;
      el.replaceChildren();
      chart = new uPlot(
        {
          width: el.clientWidth,
          height: height(),
          tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
          cursor: { y: false, drag: { x: false, y: false } },
          legend: { live: true },
          scales: { y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
          axes: [
            { ...axis },
            { ...axis, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? formatNumber(t) : '')) },
          ],
          series: [
            { label: 'Day', value: (_u, v) => (v == null ? '—' : formatDay(utcDay(v * 1000))) },
            ...SERIES.map((s) => ({
              label: s.label,
              stroke: s.color,
              width: s.width ?? 2,
              dash: s.dash,
              points: { show: few, size: 5 },
              value: (_u: unknown, v: number | null) => (v == null ? '—' : formatNumber(v)),
            })),
          ],
        },
        [x, ...SERIES.map((s) => stats.daily.map((d) => d[s.key]))],
        el,
      );
      observer = new ResizeObserver(() => chart?.setSize({ width: el.clientWidth, height: height() }));
      observer.observe(el);
      setDrawn(true);
    })().catch((e) => {
      if (!cancelled) setError(new ApiError(0, `The chart could not be drawn: ${(e as Error).message}`));
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [stats]);

  const max = SERIES.map((s) => ({ s, total: stats.daily.reduce((n, d) => n + d[s.key], 0) }));
  const summary = `Line chart of review requests per day from ${formatDay(stats.startDate)} to ${
    formatDay(stats.endDate)
  }: ${
    max.map(({ s, total }) => `${s.label.toLowerCase()} ${formatNumber(total)}`).join(', ')
  } in all. The table below has each day's numbers.`;

  return (
    <>
      {error && <Notice tone='error'>{error.message}</Notice>}
      <figure class='stats-chart' role='img' aria-label={summary}>
        <div ref={box} class='stats-chart-box' aria-hidden='true' />
        {!drawn && !error && <p class='muted small'>Drawing the chart…</p>}
      </figure>
    </>
  );
}
