// A product's schema.org JSON-LD in the host document's head, as the `jsonld` route answers it:
// one script element per product (its slug and external id), whose text is replaced on a refresh,
// never added twice. Text through textContent: the data never becomes markup.
const ATTR = 'data-plaudit-jsonld';

export function putJsonLd(key: string, json: string): void {
  let el = [...document.head.querySelectorAll(`script[${ATTR}]`)].find((s) => s.getAttribute(ATTR) === key);
  if (!el) {
    el = document.createElement('script');
    el.setAttribute('type', 'application/ld+json');
    el.setAttribute(ATTR, key);
    document.head.append(el);
  }
  el.textContent = json;
}
