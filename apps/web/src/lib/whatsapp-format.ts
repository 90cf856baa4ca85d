// WhatsApp's text formatting: *bold*, _italic_, ~strikethrough~, `inline code` and ```monospace```.

export type StyleKind = 'bold' | 'italic' | 'strike';

export type FormatNode =
  | { kind: 'text'; text: string }
  | { kind: StyleKind; children: FormatNode[] }
  | { kind: 'code' | 'monospace'; text: string };

const STYLES: Record<string, StyleKind | 'code'> = {
  '*': 'bold',
  _: 'italic',
  '~': 'strike',
  '`': 'code',
};

const FENCE = '```';
const WORD = /[\p{L}\p{N}]/u;
const SPACE = /\s/;
// A link is kept as typed: the underscores and tildes of its path are not marks.
const LINK = /https?:\/\/\S+/y;

const isWord = (char: string | undefined) => char !== undefined && WORD.test(char);
const isSpace = (char: string | undefined) => char !== undefined && SPACE.test(char);

// Where the mark opened at `start` closes on the same line: after non-space text and not before a
// letter or digit (so 2*3*4 or snake_case stay plain); -1 when it does not.
const closingOf = (text: string, start: number, mark: string, lineEnd: number) => {
  for (let at = text.indexOf(mark, start + 2); at !== -1; at = text.indexOf(mark, at + 1)) {
    if (at > lineEnd) return -1;
    if (!isSpace(text[at - 1]) && !isWord(text[at + 1])) return at;
  }
  return -1;
};

export const parseWhatsappFormat = (text: string): FormatNode[] => {
  const nodes: FormatNode[] = [];
  let plain = '';
  const flush = () => {
    if (plain) nodes.push({ kind: 'text', text: plain });
    plain = '';
  };
  // A mark that found no closing from some position finds none later on that line either (and a
  // fence none later at all): remembering it keeps long unclosed text linear.
  const unclosedUntil = new Map<string, number>();
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    const opensHere = !isWord(text[at - 1]);
    LINK.lastIndex = at;
    const link = opensHere && char === 'h' ? LINK.exec(text) : null;
    if (link) {
      plain += link[0];
      at += link[0].length;
      continue;
    }
    if (text.startsWith(FENCE, at) && !unclosedUntil.has(FENCE)) {
      const end = text.indexOf(FENCE, at + FENCE.length + 1);
      if (end !== -1) {
        flush();
        nodes.push({ kind: 'monospace', text: text.slice(at + FENCE.length, end) });
        at = end + FENCE.length;
        continue;
      }
      unclosedUntil.set(FENCE, text.length);
    }
    const style = STYLES[char];
    const next = text[at + 1];
    const mayOpen = opensHere && next !== undefined && next !== char && !isSpace(next);
    if (style && mayOpen && (unclosedUntil.get(char) ?? -1) < at) {
      const newline = text.indexOf('\n', at);
      const lineEnd = newline === -1 ? text.length : newline;
      const close = closingOf(text, at, char, lineEnd);
      if (close !== -1) {
        flush();
        const inner = text.slice(at + 1, close);
        nodes.push(
          style === 'code'
            ? { kind: 'code', text: inner }
            : { kind: style, children: parseWhatsappFormat(inner) },
        );
        at = close + 1;
        continue;
      }
      unclosedUntil.set(char, lineEnd);
    }
    plain += char;
    at += 1;
  }
  flush();
  return nodes;
};

const plainOf = (nodes: FormatNode[]): string =>
  nodes.map((node) => ('children' in node ? plainOf(node.children) : node.text)).join('');

// The words without their marks, for one-line previews (ticket list, cards, notifications).
export const stripWhatsappFormat = (text: string) => plainOf(parseWhatsappFormat(text));
