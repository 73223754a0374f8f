// A product's picture, as the product screens and an order's items show it.
import { useState } from 'preact/hooks';
import type { Schemas } from '../api.ts';
import { imageSource } from '../../../functions/_shared/core/web-links.ts';

/**
 * The product's picture at a fixed size (the layout never jumps), or a blank square when it has
 * none or it cannot be loaded. Shown over https, as the pages show it (web-links.ts): the dashboard's policy
 * allows https pictures only. Its alt is empty: the
 * product's name is written right beside it, and would otherwise be read twice.
 */
export function Thumbnail({ product, size = 48 }: { product: Pick<Schemas['Product'], 'image_url'>; size?: number }) {
  const [failed, setFailed] = useState(false);
  if (!imageSource(product.image_url) || failed) {
    return <span class='thumb thumb-empty' style={{ width: size, height: size }} />;
  }
  return (
    <img
      class='thumb'
      src={imageSource(product.image_url)}
      alt=''
      width={size}
      height={size}
      loading='lazy'
      referrerpolicy='no-referrer'
      onError={() => setFailed(true)}
    />
  );
}
