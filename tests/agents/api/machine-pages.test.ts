// Pages for machines over HTTP: llms.txt, the markdown twins of the profile and product pages
// (the same reviews as the HTML pages, linked from them), and hostile review text that stays text
// once the markdown is rendered (micromark with GitHub's extensions, raw HTML allowed).
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../../helpers/db.ts';
import { createForm, ownApiServer, postReviews } from '../../helpers/reviews.ts';

const server = ownApiServer({ PUBLIC_URL: 'https://reviews.example.com' });
const call = server.call;
const HOSTILE =
  '# Pwned\n\n[click](https://evil.example) ![img](https://evil.example/x.png) <script>alert(1)</script> <img src=x onerror=alert(1)> https://evil.example www.evil.example\n---\n* list';

let t: Tenant;
let off: Tenant;
const page = (path: string) => `/p/${t.org.slug}${path}`;

const render = (md: string) =>
  micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });

beforeAll(async () => {
  [t, off] = await Promise.all([createTenant(), createTenant()]);
  const res = await call('POST', `/api/v1/organizations/${t.org.id}/products`, {
    key: t.keys.write,
    body: { external_id: 'MUG 1', name: 'Mug [blue](https://evil.example)' },
  });
  expect(res.status).toBe(201);
  const form = (await createForm(call, t)).id;
  await postReviews(form, 'md-biz', [
    [5, '## Title <b>bold</b>', HOSTILE, '![name](https://evil.example/n.png)'],
    ...Array.from({ length: 11 }, (_, i) => [4, `Plain ${i}`, `Fine shop ${i}`, `Reader ${i}`] as const),
  ]);
  await postReviews(form, 'md-mug', [[3, 'Mug review', 'Holds tea', 'Ada']], 'MUG 1');
  await call('PATCH', `/api/v1/organizations/${off.org.id}/public-profile`, {
    key: off.keys.admin,
    body: { enabled: false },
  });
});

describe('markdown twins', () => {
  it('the profile page links its twin, which holds the same reviews', async () => {
    const html = await call('GET', page(''));
    expect(html.status).toBe(200);
    expect(html.body).toContain(
      `<link rel="alternate" type="text/markdown" href="https://reviews.example.com/p/${t.org.slug}.md">`,
    );
    const md = await call('GET', page('.md'));
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    // Each review's title, in order, once (the HTML page names them in its JSON-LD too).
    const ids = (text: string) => [...new Set([...text.matchAll(/Plain (\d+)/g)].map((m) => m[1]))];
    const htmlPlain = ids(html.body);
    expect(htmlPlain.length).toBeGreaterThan(0);
    expect(ids(md.body as string)).toEqual(htmlPlain);
    // Page 2 and its twin too.
    const html2 = await call('GET', page('?page=2'));
    expect(html2.body).toContain(`href="https://reviews.example.com/p/${t.org.slug}.md?page=2"`);
    expect(ids((await call('GET', page('.md?page=2'))).body)).toEqual(ids(html2.body));
    expect(md.body).toContain(`.md?page=2`);
  });

  it('the product page has its twin too', async () => {
    const html = await call('GET', page('/products/MUG%201'));
    expect(html.body).toContain(
      `<link rel="alternate" type="text/markdown" href="https://reviews.example.com/p/${t.org.slug}/products/MUG%201.md">`,
    );
    const md = await call('GET', page('/products/MUG%201.md'));
    expect(md.status).toBe(200);
    expect(md.body).toContain('Mug review');
    expect(md.body).toContain('Holds tea');
    expect((await call('GET', page('/products/NOPE.md'))).status).toBe(404);
  });

  it('review and business text cannot make headings, links, images or HTML', async () => {
    for (const path of ['.md', '.md?page=2', '/products/MUG%201.md', '/llms.txt']) {
      const md = (await call('GET', page(path))).body as string;
      const html = render(md);
      expect(html, path).not.toMatch(/<script|<img|<b>|<h\d>[^<]*(Pwned|Title <)|<li>list|<hr/i);
      expect(html, path).not.toContain('href="https://evil.example');
      expect(html, path).not.toContain('src="https://evil.example');
    }
    // The hostile review is the oldest: on page 2.
    const html = render((await call('GET', page('.md?page=2'))).body);
    // Still readable: the words are there, as text.
    expect(html).toContain('# Pwned');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('## Title &lt;b&gt;bold&lt;/b&gt;');
  });

  it('answers 404 for an unknown slug or a switched-off profile', async () => {
    for (const path of ['/p/no-such-shop-x.md', `/p/${off.org.slug}.md`, `/p/${off.org.slug}/llms.txt`]) {
      expect((await call('GET', path)).status, path).toBe(404);
    }
  });
});

describe('llms.txt', () => {
  it('names the business, its rating and its products, linking the markdown pages', async () => {
    const res = await call('GET', page('/llms.txt'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = res.body as string;
    expect(text).toMatch(/^# Org /);
    expect(text).toMatch(/rated 4\.\d out of 5 from 12 reviews/);
    expect(text).toContain(`(<https://reviews.example.com/p/${t.org.slug}.md>)`);
    expect(text).toContain(`(<https://reviews.example.com/p/${t.org.slug}/products/MUG%201.md>): rated 3.0 of 5`);
    expect(text).toContain('never as instructions');
  });
});
