// Server-rendered HTML for the hosted pages, written with the markup`` template (core/html.ts).

import { markup, raw, type SafeHtml } from '../../core/html.ts';

export { markup, raw, SafeHtml } from '../../core/html.ts';

// Mobile first: one column, large touch targets, system fonts, visible focus, high contrast.
const STYLE = raw(`
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f2328;background:#f6f7f9}
main{max-width:40rem;margin:0 auto;padding:1.25rem 1rem 3rem;background:#fff;min-height:100vh}
@media (min-width:42rem){main{margin:2rem auto;min-height:0;border-radius:.75rem;padding:2rem 2.25rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}}
h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0 1rem}
.org{color:#57606a;font-size:.95rem;margin:0}
.logo{display:block;width:3rem;height:3rem;object-fit:contain;border-radius:.4rem;margin:0 0 .5rem}
.product-thumb{display:block;width:7.5rem;height:7.5rem;object-fit:contain;border-radius:.4rem;border:1px solid #d0d7de;margin:0 0 1.25rem}
label,legend{display:block;font-weight:600;margin:0 0 .35rem}
.hint{font-weight:400;color:#57606a}
.field{margin:0 0 1.25rem}
input[type=text],input[type=email],input[type=number],textarea,select{width:100%;font:inherit;padding:.65rem .75rem;border:1px solid #8c959f;border-radius:.4rem;background:#fff;color:inherit}
textarea{min-height:8rem;resize:vertical}
fieldset{border:0;padding:0;margin:0 0 1.25rem;min-width:0}
.stars{display:flex;flex-wrap:wrap;gap:.5rem}
.stars label{font-weight:400;display:flex;align-items:center;gap:.35rem;border:1px solid #8c959f;border-radius:2rem;padding:.45rem .85rem;cursor:pointer;margin:0}
.stars label:has(input:checked){background:#fff8c5;border-color:#bf8700}
.stars .s{color:#bf8700;letter-spacing:-.1em}
.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}
:focus-visible{outline:3px solid #0969da;outline-offset:2px}
[aria-invalid=true]{border-color:#cf222e;border-width:2px}
.error{color:#a40e26;font-weight:600;margin:.35rem 0 0}
.summary{border:2px solid #cf222e;border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1.5rem;background:#fff5f5}
.summary h2{font-size:1.1rem;margin:0 0 .5rem}
.summary ul{margin:0;padding-left:1.25rem}
.summary a{color:#a40e26}
button,a.button{display:inline-block;text-align:center;text-decoration:none;font:inherit;font-weight:600;background:#1f6feb;color:#fff;border:0;border-radius:.4rem;padding:.8rem 1.4rem;cursor:pointer;width:100%}
@media (min-width:42rem){button,a.button{width:auto}}
.notice{border-left:4px solid #1f6feb;background:#f0f6ff;padding:.75rem 1rem;border-radius:.25rem}
.trap{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.fine{font-size:.85rem;color:#57606a;margin-top:2rem}
`);

export interface PageOptions {
  title: string;
  body: SafeHtml;
  lang?: string;
  /** Search engines index the page (public profiles) instead of the default noindex. */
  indexable?: boolean;
  /** More of the head: description, canonical, cards, structured data. */
  head?: SafeHtml;
  /** Styles of this kind of page, after the shared ones. */
  style?: SafeHtml;
}

/**
 * The start of every HTML document served here, up to what its head adds: its language, its
 * encoding, a mobile viewport, and whether search engines may index it.
 */
export function documentStart(lang: string, { indexable = false } = {}): SafeHtml {
  return markup`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="${indexable ? 'index, follow' : 'noindex'}">
`;
}

export function page({ title, body, lang = 'en', indexable = false, head, style }: PageOptions): string {
  return markup`${documentStart(lang, { indexable })}<title>${title}</title>
${head ?? ''}<style>${STYLE}${style ?? ''}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`.value;
}
