import { describe, expect, it } from 'vitest';
import { detectLanguage, MAX_SAMPLE_LENGTH, MIN_DETECTABLE_LENGTH, readerLanguage } from './detect.ts';

describe('detectLanguage', () => {
  it('tells the language of real review sentences as ISO 639-1', () => {
    expect(detectLanguage('Great value', 'Arrived quickly and works exactly as described. Would buy again.')).toBe(
      'en',
    );
    expect(detectLanguage(null, 'Sehr zufrieden mit der Lieferung, alles bestens verpackt.')).toBe('de');
    expect(detectLanguage('Très bien', 'Le produit est arrivé rapidement et fonctionne très bien.')).toBe('fr');
    expect(detectLanguage(null, 'Muy buen producto, llegó a tiempo y funciona perfectamente.')).toBe('es');
    expect(detectLanguage(null, 'Prodotto ottimo, consegna veloce e imballaggio curato.')).toBe('it');
    expect(detectLanguage(null, 'Zeer tevreden over de snelle levering en de kwaliteit.')).toBe('nl');
    expect(detectLanguage(null, 'Produto excelente, chegou rápido e funciona muito bem.')).toBe('pt');
  });

  it('answers null for text too short to tell', () => {
    expect(detectLanguage(null, 'Good')).toBeNull();
    expect(detectLanguage('Great', 'product')).toBeNull();
    expect(detectLanguage(null, 'x'.repeat(MIN_DETECTABLE_LENGTH - 1))).toBeNull();
    expect(detectLanguage(null, '')).toBeNull();
  });

  it('answers null when another language comes as close', () => {
    expect(detectLanguage('Great espresso', 'Lovely blend.')).toBeNull();
    expect(detectLanguage('Great', 'Lovely mug, number 12 abc123')).toBeNull();
  });

  it('tells a long review by its opening (MAX_SAMPLE_LENGTH characters), whatever follows', () => {
    const german = 'Die Tasse kam schnell und gut verpackt an, die Glasur ist noch schöner als auf den Fotos. ' +
      'Sie hält den Tee lange warm und der Henkel liegt angenehm in der Hand. ';
    const english = 'Arrived two days after ordering, well packed, and the glaze is even nicer than in the photos. ' +
      'It keeps tea warm for a long time and the handle sits comfortably in the hand. ' +
      'Great espresso, lovely blend, fast delivery and very friendly service. The beans are fresh and the roast is ' +
      'just right for my machine, will order again.';
    expect(german.length).toBeGreaterThanOrEqual(MAX_SAMPLE_LENGTH);
    expect(detectLanguage(null, german + english)).toBe('de');
    expect(detectLanguage(null, english + german)).toBe('en');
  });

  it('answers null when the text is no language at all', () => {
    expect(detectLanguage(null, '1234567890 !!! ??? 1234567890 ...')).toBeNull();
  });
});

describe('readerLanguage', () => {
  it("takes the most preferred language's primary subtag", () => {
    expect(readerLanguage('de-CH,de;q=0.9,en;q=0.8')).toBe('de');
    expect(readerLanguage('en;q=0.5, fr')).toBe('fr');
    expect(readerLanguage('fr-FR')).toBe('fr');
  });

  it('answers null for nothing usable', () => {
    expect(readerLanguage(undefined)).toBeNull();
    expect(readerLanguage('*')).toBeNull();
    expect(readerLanguage('en;q=0')).toBeNull();
  });
});
