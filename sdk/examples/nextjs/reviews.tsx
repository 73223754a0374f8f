// A Next.js server component (App Router): a product's reviews, read on the server and part of the
// page's HTML, so that they paint with it and crawlers read them; the widget's script adopts them
// in the browser (votes, more, sort) without reading them again. In a product page:
//   <Reviews product={params.id} />
// PLAUDIT_URL is your Plaudit (https://reviews.example.com), PLAUDIT_SLUG your business's slug.
import { Plaudit } from '@plaudit/sdk';

const base = process.env.PLAUDIT_URL!;
const plaudit = new Plaudit({ baseUrl: base });

export default async function Reviews({ product, language = 'en' }: { product?: string; language?: string }) {
  // Escaped by the API: include it as is. Cached answers revalidate with their ETag.
  const html = await plaudit.fragments.get(process.env.PLAUDIT_SLUG!, { product, language });
  return (
    <>
      <div dangerouslySetInnerHTML={{ __html: html }} />
      <script async src={`${base}/embed/v1/widget.js`} />
    </>
  );
}
