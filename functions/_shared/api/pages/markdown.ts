// Markdown for machines (machine-pages.ts): text as markdown that can only be text. Every ASCII
// punctuation character is backslash-escaped (CommonMark lets each be) and every run of white
// space becomes one space, so that what a reviewer wrote cannot open a heading, a list, a quote, a
// link or an autolink (GitHub's too: its `://` and `www.` are broken by the escapes), an image, an
// emphasis or a line of HTML: a renderer shows it as the characters it is.
import type { Context } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { PAGE_CACHE_CONTROL } from './shared.ts';

/** Text as markdown that renders as exactly this text, on one line. */
export function mdText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/** A markdown link: its text escaped; its address one of ours, each part already percent-encoded. */
export function mdLink(text: string, url: string): string {
  return `[${mdText(text)}](<${url.replace(/[<>\s]/g, encodeURIComponent)}>)`;
}

/** A markdown answer, cached as the pages are. */
export function markdownAnswer(c: Context<AppEnv>, text: string, type = 'text/markdown') {
  c.header('Cache-Control', PAGE_CACHE_CONTROL);
  c.header('X-Content-Type-Options', 'nosniff');
  return c.body(text, 200, { 'Content-Type': `${type}; charset=utf-8` });
}
