// The embed script. Customer sites place
//   <div id="service-widget" data-slug="acme"><a href="…/p/acme">Reviews of Acme</a></div>
//   <script async src="…/embed/v1/widget.js"></script>
// and every such container (also `[data-plaudit-widget]`, and ones added later) gets the widget in
// a shadow root, from one request for its data. An unknown slug, a switched-off profile or a
// network error leave the container as it was and throw nothing into the page.
import { render } from 'preact';
import { STYLES } from './styles.ts';
import { type EmbedData, Widget } from './widget.tsx';

const SELECTOR = '#service-widget[data-slug], [data-plaudit-widget][data-slug]';
const script = document.currentScript as HTMLScriptElement | null;
const scriptBase = script?.src ? script.src.slice(0, script.src.indexOf('/embed/v1/')) : '';

type Mounted = { root: ShadowRoot; slot: HTMLElement };
const mounted = new WeakMap<Element, Mounted>();

function number(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isInteger(n) ? n : undefined;
}

async function load(el: HTMLElement, m: Mounted): Promise<void> {
  const d = el.dataset;
  const base = d.api ?? scriptBase;
  try {
    const res = await fetch(`${base}/api/v1/public/embed/${encodeURIComponent(d.slug ?? '')}`, { credentials: 'omit' });
    if (!res.ok) return;
    const data = (await res.json()) as EmbedData;
    if (!data.enabled || !Array.isArray(data.reviews)) return;
    render(
      <Widget
        data={data}
        options={{
          layout: d.layout,
          theme: d.theme,
          maxReviews: number(d.maxReviews),
          minRating: number(d.minRating),
          locale: d.locale ?? document.documentElement.lang ?? navigator.language ?? 'en',
        }}
      />,
      m.slot,
    );
    // The container's fallback link (for readers without scripts) gives way to the widget.
    m.root.querySelector('slot')?.remove();
    el.dispatchEvent(new CustomEvent('plaudit:ready', { bubbles: true, detail: { slug: d.slug } }));
  } catch {
    // Nothing reaches the host page: the fallback link stays.
  }
}

function mount(el: Element): void {
  if (!(el instanceof HTMLElement) || mounted.has(el) || !el.dataset.slug) return;
  const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = STYLES;
  const slot = document.createElement('div');
  slot.className = 'root';
  root.replaceChildren(style, slot, document.createElement('slot'));
  const m = { root, slot };
  mounted.set(el, m);
  void load(el, m);
}

function unmount(el: Element): void {
  const m = mounted.get(el);
  if (!m) return;
  render(null, m.slot);
  m.root.replaceChildren(document.createElement('slot'));
  mounted.delete(el);
}

function refresh(el?: Element): void {
  const targets = el ? [el] : [...document.querySelectorAll(SELECTOR)];
  for (const t of targets) {
    unmount(t);
    mount(t);
  }
}

function scan(): void {
  document.querySelectorAll(SELECTOR).forEach(mount);
}

(window as unknown as { Plaudit: unknown }).Plaudit = { mount, unmount, refresh };
scan();
new MutationObserver(scan).observe(document.documentElement, { childList: true, subtree: true });
