// E-mail templates of review requests, their reminders and team invitations, in English and
// German (other locales fall back to English). Each renders a subject, a plain-text and an
// HTML part with the organization's name. Every value from data is escaped in HTML, and links
// are only ever http(s).
//
// Every recipient gets the same message whatever they may think of the business: the five star
// links all lead to the same review page (with that rating preselected), where any rating can be
// given. Nothing here (nor in the API) selects recipients or routes them by expected sentiment.
import { escapeHtml, safeLink } from '../html.ts';
import { button, fallbackLink, layout, pick, plainText, smallPrint } from './layout.ts';
import type { RenderedEmail, TemplateInput } from './layout.ts';

type RequestStrings = {
  subject: (org: string) => string;
  greeting: (name: string) => string;
  intro: (org: string, form: string) => string;
  /** The intro of a request that names products: what to rate, the business included. */
  productsIntro: (org: string, products: string) => string;
  /** The first names, then how many more: "A, B, C and 2 more". */
  list: (names: string[], more: number) => string;
  productsButton: string;
  ratePrompt: string;
  stars: (n: number) => string;
  button: string;
  fallback: string;
  why: (org: string) => string;
  unsubscribe: string;
};

const REQUEST: Record<string, RequestStrings> = {
  en: {
    subject: (org) => `How was your experience with ${org}?`,
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    intro: (org) =>
      `${org} would like to hear about your experience. Your review helps other customers and takes about a minute.`,
    productsIntro: (org, products) =>
      `${org} would like to hear what you think of ${products}, and of your experience with ${org}. Your reviews help other customers and take about a minute each.`,
    list: (names, more) => listOf(names, more, 'and', (n) => `${n} more`),
    productsButton: 'Write your reviews',
    ratePrompt: 'How would you rate it? Choose a rating, then write a few words:',
    stars: (n) => `${n} star${n === 1 ? '' : 's'}`,
    button: 'Write a review',
    fallback: 'If the button does not work, open this link:',
    why: (org) => `You receive this e-mail because you are a customer of ${org}. Sent on behalf of ${org} by Plaudit.`,
    unsubscribe: 'Unsubscribe from review requests',
  },
  de: {
    subject: (org) => `Wie war Ihre Erfahrung mit ${org}?`,
    greeting: (name) => (name ? `Hallo ${name},` : 'Hallo,'),
    intro: (org) =>
      `${org} möchte gern von Ihrer Erfahrung hören. Ihre Bewertung hilft anderen Kundinnen und Kunden und dauert etwa eine Minute.`,
    productsIntro: (org, products) =>
      `${org} möchte gern wissen, wie Sie ${products} und Ihre Erfahrung mit ${org} bewerten. Ihre Bewertungen helfen anderen Kundinnen und Kunden und dauern jeweils etwa eine Minute.`,
    list: (names, more) => listOf(names, more, 'und', (n) => `${n} ${n === 1 ? 'weiteres' : 'weitere'}`),
    productsButton: 'Bewertungen schreiben',
    ratePrompt: 'Wie bewerten Sie sie? Wählen Sie eine Bewertung und schreiben Sie ein paar Worte:',
    stars: (n) => `${n} ${n === 1 ? 'Stern' : 'Sterne'}`,
    button: 'Bewertung schreiben',
    fallback: 'Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:',
    why: (org) =>
      `Sie erhalten diese E-Mail, weil Sie Kundin oder Kunde von ${org} sind. Im Auftrag von ${org} versendet von Plaudit.`,
    unsubscribe: 'Keine Bewertungsanfragen mehr erhalten',
  },
};

