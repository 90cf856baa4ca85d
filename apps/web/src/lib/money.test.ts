import { describe, expect, it } from 'vitest';
import { currencySymbol, formatMoney } from './money';

// Intl writes a no-break space between an amount and a currency that follows it.
const spaced = (text: string) => text.replace(/\u00a0/g, ' ');

describe('formatMoney', () => {
  it('writes an amount as its currency is written in the app’s language, with two decimals', () => {
    expect(spaced(formatMoney(39, 'es', 'eur'))).toBe('39,00 €');
    expect(spaced(formatMoney(39, 'es', 'usd'))).toBe('39,00 US$');
    expect(formatMoney(39, 'en', 'eur')).toBe('€39.00');
    expect(formatMoney(39, 'en', 'usd')).toBe('$39.00');
  });

  it('groups thousands in Spanish from four digits, as SPEC’s pt-BR does', () => {
    expect(spaced(formatMoney(1149.5, 'es', 'usd'))).toBe('1.149,50 US$');
    expect(formatMoney(1149.5, 'en', 'usd')).toBe('$1,149.50');
  });

  it('writes reais, and dollars, as Brazilian Portuguese does', () => {
    expect(spaced(formatMoney(1149.5, 'pt-BR', 'brl'))).toBe('R$ 1.149,50');
    expect(spaced(formatMoney(39, 'pt-BR', 'usd'))).toBe('US$ 39,00');
    expect(currencySymbol('pt-BR', 'brl')).toBe('R$');
  });

  it('still shows the amount, with the code, for a code Intl refuses', () => {
    expect(formatMoney(39, 'es', 'dollars')).toBe('39,00 DOLLARS');
  });
});

describe('currencySymbol', () => {
  it('is the sign the language writes beside an amount', () => {
    expect(currencySymbol('es', 'usd')).toBe('US$');
    expect(currencySymbol('en', 'usd')).toBe('$');
    expect(currencySymbol('es', 'eur')).toBe('€');
  });
});
