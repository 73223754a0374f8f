// Language detection at submission (docs/reviews.md, "Languages"): POST /api/v1/reviews with a
// review of realistic length, on two API instances side by side, one telling each review's
// language (the default) and one with REVIEW_LANGUAGES=off. Same database, same form, same load.
import { expectStatus, seedOrganization, UNLIMITED_PUBLIC, wrkScript } from './reviews.mjs';

/** Review texts of a typical length (≈ 300 characters), in the languages shoppers write most here. */
const TEXTS = [
  'Arrived two days after ordering, well packed, and the glaze is even nicer than in the photos. It keeps tea warm ' +
  'for a long time and the handle sits comfortably in the hand. I bought a second one as a present for my sister, ' +
  'who loved it just as much.',
  'Die Tasse kam schnell und gut verpackt an, die Glasur ist noch schöner als auf den Fotos. Sie hält den Tee lange ' +
  'warm und der Henkel liegt angenehm in der Hand. Ich habe gleich eine zweite als Geschenk für meine Schwester ' +
  'bestellt, die sich sehr gefreut hat.',
  "La tasse est arrivée rapidement et bien emballée, l'émail est encore plus beau que sur les photos. Elle garde le " +
  "thé chaud longtemps et l'anse tient bien en main. J'en ai commandé une deuxième pour offrir à ma sœur, qui l'a " +
  'adorée.',
];

/** wrk's Lua: a new review a request from a new address, its text one of TEXTS with a number of its own. */
const lua = (formId, prefix) => `
local texts = { ${TEXTS.map((t) => JSON.stringify(JSON.stringify(t).slice(1, -1))).join(', ')} }
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
local n = 0
request = function()
  n = n + 1
  local id = string.format("%s-%d-%d", "${prefix}", tid, n)
  local body = string.format('{"form_id":"${formId}","rating":%d,"title":"Bench","content":"%s (%s)","reviewer_name":"Bench","reviewer_email":"%s@example.com"}', n % 5 + 1, texts[n % 3 + 1], id, id)
  local ip = string.format("10.%d.%d.%d", tid, math.floor(n / 256) % 256, n % 256)
  return wrk.format("POST", nil, { ["Content-Type"] = "application/json", ["X-Forwarded-For"] = ip }, body)
end
`;

export default {
  name: 'reviews-submit-languages',
  description:
    'POST /api/v1/reviews with ≈ 300-character reviews in three languages: the language told (default) next to REVIEW_LANGUAGES=off',

  async setup(ctx) {
    const seed = await seedOrganization(ctx, 'bench-languages', 1_000);
    const detecting = await ctx.stack.startExtraApi({ env: UNLIMITED_PUBLIC });
    const off = await ctx.stack.startExtraApi({ env: { ...UNLIMITED_PUBLIC, REVIEW_LANGUAGES: 'off' } });
    const check = async (api, language) => {
      const { body } = await expectStatus(`${api.url}/api/v1/reviews`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
        body: JSON.stringify({
          form_id: seed.formId,
          rating: 5,
          content: `${TEXTS[1]} ${language}`,
          reviewer_name: 'B',
          reviewer_email: `check-${language}@example.com`,
        }),
      }, 201);
      if (JSON.parse(body).language !== language) throw new Error(`expected language ${language}: ${body}`);
    };
    await check(detecting, 'de');
    await check(off, null);
    let run = 0;
    const script = () => lua(seed.formId, `lang${Date.now()}-${++run}`);
    ctx.log(`warming up for ${ctx.warmup} s`);
    await wrkScript(ctx, { url: `${detecting.url}/api/v1/reviews`, lua: script(), seconds: ctx.warmup });
    await wrkScript(ctx, { url: `${off.url}/api/v1/reviews`, lua: script(), seconds: ctx.warmup });
    return { detecting: `${detecting.url}/api/v1/reviews`, off: `${off.url}/api/v1/reviews`, script };
  },

  measurements: [
    {
      key: 'detect',
      name: 'POST /reviews, language told',
      run: (ctx, s) => wrkScript(ctx, { url: s.detecting, lua: s.script() }),
    },
    {
      key: 'off',
      name: 'POST /reviews, REVIEW_LANGUAGES=off',
      run: (ctx, s) => wrkScript(ctx, { url: s.off, lua: s.script() }),
    },
  ],

  ratios: [{ name: 'told ÷ not told', of: 'detect', over: 'off', target: 0.95 }],
};
