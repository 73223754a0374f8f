// The embed script. Customer sites place
//   <div id="service-widget" data-slug="acme"><a href="…/p/acme">Reviews of Acme</a></div>
//   <script async src="…/embed/v1/widget.js"></script>
// and every such container (also `[data-plaudit-widget]`, and ones added later) gets the widget in
// a shadow root, from one request for its data. With `data-product` it shows that product
// (product.tsx), or with `data-mode="stars"` only its stars (stars.tsx). An unknown slug or
// product, a switched-off profile or a network error leave the container as it was and throw
// nothing into the page. A container that holds a fragment the API drew of the first view
// (`/api/v1/public/fragments/…`, core/widget/fragment.ts) is adopted: the widget renders over the
// fragment's own elements from the state it carries, reading nothing, and only adds what reacts.
import { type ComponentChild, render } from 'preact';
import { getJson, productPath, type PublicProduct } from './data.ts';
import { putJsonLd } from './jsonld.ts';
import { ProductWidget, readPage, SORTS } from './product.tsx';
import { askRating, StarsLine } from './stars.tsx';
import { stringsFor } from './strings.ts';
import { STYLES } from './styles.ts';
import { businessSummaryUrl, readSummary } from './summary.tsx';
import { type EmbedData, signalUrls, themeOf, Widget } from './widget.tsx';

const SELECTOR = '#service-widget[data-slug], [data-plaudit-widget][data-slug]';
const script = document.currentScript as HTMLScriptElement | null;
const scriptBase = script?.src ? script.src.slice(0, script.src.indexOf('/embed/v1/')) : '';

/** Where a mount draws: its shadow root's slot, or an adopted fragment's view (no shadow root). */
type Mounted = { root: ShadowRoot | null; slot: HTMLElement };
const mounted = new WeakMap<Element, Mounted>();

function number(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isInteger(n) ? n : undefined;
}

/** Draws into the container's shadow root, in place of its fallback link, and says so. */
function show(el: HTMLElement, m: Mounted, content: ComponentChild): void {
  // Unmounted, or mounted again, while its data was on the way: that mount draws its own.
  if (mounted.get(el) !== m) return;
  render(content, m.slot);
  // The container's fallback link (for readers without scripts) gives way to the widget.
  m.root?.querySelector('slot')?.remove();
  el.dispatchEvent(
    new CustomEvent('plaudit:ready', { bubbles: true, detail: { slug: el.dataset.slug, product: el.dataset.product } }),
  );
}

/**
 * Nothing to show (an unknown slug or product, a switched-off profile, a failed read): the
 * container gives up the height it reserved and is its fallback link, nothing more, so that
 * neither an empty box nor the link overflowing it covers the page's own content.
 */
function fallBack(el: HTMLElement, m: Mounted): void {
  if (mounted.get(el) === m) el.style.height = 'auto';
}

/** The reader's language (ISO 639-1): the container's `data-language`, else the browser's. */
function readerOf(el: HTMLElement): string | null {
  const primary = (el.dataset.language || navigator.language || '').split('-')[0].toLowerCase();
  return /^[a-z]{2}$/.test(primary) ? primary : null;
}

// Each mode's first view is drawn once, with its summary (summary.tsx, readSummary), so that
// nothing in it moves after it shows.
async function loadBusiness(el: HTMLElement, m: Mounted, base: string, locale: string): Promise<void> {
  const d = el.dataset;
  const signals = signalUrls(base, d.slug!);
  const summary = readSummary(businessSummaryUrl(signals.api));
  const data = await getJson<EmbedData>(`${base}/api/v1/public/embed/${encodeURIComponent(d.slug!)}`);
  if (!data?.enabled || !Array.isArray(data.reviews)) return fallBack(el, m);
  show(
    el,
    m,
    <Widget
      data={data}
      options={{
        signals,
        summary: await summary(),
        layout: d.layout,
        theme: d.theme,
        maxReviews: number(d.maxReviews),
        minRating: number(d.minRating),
        locale,
        reader: readerOf(el),
      }}
    />,
  );
}

