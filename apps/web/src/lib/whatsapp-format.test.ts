import { describe, expect, it } from 'vitest';
import { parseWhatsappFormat, stripWhatsappFormat } from './whatsapp-format';

const text = (value: string) => ({ kind: 'text', text: value });

describe('parseWhatsappFormat', () => {
  it('reads bold, italic, strikethrough, inline code and monospace', () => {
    expect(parseWhatsappFormat('*Name:* Ana _hi_ ~old~ `x = 1` ```a *b*```')).toEqual([
      { kind: 'bold', children: [text('Name:')] },
      text(' Ana '),
      { kind: 'italic', children: [text('hi')] },
      text(' '),
      { kind: 'strike', children: [text('old')] },
      text(' '),
      { kind: 'code', text: 'x = 1' },
      text(' '),
      { kind: 'monospace', text: 'a *b*' },
    ]);
  });

  it('nests styles, and keeps marks inside code as typed', () => {
    expect(parseWhatsappFormat('*_both_* `*not bold*`')).toEqual([
      { kind: 'bold', children: [{ kind: 'italic', children: [text('both')] }] },
      text(' '),
      { kind: 'code', text: '*not bold*' },
    ]);
  });

  it('needs the marks to hug the text', () => {
    for (const plain of ['* not bold *', '*not bold *', '* not bold*', '_ no _', '~ no ~', '**'])
      expect(parseWhatsappFormat(plain)).toEqual([text(plain)]);
  });

  it('leaves marks inside words alone', () => {
    for (const plain of [
      '2*3*4 and 5*6 are products, not bold',
      'call my_var_name or file_1_2.txt',
      'price*2* today',
      '*start*middle',
    ])
      expect(parseWhatsappFormat(plain)).toEqual([text(plain)]);
  });

  it('keeps each style on one line, while monospace may span lines', () => {
    expect(parseWhatsappFormat('*not\nbold*')).toEqual([text('*not\nbold*')]);
    expect(parseWhatsappFormat('```line 1\nline 2```')).toEqual([
      { kind: 'monospace', text: 'line 1\nline 2' },
    ]);
  });

  it('keeps links as typed', () => {
    const link = 'https://example.com/_a_/~b~/x*y*z';
    expect(parseWhatsappFormat(`see ${link} now`)).toEqual([text(`see ${link} now`)]);
    expect(parseWhatsappFormat(`*see ${link}*`)).toEqual([
      { kind: 'bold', children: [text(`see ${link}`)] },
    ]);
  });

  it('ends marks before punctuation and at line ends', () => {
    expect(parseWhatsappFormat('Hola *Ana*, ¿qué tal?\n_bye_.')).toEqual([
      text('Hola '),
      { kind: 'bold', children: [text('Ana')] },
      text(', ¿qué tal?\n'),
      { kind: 'italic', children: [text('bye')] },
      text('.'),
    ]);
  });

  it('stays fast on a long line of unclosed marks', () => {
    const long = '*a _b ~c '.repeat(20_000);
    const started = performance.now();
    expect(stripWhatsappFormat(long)).toBe(long);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('stripWhatsappFormat', () => {
  it('drops the marks and keeps the words', () => {
    expect(stripWhatsappFormat('*Name:* Ana\n_Order_ ~12~ `A-1` ```x```')).toBe(
      'Name: Ana\nOrder 12 A-1 x',
    );
    expect(stripWhatsappFormat('2*3*4 * not * my_var')).toBe('2*3*4 * not * my_var');
  });
});
