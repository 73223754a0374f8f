// The one rule for the links a business gives its products (`url`, `image_url`): what is taken and
// how a picture is shown. The contract takes http or https (decisions.md: `image_url` http/https,
// at most 2,000 characters), so the API, the dashboard's form and its CSV upload all accept both by
// `isWebLink`. Pages are served over https and load pictures over https only (their
// Content-Security-Policy, and browsers refuse mixed content), so every page, the dashboard and the
// structured data show a picture by `imageSource`: an https address as given, an http one asked for
// over https (what a browser's mixed-content upgrade would do, decided here instead of left to it).

/** The longest link a product keeps. */
export const WEB_LINK_MAX = 2000;

/** The API's words for a link that is not one. */
export const WEB_LINK_RULE = 'must be an http(s) URL';

/** Whether a (trimmed) value is an absolute http or https URL a browser can read. */
export function isWebLink(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** The address a picture is shown from: https, the http scheme upgraded; '' when it is no web link. */
export function imageSource(value: unknown): string {
  const s = String(value ?? '').trim();
  if (!isWebLink(s)) return '';
  return s.replace(/^http:\/\//i, 'https://');
}
