import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

// Every CSV Atendi writes has one dialect (issue 38): what Excel opens as columns in Spanish and
// Portuguese locales (and elsewhere): `;` between cells, CRLF after each record, UTF-8 with a BOM
// (so accents are read as such). A cell holding a separator, quote or line break is quoted (its
// quotes doubled, RFC 4180), and text a spreadsheet would run as a formula (=, +, -, @, tab or CR
// first) starts with a quote, so it is shown as written.
const SEPARATOR = ';';
const BOM = '\ufeff';

const csvCell = (value: string | number | null) => {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";,\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

// One record, its line break included.
export const csvLine = (cells: readonly (string | number | null)[]) =>
  `${cells.map(csvCell).join(SEPARATOR)}\r\n`;

// Answers a CSV file (its text, or a stream of it) as a download named `name`, the BOM first.
export const sendCsv = (reply: FastifyReply, name: string, body: string | Readable) =>
  reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${name}"`)
    .send(
      typeof body === 'string'
        ? `${BOM}${body}`
        : Readable.from(
            (async function* () {
              yield BOM;
              yield* body;
            })(),
          ),
    );
