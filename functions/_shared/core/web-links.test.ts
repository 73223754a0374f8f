import { describe, expect, it } from 'vitest';
import { imageSource, isWebLink } from './web-links.ts';

describe('isWebLink', () => {
  it('takes http and https URLs, as the contract does, and nothing else', () => {
    expect(isWebLink('https://shop.example.com/a.jpg')).toBe(true);
    expect(isWebLink('http://shop.example.com/a.jpg')).toBe(true);
    expect(isWebLink('HTTP://shop.example.com/a.jpg')).toBe(true);
    for (
      const bad of [
        'javascript:alert(1)',
        'data:image/png;base64,AAAA',
        '//shop.example.com/a.jpg',
        'ftp://x/a',
        'http://',
      ]
    ) {
      expect(isWebLink(bad), bad).toBe(false);
    }
  });
});

describe('imageSource', () => {
  it('shows a picture over https: an https address as given, an http one upgraded', () => {
    expect(imageSource('https://cdn.example.com/a.jpg?w=1')).toBe('https://cdn.example.com/a.jpg?w=1');
    expect(imageSource('http://cdn.example.com/a.jpg')).toBe('https://cdn.example.com/a.jpg');
    expect(imageSource('HTTP://cdn.example.com/http://x.jpg')).toBe('https://cdn.example.com/http://x.jpg');
  });

  it('shows nothing for what is no web link', () => {
    for (const bad of [null, undefined, '', 'javascript:alert(1)', 'data:image/png;base64,AAAA', '/a.jpg']) {
      expect(imageSource(bad)).toBe('');
    }
  });
});