async function loadProduct(el: HTMLElement, m: Mounted, base: string, locale: string, id: string): Promise<void> {
  const d = el.dataset;
  const url = productPath(base, d.slug!, id);
  const reader = readerOf(el);
  const summary = readSummary(`${url}/summary`);
  const [product, first, jsonld] = await Promise.all([
    getJson<PublicProduct>(url),
    readPage(`${url}/reviews`, reader, 1, SORTS[0], 0),
    d.jsonld === 'off' ? null : getJson<unknown>(`${url}/jsonld`),
  ]);
  if (!product || !first) return fallBack(el, m);
  const s = await summary();
  // Unmounted meanwhile: neither drawn nor its JSON-LD put.
  if (mounted.get(el) !== m) return;
  if (jsonld) putJsonLd(`${d.slug}/${id}`, JSON.stringify(jsonld));
  const t = stringsFor(locale);
  show(
    el,
    m,
    <ProductWidget
      product={product}
      first={first}
      reviewsUrl={`${url}/reviews`}
      pageUrl={`${base}/p/${encodeURIComponent(d.slug!)}/products/${encodeURIComponent(id)}`}
      signals={signalUrls(base, d.slug!)}
      theme={themeOf(d.theme, 'light')}
      t={t}
      locale={locale}
      reader={reader}
      summary={s}
    />,
  );
}

// Nothing reaches the host page: on any failure the fallback link stays.
function load(el: HTMLElement, m: Mounted): void {
  const d = el.dataset;
  const base = d.api ?? scriptBase;
  const locale = d.locale ?? document.documentElement.lang ?? navigator.language ?? 'en';
  const id = d.product;
  if (id === undefined) {
    loadBusiness(el, m, base, locale).catch(() => fallBack(el, m));
  } else if (d.mode === 'stars') {
    askRating(
      base,
      d.slug!,
      id,
      (rating) =>
        rating
          ? show(el, m, <StarsLine rating={rating} t={stringsFor(locale)} theme={themeOf(d.theme, 'light')} />)
          : fallBack(el, m),
    );
  } else {
    loadProduct(el, m, base, locale, id).catch(() => fallBack(el, m));
  }
}

/**
 * A fragment's view: Preact renders over its elements (the same ones, core/widget/fragment.ts), so
 * nothing is read and nothing moves. Its root holds the slug and the API's base, whether it is the
 * container itself or inside one. A state that does not parse leaves the fragment as it is.
 */
function adopt(el: HTMLElement, view: HTMLElement): void {
  const m = mounted.get(view) ?? { root: null, slot: view };
  const first = !mounted.has(view);
  mounted.set(el, m).set(view, m);
  if (!first) return;
  try {
    const s = JSON.parse(view.dataset.plauditState!);
    const d = view.parentElement!.dataset;
    const base = d.api ?? scriptBase;
    const signals = signalUrls(base, d.slug!);
    const p = s.product;
    const id = p?.product.external_id;
    show(
      el,
      m,
      p
        ? (
          <ProductWidget
            {...p}
            reviewsUrl={`${productPath(base, d.slug!, id)}/reviews`}
            pageUrl={`${base}/p/${encodeURIComponent(d.slug!)}/products/${encodeURIComponent(id)}`}
            signals={signals}
            t={stringsFor(s.locale)}
            locale={s.locale}
            perPage={p.limit}
            reader={null}
          />
        )
        : <Widget data={s.business} options={{ signals, locale: s.locale, reader: null }} />,
    );
  } catch {
    // the fragment stays as the server drew it
  }
}

function mount(el: Element): void {
  if (!(el instanceof HTMLElement) || mounted.has(el) || !el.dataset.slug) return;
  const view = el.querySelector<HTMLElement>('[data-plaudit-state]');
  if (view) return adopt(el, view);
  const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = STYLES;
  const slot = document.createElement('div');
  slot.className = 'root';
  root.replaceChildren(style, slot, document.createElement('slot'));
  const m = { root, slot };
  mounted.set(el, m);
  load(el, m);
}

/** Containers the page unmounted: the scan of later changes leaves them so, until the page mounts them. */
const unmounted = new WeakSet<Element>();

function unmount(el: Element): void {
  const m = mounted.get(el);
  if (!m) return;
  render(null, m.slot);
  m.root?.replaceChildren(document.createElement('slot'));
  mounted.delete(el);
  mounted.delete(m.slot);
  unmounted.add(el);
}

/** Plaudit.mount: also a container the page unmounted before. */
function mountAgain(el: Element): void {
  unmounted.delete(el);
  mount(el);
}

function refresh(el?: Element): void {
  const targets = el ? [el] : [...document.querySelectorAll(SELECTOR)];
  for (const t of targets) {
    unmount(t);
    mountAgain(t);
  }
}

function scan(): void {
  document.querySelectorAll(SELECTOR).forEach((el) => unmounted.has(el) || mount(el));
}

(window as unknown as { Plaudit: unknown }).Plaudit = { mount: mountAgain, unmount, refresh };
scan();
new MutationObserver(scan).observe(document.documentElement, { childList: true, subtree: true });
