// A product's attribute ratings (docs/products.md): each scale field a labelled distribution
// (Runs small · True to size · Runs large, with counts), each rating field its mean stars, as
// the product's summary counts them over its group.
import type { PublicProduct } from './data.ts';
import type { Strings } from './strings.ts';
import { oneDecimal, Stars } from './widget.tsx';

export function Attributes({ items, t }: { items: PublicProduct['attributes']; t: Strings }) {
  return (
    <dl class='at'>
      {items.map((a) => (
        <div key={a.key}>
          <dt>{a.label}</dt>
          <dd>
            {a.average
              ? (
                <>
                  <Stars rating={a.average} t={t} /> {oneDecimal(a.average)} <span class='mu'>({a.count})</span>
                </>
              )
              : (
                <ul class='bars'>
                  {Object.entries(a.distribution).map(([label, k]) => (
                    <li key={label} class='ab'>
                      <span>{label}</span>
                      <span class='bar'>
                        <span style={{ width: `${Math.round((k / a.count) * 100)}%` }} />
                      </span>
                      <span class='mu'>{k}</span>
                    </li>
                  ))}
                </ul>
              )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
