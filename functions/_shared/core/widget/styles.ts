// The widget's styles, inside its shadow root: the host page's CSS cannot reach them, and they
// cannot leak out. Inherited properties (font, colour) would still flow in from the host element,
// so the widget's root resets them all (`all: initial`) and sets its own. Brand colours come from custom properties the host may set on the container:
// --plaudit-accent, --plaudit-star, --plaudit-background, --plaudit-text, --plaudit-muted.
export const STYLES = `
:host{display:block}
.root{height:100%}
/* Until the widget draws (or when it has nothing to show), the container's fallback link shows in its place, a block as tall as the container that holds only it. */
.root:empty{display:none}
::slotted(*){display:block}
/* The widget fills the height its container reserves (the snippet sets it) and scrolls inside. */
.w{all:initial;display:block;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;text-align:start;--a:var(--plaudit-accent,#0b57d0);--s:var(--plaudit-star,#9a6700);--bg:var(--plaudit-background,#fff);--fg:var(--plaudit-text,#1f2328);--mu:var(--plaudit-muted,#57606a);--bd:#d0d7de;
background:var(--bg);color:var(--fg);border:1px solid var(--bd);border-radius:12px;padding:16px;box-sizing:border-box;
height:100%;display:flex;flex-direction:column;overflow:hidden}
.w.dark{--a:var(--plaudit-accent,#8ab4f8);--s:var(--plaudit-star,#e3b341);--bg:var(--plaudit-background,#161b22);--fg:var(--plaudit-text,#e6edf3);--mu:var(--plaudit-muted,#9da7b3);--bd:#30363d}
@media (prefers-color-scheme:dark){.w.auto{--a:var(--plaudit-accent,#8ab4f8);--s:var(--plaudit-star,#e3b341);--bg:var(--plaudit-background,#161b22);--fg:var(--plaudit-text,#e6edf3);--mu:var(--plaudit-muted,#9da7b3);--bd:#30363d}}
*{box-sizing:border-box}
.ck{margin:0 0 12px;padding:6px 10px;border-left:3px solid var(--s)}.head{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 12px;margin:0 0 12px}
.name{font-size:17px;font-weight:700;margin:0}
/* Stars: the rounded glyphs hold the place; five grey stars over them, and five gold ones clipped to the rating's fraction. */
.st{color:transparent;letter-spacing:1px;position:relative;display:inline-block}
.st:before,.st:after{content:"★★★★★";color:var(--bd);position:absolute;left:0}
.st:after{color:var(--s);clip-path:inset(0 calc(100% - var(--f)) 0 0)}
.avg{font-weight:700}
.mu{color:var(--mu);font-size:13px}
.items{list-style:none;margin:0;padding:0 2px 2px 0;display:grid;gap:12px;flex:1;min-height:0;overflow:auto;align-content:start}
.grid .items{grid-template-columns:repeat(auto-fill,minmax(220px,1fr))}
/* The carousel: cards as tall as it, side by side; no card scrolls inside, and its text shows the whole lines that fit (widget.tsx clamps it). */
.carousel .items{grid-auto-flow:column;grid-auto-columns:min(85%,300px);grid-template-rows:100%;overflow:auto hidden;scroll-snap-type:x mandatory;scroll-behavior:smooth;padding-bottom:4px}
.carousel .items>.r{display:flex;flex-direction:column;overflow:hidden}
.carousel .items>.r>.tx{flex:1 1 0;min-height:1.5em;overflow:hidden;display:-webkit-box;-webkit-box-orient:vertical}
.rv{width:min(92vw,600px);max-height:88vh;padding:12px;border:0;border-radius:12px;background:var(--bg);color:var(--fg)}
.rv ul{list-style:none;margin:0;padding:0}
@media (prefers-reduced-motion:reduce){.carousel .items{scroll-behavior:auto}}
.carousel .items>li{scroll-snap-align:start}
.r{border:1px solid var(--bd);border-radius:10px;padding:12px;margin:0;min-width:0}
.r .title{font-weight:700;margin:4px 0}
.r p{margin:4px 0;white-space:pre-line;overflow-wrap:anywhere}
.meta{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:center}
.badge,.lb{background:#dafbe1;color:#116329;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600}
.lb{background:#fff8c5;color:#6a4a00}
.vr{color:var(--fg);font-weight:600}
.reply{border-left:3px solid var(--bd);margin:8px 0 0;padding:0 0 0 10px}
.sig{margin-top:6px}
.hb{border:1px solid var(--bd);border-radius:14px;padding:0 10px;text-decoration:none;color:var(--fg);font-size:13px}
.hb[aria-pressed=true]{border-color:var(--a)}
button{font:inherit;color:var(--a);background:none;border:0;padding:0;cursor:pointer;text-decoration:underline}
.nav{display:flex;gap:8px;justify-content:flex-end;margin-top:8px}
.nav button{border:1px solid var(--bd);border-radius:16px;padding:2px 12px;text-decoration:none;color:var(--fg)}
a{color:var(--a)}
:focus-visible{outline:3px solid var(--a);outline-offset:2px}
.ft{display:flex;flex-wrap:wrap;gap:4px 16px;align-items:baseline;margin:12px 0 0}
.ft .nav{margin:0 0 0 auto}
.sig button:not(.hb){font-size:13px;font-weight:600}
/* A review's photos: thumbnails of a fixed height (their width from their sizes), and one large in a dialog of a fixed size. */
.md{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:6px 0;padding:0}
.md img{display:block;height:64px;width:auto;max-width:100%;object-fit:cover;border-radius:6px}
dialog{width:min(92vw,900px);height:min(88vh,720px);padding:12px;border:0;border-radius:12px;background:var(--bg);color:var(--fg)}
dialog img{display:block;width:100%;height:calc(100% - 40px);object-fit:contain}
dialog::backdrop{background:#000b}
/* Product mode: the distribution's bars filter by rating; the sort beside them. */
.bars{list-style:none;margin:0 0 8px;padding:0}
.bars button,.ab{display:grid;grid-template-columns:3em 1fr 3em;gap:8px;align-items:center;width:100%;max-width:360px;color:var(--fg);text-decoration:none;border-radius:6px;padding:1px 4px}
.bars [aria-pressed=true]{outline:2px solid var(--a)}.ab{grid-template-columns:7.5em 1fr 3em}
.at dt{font-weight:600}.at dd{margin:0 0 4px}.bar{height:8px;border-radius:4px;background:var(--bd);overflow:hidden}
.bar span{display:block;height:100%;background:var(--s)}
.sy{max-height:30%;overflow:auto;margin:0 0 12px;padding:0 0 1.5em;scroll-padding:0 0 1.5em;mask:linear-gradient(0deg,#0000,#000 1.5em)}.sy ul{list-style:none;margin:0;padding:0}.sy li{margin:.4em 0}
.ctl{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:0 0 12px}
.ctl.end{margin:12px 0 0;justify-content:space-between}
select{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--bd);border-radius:6px;padding:2px 6px}
/* Product mode's Questions tab (questions.tsx): while it is open, the section shows its head, the tabs and the questions. */
.qa>:not(.qtab):not(.head){display:none}
.qtab [role=tablist]{display:flex;gap:16px;margin:0 0 12px}
.qtab [role=tab]{text-decoration:none;color:var(--fg);border-bottom:2px solid transparent}
.qtab [role=tab][aria-selected=true]{border-color:var(--a);font-weight:700}
.qtab form{display:grid;gap:6px;margin:12px 0 0}
.qtab input,.qtab textarea{font:inherit;padding:6px;border:1px solid var(--bd);border-radius:6px}
.qtab form button{justify-self:start;border:1px solid var(--a);border-radius:16px;padding:4px 16px;text-decoration:none}
/* Stars mode: one line of a fixed height, so that the page around it never moves. */
.w.sm{display:block;height:24px;font-size:14px;line-height:24px;margin:0;padding:0;border:0;background:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
`;
