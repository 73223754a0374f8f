// The words a summary is made of: sentences split from a review, their tokens, the stop words of
// the languages we detect (English and German) and of reviews in general, and a small sentiment
// lexicon. Plain TypeScript, no native code: it runs in the worker and as an Edge Function.

/** A sentence of a review, as it stands in the text. */
export interface Sentence {
  text: string;
  /** Its tokens, lowercased and normalized (see `term`). */
  terms: string[];
}

const WORD = /\p{L}[\p{L}'’-]*/gu;

// Words repeat across reviews: each is normalized once (a bounded memo; 10,000 reviews hold a few
// tens of thousands of distinct words).
const memo = new Map<string, string>();

/** A word as topics count it: lowercased, a possessive and a trailing English plural taken off. */
export function term(word: string): string {
  const known = memo.get(word);
  if (known !== undefined) return known;
  let w = word.toLowerCase().replace(/[’']s$/, '').replace(/['’-]+$/, '');
  if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
  else if (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  if (memo.size > 200_000) memo.clear();
  memo.set(word, w);
  return w;
}

/** The normalized words of a text, in order. */
export function terms(text: string): string[] {
  return (text.match(WORD) ?? []).map(term);
}

/** A review's sentences: split at end punctuation and line breaks, trimmed, of 3 to 60 words. */
export function sentences(text: string): Sentence[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+|(?<=[.!?])(?=\p{Lu})/u)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length >= 12 && s.length <= 300)
    .map((s) => ({ text: s, terms: terms(s) }))
    .filter((s) => s.terms.length >= 3 && s.terms.length <= 60);
}

const list = (words: string) => new Set(words.split(/\s+/).filter(Boolean).map(term));

/** English and German function words. */
export const STOP_WORDS = list(`
  a about above after again against all also am an and any are aren't as at be because been before being below
  between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for
  from further had hadn't has hasn't have haven't having he her here hers herself him himself his how i i'm i've i'd
  i'll if in into is isn't it it's its itself just let's me more most much my myself no nor not now of off on once only
  or other ought our ours ourselves out over own same she should shouldn't so some such than that that's the their
  theirs them themselves then there there's these they they're this those through to too under until up upon us very
  was wasn't we we're were weren't what when where which while who whom why will with won't would wouldn't you you're
  your yours yourself yourselves ve ll re don didn doesn isn wasn wouldn couldn also yet still even though although
  however maybe perhaps per via one two three four five first second lot lots bit little way thing things something
  anything everything nothing someone anyone everyone really quite pretty rather enough almost always never ever
  usually just well ok okay yes oh im ive id dont cant wont didnt doesnt isnt wasnt around across along behind beside
  besides within toward towards onto inside outside since instead else another every many several
  aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes auch auf aus bei bin
  bis bist da damit dann das dass dasselbe dazu dein deine dem den denn der des dessen dich die dies diese dieselbe
  diesem diesen dieser dieses dir doch dort du durch ein eine einem einen einer eines einig einige einmal er es etwas
  euch euer eure für gegen gewesen hab habe haben hat hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre im in
  indem ins ist jede jedem jeden jeder jedes jene jetzt kann kein keine können könnte man manche mein meine mich mir
  mit muss musste nach nicht nichts noch nun nur ob oder ohne schon sehr sein seine sich sie sind so solche soll sollte
  sondern sonst über um und uns unser unter viel vom von vor war waren warst was weg weil weiter welche wenn werde
  werden wie wieder will wir wird wirklich wo wollen würde würden zu zum zur zwar zwischen ganz gar immer mal etwa eben
`);

/** Words every review uses whatever it is about: the background a subject's own topics stand out from. */
export const REVIEW_WORDS = list(`
  product products item items buy bought buying purchase purchased order ordered ordering review reviews star stars
  get got getting go going went make made makes use used using come came comes look looks looked looking feel feels felt
  think thought know want wanted need needed try tried give gave take took keep kept say said see saw find found put
  day days time times year years week weeks month months today back people person way thing overall definitely highly
  recommend recommended would could will can must may might like love loved loves great good nice bad best better worse
  worst happy disappointed amazing excellent perfect perfectly beautiful awesome terrible horrible poor fine super
  wonderful fantastic cute lovely gorgeous pleased glad sad sorry right wrong new old big small long short high low
  able sure usual usually normally typical typically absolutely totally completely exactly actually especially
  usual definitely probably certainly simply wear wore worn wearing run runs ran running fit fitted fitting
  tried trying return returned wash washed ordered ordering bought arrived received
  produkt produkte artikel kaufen gekauft bestellt bestellung bewertung sterne gut gute guter gutes super toll prima
  schlecht schlechte sehr leider gerne immer wieder empfehlen empfehlenswert zufrieden top klasse
`);

/** Words that praise, English and German (a small lexicon: the rating decides first). */
export const POSITIVE = list(`
  love loved lovely great good nice best better excellent perfect perfectly amazing awesome beautiful beautifully
  gorgeous comfortable comfy soft happy pleased glad recommend fantastic wonderful fabulous flattering cute favorite
  favourite fast quick quickly easy helpful friendly fresh pleasant impressed impressive sturdy durable reliable
  quality worth superb solid stylish elegant fits fit compliments enjoy enjoyed works worked
  gut gute guter gutes toll super prima schön schöne bequem weich schnell einfach freundlich hilfreich zufrieden
  empfehlen perfekt hervorragend ausgezeichnet klasse top liebe lieben begeistert
`);

/** Words that complain, English and German. */
export const NEGATIVE = list(`
  bad worse worst poor poorly terrible horrible awful cheap cheaply disappointed disappointing disappointment broke
  broken break damaged defective faulty itchy scratchy tight thin flimsy uncomfortable unflattering ugly wrong
  returned return returning refund slow late never problem problems issue issues hate hated waste useless
  fell ripped rip tear torn smell smells stain stained shrank shrunk small large huge overpriced expensive unfortunately
  sadly sheer see-through boxy frumpy awkward weird strange odd missing lost rude unhelpful warning beware
  translucent wish
  schlecht schlechte schlechter kaputt defekt enttäuscht enttäuschend leider billig dünn eng langsam spät teuer
  problem probleme zurückgeschickt rückgabe unbequem hässlich falsch fehlt fehlte
`);

/** Words that turn the next few words around. */
export const NEGATIONS = list(`not no never nor without isn't wasn't don't doesn't didn't can't couldn't won't
  wouldn't hardly barely nicht kein keine keinen nie ohne kaum`);

/** A sentence's lexicon score: praise minus complaint, a word after a negation counting the other way. */
export function lexiconScore(words: string[]): number {
  let score = 0;
  let flipFor = 0;
  for (const w of words) {
    if (NEGATIONS.has(w)) {
      flipFor = 3;
      continue;
    }
    const s = POSITIVE.has(w) ? 1 : NEGATIVE.has(w) ? -1 : 0;
    score += flipFor > 0 ? -s : s;
    if (flipFor > 0) flipFor -= 1;
  }
  return score;
}

/** Whether a word may name a topic: not a function word, not a word of every review, not praise or complaint. */
export function topical(word: string): boolean {
  return word.length >= 3 && !STOP_WORDS.has(word) && !REVIEW_WORDS.has(word) && !POSITIVE.has(word) &&
    !NEGATIVE.has(word) && !NEGATIONS.has(word) && !/\d/.test(word);
}
