// A document's text split into passages for the knowledge base: about 800 to 1,200 characters each,
// cut between paragraphs where it can, else between sentences, else between words, and each passage
// starting with the end of the one before (a sentence or so) so an answer split by a cut is still
// whole in one of them. A passage keeps the PDF page it starts on.

export type Section = {
  // The PDF page (from 1), or null.
  page: number | null;
  text: string;
};
type Passage = { ordinal: number; page: number | null; content: string };

export const CHUNK_MIN = 800;
export const CHUNK_MAX = 1200;
// The most of the previous passage a passage repeats.
export const CHUNK_OVERLAP = 200;

// Spaces and line ends as text has them once read out of a file: runs of spaces made one, lines
// trimmed, paragraphs separated by one blank line.
const normalise = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[\t\f\v\u00a0 ]+/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

// A sentence ends at . ! ? … (and any closing quote or bracket) before a space.
const SENTENCE_END = /(?<=[.!?…]["'”’»)\]]*)\s+/u;

const sentencesOf = (text: string) =>
  text
    .split(SENTENCE_END)
    .map((s) => s.trim())
    .filter(Boolean);

// Words of a sentence longer than a passage, packed up to max.
const wordPieces = (text: string, max: number) => {
  const pieces: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/)) {
    // A "word" longer than a passage (a URL, a table flattened) is cut where it must be.
    for (let at = 0; at < word.length; at += max) {
      const part = word.slice(at, at + max);
      if (current && current.length + 1 + part.length > max) {
        pieces.push(current);
        current = part;
      } else current = current ? `${current} ${part}` : part;
    }
  }
  if (current) pieces.push(current);
  return pieces;
};

type Unit = { text: string; page: number | null; paragraphStart: boolean };

// Paragraphs, or the sentences (or words) of a paragraph too long to be one passage.
const unitsOf = (section: Section, max: number): Unit[] =>
  normalise(section.text)
    .split(/\n\n/)
    .flatMap((paragraph) => {
      const flat = paragraph.replace(/\n/g, ' ');
      if (flat.length <= max) return [{ text: flat, page: section.page, paragraphStart: true }];
      return sentencesOf(flat)
        .flatMap((sentence) => (sentence.length <= max ? [sentence] : wordPieces(sentence, max)))
        .map((text, i) => ({ text, page: section.page, paragraphStart: i === 0 }));
    })
    .filter((unit) => unit.text);

// The end of a passage to repeat at the start of the next: its last sentences within the overlap,
// or else its last words.
const tailOf = (content: string, overlap: number) => {
  const sentences = sentencesOf(content);
  let tail = '';
  for (let i = sentences.length - 1; i > 0; i -= 1) {
    const next = tail ? `${sentences[i]} ${tail}` : sentences[i];
    if (next.length > overlap) break;
    tail = next;
  }
  if (tail) return tail;
  const words = content.slice(-overlap).split(' ');
  return words.length > 1 ? words.slice(1).join(' ') : '';
};

// Sections joined (a PDF's pages: one text across them) or each on its own (quick messages, a file
// list's documents: a passage never mixes two).
export const chunkSections = (
  sections: Section[],
  options: { join: boolean; min?: number; max?: number; overlap?: number } = { join: true },
): Passage[] => {
  const min = options.min ?? CHUNK_MIN;
  const max = options.max ?? CHUNK_MAX;
  const overlap = options.overlap ?? CHUNK_OVERLAP;
  const passages: Passage[] = [];
  const pack = (units: Unit[]) => {
    let current = '';
    let page: number | null = null;
    // Whether the passage holds more than the tail of the one before.
    let fresh = false;
    const close = () => {
      if (fresh) passages.push({ ordinal: passages.length, page, content: current });
      fresh = false;
      current = tailOf(current, overlap);
    };
    units.forEach((unit, i) => {
      const separator = unit.paragraphStart ? '\n\n' : ' ';
      if (current && current.length + separator.length + unit.text.length > max) {
        // Units are at most max long, so a passage that cannot take the next one whole is closed,
        // short or not; the tail it leaves is dropped if even it does not fit with the unit.
        close();
        if (current.length + separator.length + unit.text.length > max) current = '';
      }
      if (!fresh) page = unit.page;
      current = current ? `${current}${separator}${unit.text}` : unit.text;
      fresh = true;
      // A passage long enough that ends with a paragraph is closed there.
      if (current.length >= min && units[i + 1]?.paragraphStart !== false) close();
    });
    if (fresh) close();
  };
  if (options.join) pack(sections.flatMap((section) => unitsOf(section, max)));
  else for (const section of sections) pack(unitsOf(section, max));
  return passages;
};
