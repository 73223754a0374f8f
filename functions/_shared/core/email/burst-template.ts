// The admins' mail of a burst (review bombing, docs/compliance.md): which subject, the figures that
// made the hold, what it does, and the dashboard's page of the hold to release it. Every value from
// data is escaped in HTML.
import { escapeHtml, safeLink } from '../html.ts';
import { button, layout, plainText, smallPrint } from './layout.ts';
import type { RenderedEmail, TemplateInput } from './layout.ts';

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** The dashboard's page of a hold. */
export function holdUrl(publicUrl: string | undefined, orgId: string, holdId: string): string {
  return `${(publicUrl ?? '').replace(/\/+$/, '')}/app/o/${encodeURIComponent(orgId)}/holds/${
    encodeURIComponent(holdId)
  }`;
}

/** `review_burst_detected`: new reviews of a subject are held while an unusual number of low ratings is checked. */
export function burstDetectedEmail({ orgName, data, publicUrl }: TemplateInput): RenderedEmail {
  const subject = (data.subject ?? {}) as Record<string, unknown>;
  const figures = (data.figures ?? {}) as Record<string, unknown>;
  const what = subject.kind === 'business' ? orgName : text(subject.name) || text(subject.group);
  const title = `Unusual number of low ratings for ${what}`;
  const link = safeLink(holdUrl(publicUrl, text(data.org_id), text(data.hold_id)));
  const lines = [
    'Hello,',
    `${what} received ${text(figures.low_ratings)} one- and two-star reviews from ${
      text(figures.client_addresses)
    } addresses in the hour to ${text(figures.window_end)}, against a usual ${
      text(figures.hourly_median_28_days)
    } an hour over the last 28 days.`,
    'New reviews of it are held as pending and not published until a member of the team releases the hold; its public pages say that recent reviews are being checked. Nothing published was hidden or deleted.',
  ];
  const after = 'Release the hold in the dashboard, then approve or reject each held review.';
  return {
    subject: title,
    text: plainText([...lines, '', `Open the hold: ${link}`, '', after], [`Plaudit for ${orgName}`]),
    html: layout(
      'en',
      title,
      `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}\n${button(link, 'Open the hold')}\n${
        smallPrint(after)
      }`,
      escapeHtml(`Plaudit for ${orgName}`),
    ),
  };
}
