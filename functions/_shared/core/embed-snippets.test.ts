import { describe, expect, it } from 'vitest';
import { embedSnippet, productSnippet, starsCanRead, starsSnippet } from './embed-snippets.ts';

const PROFILE = 'https://reviews.example.com/p/acme';
const SCRIPT = 'https://reviews.example.com/embed/v1/widget.0123456789abcdef.js';

describe('the widget snippets', () => {
  it("write the business's widget with its layout's height", () => {
    expect(embedSnippet('acme', 'Acme & Co', PROFILE, SCRIPT, 'carousel')).toBe(
      '<div id="service-widget" data-slug="acme" style="display:block;height:320px">' +
        `<a href="${PROFILE}">Reviews of Acme &amp; Co</a></div>\n<script async src="${SCRIPT}"></script>`,
    );
  });

  it("write a product's widget and stars line with the product's own id, its page as the fallback link", () => {
    const mug = { external_id: 'MUG "1"/blue', name: 'Mug <b>blue</b> & "big"' };
    const link = `${PROFILE}/products/MUG%20%221%22%2Fblue`;
    expect(productSnippet('acme', mug, PROFILE, SCRIPT)).toBe(
      '<div data-plaudit-widget data-slug="acme" data-product="MUG &quot;1&quot;/blue" ' +
        'style="display:block;height:560px">' +
        `<a href="${link}">Reviews of Mug &lt;b&gt;blue&lt;/b&gt; &amp; "big"</a></div>\n` +
        `<script async src="${SCRIPT}"></script>`,
    );
    expect(starsSnippet('acme', mug, PROFILE, SCRIPT)).toBe(
      '<span data-plaudit-widget data-slug="acme" data-product="MUG &quot;1&quot;/blue" data-mode="stars" ' +
        'style="display:block;height:24px">' +
        `<a href="${link}">Reviews of Mug &lt;b&gt;blue&lt;/b&gt; &amp; "big"</a></span>\n` +
        `<script async src="${SCRIPT}"></script>`,
    );
  });

  it('say when the stars cannot read an id: a comma separates the ids they ask for', () => {
    expect(starsCanRead('MUG-1')).toBe(true);
    expect(starsCanRead('MUG,1')).toBe(false);
  });
});
