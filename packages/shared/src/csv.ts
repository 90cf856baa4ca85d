// CSV as people bring it (issue 38): exported by Google Contacts, a CRM or Excel in any locale. The
// bytes are UTF-8 (with or without a BOM) or, when they are not valid UTF-8, Windows-1252 (Latin-1,
// what Excel writes in Spanish and Portuguese); the separator is whichever of `,` `;` or tab the
// header line uses most; quoted cells (RFC 4180) may hold separators, doubled quotes and line breaks.

const DELIMITERS = [',', ';', '\t'] as const;

// The text of a file's bytes.
export const decodeCsvBytes = (bytes: Uint8Array) => {
  const body =
    bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return new TextDecoder('windows-1252').decode(body);
  }
};

// The separator the first line uses most, quoted text aside (a comma when it uses none).
const delimiterOf = (text: string) => {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best: string = ',';
  for (const [delimiter, count] of counts) if (count > counts.get(best)!) best = delimiter;
  return best;
};

export class CsvTooLong extends Error {}

// The records of a CSV text, header first; blank lines are left out. Throws CsvTooLong past
// `maxRows` records below the header.
export const parseCsv = (input: string, maxRows = Number.POSITIVE_INFINITY): string[][] => {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const delimiter = delimiterOf(text);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(cell);
    cell = '';
    if (row.length > 1 || row[0] !== '') {
      if (rows.length > maxRows) throw new CsvTooLong(`More than ${maxRows} rows`);
      rows.push(row);
    }
    row = [];
  };
  while (i < text.length) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else cell += char;
      i += 1;
      continue;
    }
    if (char === '"' && cell === '') quoted = true;
    else if (char === delimiter) {
      row.push(cell);
      cell = '';
    } else if (char === '\r' || char === '\n') {
      endRow();
      if (char === '\r' && text[i + 1] === '\n') i += 1;
    } else cell += char;
    i += 1;
  }
  if (cell !== '' || row.length) endRow();
  return rows;
};
