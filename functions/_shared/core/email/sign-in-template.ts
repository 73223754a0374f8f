// The sign-in e-mail of the dashboard: one mail carries a one-time link and the same sign-in as a
// 6-digit code (for a browser other than the one that opens the mail). English and German.
import { escapeHtml, safeLink } from '../html.ts';
import { button, fallbackLink, layout, pick, plainText, smallPrint } from './layout.ts';
import type { RenderedEmail, TemplateInput } from './layout.ts';

type SignInStrings = {
  subject: (code: string) => string;
  intro: string;
  button: string;
  code: string;
  fallback: string;
  expires: string;
  ignore: string;
  footer: string;
};

const SIGN_IN: Record<string, SignInStrings> = {
  en: {
    subject: (code) => `Your Plaudit sign-in code: ${code}`,
    intro: 'Use the button to sign in to your Plaudit dashboard, or enter this code on the sign-in page:',
    button: 'Sign in to Plaudit',
    code: 'Sign-in code',
    fallback: 'If the button does not work, open this link:',
    expires: 'The link and the code work once, for 15 minutes.',
    ignore: 'If you did not ask to sign in, ignore this message: nobody can sign in without it.',
    footer: 'Sent by Plaudit.',
  },
  de: {
    subject: (code) => `Ihr Plaudit-Anmeldecode: ${code}`,
    intro: 'Melden Sie sich mit der Schaltfläche in Ihrem Plaudit-Dashboard an, oder geben Sie diesen Code ein:',
    button: 'Bei Plaudit anmelden',
    code: 'Anmeldecode',
    fallback: 'Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:',
    expires: 'Link und Code gelten einmal, 15 Minuten lang.',
    ignore:
      'Wenn Sie keine Anmeldung angefordert haben, ignorieren Sie diese Nachricht: Ohne sie kann sich niemand anmelden.',
    footer: 'Versendet von Plaudit.',
  },
};

export function signInEmail({ locale, data }: TemplateInput): RenderedEmail {
  const [lang, t] = pick(SIGN_IN, locale);
  const link = safeLink(data.link);
  const code = String(data.code ?? '').replace(/\D/g, '').slice(0, 6);
  const subject = t.subject(code);
  const text = plainText(
    [t.intro, '', `${t.code}: ${code}`, '', `${t.button}: ${link}`, '', t.expires, t.ignore],
    [t.footer],
  );
  const html = layout(
    lang,
    subject,
    `
<p>${escapeHtml(t.intro)}</p>
<p style="font-size:28px;font-weight:600;letter-spacing:6px;font-family:ui-monospace,Menlo,Consolas,monospace" aria-label="${
      escapeHtml(t.code)
    }">${escapeHtml(code)}</p>
${button(link, t.button)}
${fallbackLink(t.fallback, link)}
${smallPrint(`${t.expires} ${t.ignore}`)}`,
    escapeHtml(t.footer),
  );
  return { subject, text, html };
}
