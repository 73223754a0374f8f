import { describe, expect, it } from 'vitest';
import { renderEmail } from './templates.ts';

const links = {
  review_url: 'https://reviews.example/t/c/TOKEN',
  rating_urls: [1, 2, 3, 4, 5].map((n) => `https://reviews.example/t/c/TOKEN?rating=${n}`),
  unsubscribe_url: 'https://reviews.example/unsubscribe/TOKEN',
};

const render = (template: string, data: Record<string, unknown>, locale = 'en') =>
  renderEmail(template, { locale, orgName: 'Acme', data: { name: 'Ada', ...links, ...data } });

describe('review request e-mails that name products', () => {
  it('name up to three products, count the rest, and lead to the page without star links', () => {
    const mail = render('review_request', {
      product_names: ['Mug <b>Blue</b>', 'Tee', 'Cap', 'Scarf', 'Socks'],
    });
    expect(mail.text).toContain(
      'Acme would like to hear what you think of Mug <b>Blue</b>, Tee, Cap and 2 more, and of your experience with Acme.',
    );
    expect(mail.text).toContain('Write your reviews: https://reviews.example/t/c/TOKEN');
    expect(mail.text).not.toContain('rating=');
    // Markup in a name is text.
    expect(mail.html).toContain('Mug &lt;b&gt;Blue&lt;/b&gt;, Tee, Cap and 2 more');
    expect(mail.html).not.toContain('<b>Blue');
    expect(mail.html).not.toContain('rating=');
  });

  it('say "A and B" for two, and keep the star links for a request about the business alone', () => {
    expect(render('review_request', { product_names: ['Mug', 'Tee'] }).text)
      .toContain('what you think of Mug and Tee, and of your experience with Acme.');
    expect(render('review_request', { product_names: ['Mug'] }).text).toContain('what you think of Mug, and of');
    const plain = render('review_request', { product_names: [] });
    expect(plain.text).toContain('Acme would like to hear about your experience.');
    expect(plain.text).toContain('rating=5');
  });

  it('name them in reminders and in German too', () => {
    const reminder = render('review_reminder', { product_names: ['Mug', 'Tee'], reminder: 1, reminder_max: 1 });
    expect(reminder.text).toContain('A few days ago Acme asked about your experience.');
    expect(reminder.text).toContain('what you think of Mug and Tee');
    expect(reminder.text).toContain('This is the last reminder you will get for this request.');
    const de = render('review_request', { product_names: ['Becher', 'Hemd', 'Kappe', 'Schal'] }, 'de');
    expect(de.text).toContain('wie Sie Becher, Hemd, Kappe und 1 weiteres und Ihre Erfahrung mit Acme bewerten');
    expect(de.text).toContain('Bewertungen schreiben: https://reviews.example/t/c/TOKEN');
  });
});