/** Names in a sentence: "A", "A and B", "A, B and C", "A, B, C and 2 more". */
function listOf(names: string[], more: number, and: string, moreText: (n: number) => string) {
  const items = more > 0 ? [...names, moreText(more)] : names;
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${and} ${items.at(-1)}`;
}

/** How many product names an e-mail spells out; the rest are counted. */
const NAMED_PRODUCTS = 3;

/** The products a request names, from the e-mail's data: the first few names and how many more. */
function productList(data: Record<string, unknown>, t: RequestStrings): string | null {
  const names = Array.isArray(data.product_names)
    ? data.product_names.filter((n): n is string => typeof n === 'string' && n.trim() !== '')
    : [];
  if (names.length === 0) return null;
  return t.list(names.slice(0, NAMED_PRODUCTS), Math.max(names.length - NAMED_PRODUCTS, 0));
}

type ReminderStrings = Pick<RequestStrings, 'subject' | 'intro'> & {
  /** How many more reminders may follow this one (0: it is the last). */
  more: (remaining: number) => string;
};

const REMINDER: Record<string, ReminderStrings> = {
  en: {
    subject: (org) => `A reminder: how was your experience with ${org}?`,
    intro: (org) =>
      `A few days ago ${org} asked about your experience. If you have a minute, your review would help other customers.`,
    more: (n) =>
      n === 0
        ? 'This is the last reminder you will get for this request.'
        : `You will get at most ${n === 1 ? 'one more reminder' : `${n} more reminders`} for this request.`,
  },
  de: {
    subject: (org) => `Erinnerung: Wie war Ihre Erfahrung mit ${org}?`,
    intro: (org) =>
      `Vor einigen Tagen hat ${org} nach Ihrer Erfahrung gefragt. Wenn Sie eine Minute Zeit haben, hilft Ihre Bewertung anderen Kundinnen und Kunden.`,
    more: (n) =>
      n === 0
        ? 'Dies ist die letzte Erinnerung zu dieser Anfrage.'
        : `Zu dieser Anfrage erhalten Sie höchstens ${
          n === 1 ? 'eine weitere Erinnerung' : `${n} weitere Erinnerungen`
        }.`,
  },
};

/** The reminders after this one, from the e-mail's data (`reminder` of `reminder_max`); null when unknown. */
function remindersLeft(data: Record<string, unknown>): number | null {
  const n = Number(data.reminder);
  const max = Number(data.reminder_max);
  return Number.isInteger(n) && Number.isInteger(max) && n >= 1 && max >= 1 ? Math.max(max - n, 0) : null;
}

function requestEmail({ locale, orgName, data }: TemplateInput, reminder: boolean): RenderedEmail {
  const [lang, t] = pick(REQUEST, locale);
  const r = reminder ? pick(REMINDER, lang)[1] : null;
  const name = String(data.name ?? '').trim();
  const formName = String(data.form_name ?? '');
  const reviewUrl = safeLink(data.review_url);
  const unsubscribeUrl = safeLink(data.unsubscribe_url);
  const pixelUrl = safeLink(data.open_pixel_url);
  const ratingUrls = Array.isArray(data.rating_urls) ? data.rating_urls.map(safeLink) : [];
  const subject = (r ?? t).subject(orgName);
  // A reminder says how many more may follow, from the limit it was queued under; an e-mail
  // queued without it says nothing rather than something wrong.
  const left = r ? remindersLeft(data) : null;
  // A request naming products asks about each on its page: the e-mail names them, and has no
  // star links (a rating of what?) but one button to the page.
  const products = productList(data, t);
  const intro = [
    r ? r.intro(orgName, formName) : null,
    products ? t.productsIntro(orgName, products) : r ? null : t.intro(orgName, formName),
    r && left !== null ? r.more(left) : null,
  ].filter(Boolean).join(' ');
  const buttonText = products ? t.productsButton : t.button;
  const stars = products ? [] : ratingUrls;
  const starsText = stars.map((u, i) => `  ${'★'.repeat(i + 1)}${'☆'.repeat(4 - i)} ${t.stars(i + 1)}: ${u}`);
  const text = plainText(
    [
      t.greeting(name),
      '',
      intro,
      '',
      ...(stars.length ? [t.ratePrompt, ...starsText, ''] : []),
      `${buttonText}: ${reviewUrl}`,
    ],
    [t.why(orgName), `${t.unsubscribe}: ${unsubscribeUrl}`],
  );
  const starLinks = stars.map((u, i) =>
    `<a href="${escapeHtml(u)}" title="${escapeHtml(t.stars(i + 1))}" aria-label="${
      escapeHtml(t.stars(i + 1))
    }" style="font-size:32px;line-height:1;color:#bf8700;text-decoration:none;padding:0 4px">★</a>`
  ).join('');
  const html = layout(
    lang,
    subject,
    `
<p>${escapeHtml(t.greeting(name))}</p>
<p>${escapeHtml(intro)}</p>
${
      stars.length
        ? `<p>${escapeHtml(t.ratePrompt)}</p>
<p style="margin:16px 0">${starLinks}</p>`
        : ''
    }
${button(reviewUrl, buttonText)}
${fallbackLink(t.fallback, reviewUrl)}`,
    `${escapeHtml(t.why(orgName))}<br><a href="${escapeHtml(unsubscribeUrl)}" style="color:#6e7781">${
      escapeHtml(t.unsubscribe)
    }</a>`,
    pixelUrl ? `<img src="${escapeHtml(pixelUrl)}" width="1" height="1" alt="" style="display:block;border:0">` : '',
  );
  const headers: Record<string, string> = {};
  if (unsubscribeUrl) {
    // RFC 2369 and RFC 8058: mail clients offer one-click unsubscribe (a POST to this URL).
    headers['List-Unsubscribe'] = `<${unsubscribeUrl}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  return { subject, text, html, headers };
}

type InvitationStrings = {
  subject: (org: string) => string;
  intro: (org: string, role: string) => string;
  role: (role: string) => string;
  button: string;
  fallback: string;
  expires: (date: string) => string;
  ignore: string;
  footer: (org: string) => string;
};

const INVITATION: Record<string, InvitationStrings> = {
  en: {
    subject: (org) => `You are invited to join ${org} on Plaudit`,
    intro: (org, role) => `You have been invited to join the team of ${org} on Plaudit, as ${role}.`,
    role: (role) => (role === 'admin' ? 'an administrator' : 'a member'),
    button: 'Accept the invitation',
    fallback: 'If the button does not work, open this link:',
    expires: (date) => `The invitation expires on ${date} (UTC).`,
    ignore: 'If you did not expect this invitation, ignore this message: nothing happens unless you accept.',
    footer: (org) => `Sent on behalf of ${org} by Plaudit.`,
  },
  de: {
    subject: (org) => `Einladung: Treten Sie ${org} auf Plaudit bei`,
    intro: (org, role) => `Sie wurden eingeladen, dem Team von ${org} auf Plaudit beizutreten, als ${role}.`,
    role: (role) => (role === 'admin' ? 'Administrator/in' : 'Mitglied'),
    button: 'Einladung annehmen',
    fallback: 'Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:',
    expires: (date) => `Die Einladung läuft am ${date} (UTC) ab.`,
    ignore:
      'Wenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese Nachricht: Ohne Ihre Zustimmung geschieht nichts.',
    footer: (org) => `Im Auftrag von ${org} versendet von Plaudit.`,
  },
};

function teamInvitation({ locale, orgName, data }: TemplateInput): RenderedEmail {
  const [lang, t] = pick(INVITATION, locale);
  const link = safeLink(data.accept_url);
  const role = t.role(String(data.role ?? 'member'));
  const expires = String(data.expires_at ?? '').slice(0, 10);
  const subject = t.subject(orgName);
  const intro = t.intro(orgName, role);
  const text = plainText([intro, '', `${t.button}: ${link}`, '', expires ? t.expires(expires) : '', t.ignore], [
    t.footer(orgName),
  ]);
  const html = layout(
    lang,
    subject,
    `
<p>${escapeHtml(intro)}</p>
${button(link, t.button)}
${fallbackLink(t.fallback, link)}
${expires ? smallPrint(t.expires(expires)) : ''}
${smallPrint(t.ignore)}`,
    escapeHtml(t.footer(orgName)),
  );
  return { subject, text, html };
}

export const REVIEW_REQUEST_TEMPLATES: Record<string, (input: TemplateInput) => RenderedEmail> = {
  review_request: (input) => requestEmail(input, false),
  review_reminder: (input) => requestEmail(input, true),
  team_invitation: teamInvitation,
};
