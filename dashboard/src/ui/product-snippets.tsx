// The widget's product snippets on the widget screen: pick a product of the catalog by typing its
// name or id, and copy the snippet for its page in the shop (its summary, reviews and JSON-LD) or
// the stars line for category pages, each filled with the product's own id. The HTML comes from
// core/embed-snippets.ts, where the embed answer's business snippet comes from too.
import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api.ts';
import { useOrgId } from '../session.ts';
import { productSnippet, starsCanRead, starsSnippet } from '../../../functions/_shared/core/embed-snippets.ts';
import { CopyField, ErrorNotice } from './components.tsx';
import { useLoad } from './hooks.ts';
import { ProductPicker } from './product-picker.tsx';

type Embed = Schemas['PublicEmbed'];

export function ProductSnippets({ embed }: { embed: Embed }) {
  const orgId = useOrgId();
  const [productId, setProductId] = useState('');
  const product = useLoad(
    (signal) =>
      productId
        ? api.get('/organizations/{orgId}/products/{id}', { params: { orgId, id: productId }, signal })
        : Promise.resolve(null),
    [orgId, productId],
  );
  const p = productId ? product.data : null;
  return (
    <section class='product-snippets' aria-labelledby='product-snippets-heading'>
      <h3 id='product-snippets-heading'>A product’s reviews and stars</h3>
      <p class='muted small'>
        Pick a product to get its snippets, filled with your id of it. The product widget goes on the product’s page in
        your shop: its rating, bars and reviews (of its whole group, when it has one). The stars line goes beside the
        product in category and search pages. A page needs the script line once, however many widgets it holds.
      </p>
      <ProductPicker
        label='Product'
        placeholder='Type a product’s name or id'
        value={productId}
        onPick={setProductId}
      />
      <ErrorNotice error={product.error} />
      {p && (
        <>
          <CopyField
            label='Product page snippet'
            value={productSnippet(embed.slug, p, embed.url, embed.script_url)}
            multiline
          />
          {starsCanRead(p.external_id)
            ? (
              <CopyField
                label='Stars snippet'
                value={starsSnippet(embed.slug, p, embed.url, embed.script_url)}
                multiline
              />
            )
            : (
              <p class='hint'>
                The stars line cannot show this product: its id holds a comma, which separates the ids the stars ask
                for. Give it an id without one to use the stars.
              </p>
            )}
        </>
      )}
    </section>
  );
}
