// What search engines read besides the profile pages (profile.ts):
//   GET /sitemap.xml          every public page of the enabled profiles (each profile page, its
//                             review policy, its transparency page, its catalog of products, each
//                             listed product's page), or past
//                             SITEMAP_LIMIT an index of sitemaps
//   GET /sitemap-N.xml        one page of that index
//   GET /robots.txt           the profile pages are for indexing; the API and the e-mailed links are not
import { Hono } from 'hono';
import type { Context } from 'hono';
import { runAsPublic } from '../../core/db/roles.ts';
import { env } from '../../core/runtime.ts';
import type { AppEnv } from '../http/env.ts';
import { publicNotFound } from './shared.ts';
import { cacheKeyHeaders, SITEMAP_CACHE_KEY } from '../http/cache-keys.ts';

/** A sitemap holds at most 50,000 addresses; past that, /sitemap.xml is an index of pages. */
const SITEMAP_LIMIT = 50_000;

function sitemapPageSize(): number {
  const n = Number(env('SITEMAP_PAGE_SIZE') ?? SITEMAP_LIMIT);
  return Number.isInteger(n) && n >= 1 && n <= SITEMAP_LIMIT ? n : SITEMAP_LIMIT;
}

/** One page of a profile: its own, its review policy's, its transparency page, its catalog's, or a product's (with its external_id). */
type SitemapRow = {
  slug: string;
  page: 'profile' | 'policy' | 'transparency' | 'catalog' | 'product';
  external_id: string | null;
  updated_at: Date | null;
  total: string;
};

function pagePath(r: SitemapRow): string {
  const profile = `/p/${encodeURIComponent(r.slug)}`;
  switch (r.page) {
    case 'policy':
      return `${profile}/policy`;
    case 'transparency':
      return `${profile}/transparency`;
    case 'catalog':
      return `${profile}/products`;
    case 'product':
      return `${profile}/products/${encodeURIComponent(r.external_id ?? '')}`;
    default:
      return profile;
  }
}

async function sitemapPage(c: Context<AppEnv>, n: number, size: number) {
  return await runAsPublic(c.var.sql, (tx) => tx<SitemapRow[]>`select * from plaudit.public_sitemap(${n}, ${size})`);
}

const xml = (c: Context<AppEnv>, body: string) =>
  c.body(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, 200, {
    'Content-Type': 'application/xml; charset=utf-8',
    'Cache-Control': 'public, max-age=3600',
    // It lists every organization: one key of its own, purged with an organization whose page moves.
    ...cacheKeyHeaders([SITEMAP_CACHE_KEY]),
  });

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!);

function urlset(base: string, rows: SitemapRow[]): string {
  const urls = rows.map((r) =>
    `<url><loc>${escapeXml(`${base}${pagePath(r)}`)}</loc>${
      r.updated_at ? `<lastmod>${new Date(r.updated_at).toISOString().slice(0, 10)}</lastmod>` : ''
    }</url>`
  );
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function sitemapPages() {
  const app = new Hono<AppEnv>();

  app.get('/sitemap.xml', async (c) => {
    const base = c.var.config.publicUrl;
    const size = sitemapPageSize();
    const rows = await sitemapPage(c, 1, size);
    const total = rows.length ? Number(rows[0].total) : 0;
    if (total <= size) return xml(c, urlset(base, rows));
    const pages = Math.ceil(total / size);
    const entries = Array.from(
      { length: pages },
      (_, i) => `<sitemap><loc>${escapeXml(`${base}/sitemap-${i + 1}.xml`)}</loc></sitemap>`,
    );
    return xml(
      c,
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`,
    );
  });

  app.get('/:file{sitemap-[0-9]{1,6}\\.xml}', async (c) => {
    const n = Number(/\d+/.exec(c.req.param('file'))![0]);
    const rows = n >= 1 ? await sitemapPage(c, n, sitemapPageSize()) : [];
    if (rows.length === 0) {
      return publicNotFound(c, 404, 'No such sitemap', 'The sitemap index at /sitemap.xml lists the sitemaps.');
    }
    return xml(c, urlset(c.var.config.publicUrl, rows));
  });

  app.get('/robots.txt', (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return c.text(
      `User-agent: *\nAllow: /p/\nDisallow: /api/\nDisallow: /r/\nDisallow: /t/\nDisallow: /verify/\nDisallow: /unsubscribe/\nDisallow: /invitations/\nDisallow: /_dev/\n\nSitemap: ${c.var.config.publicUrl}/sitemap.xml\n`,
    );
  });

  return app;
}
