import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

// CSV for spreadsheets (RFC 4180): a cell holding a comma, quote or line break is quoted (its quotes
// doubled), and text a spreadsheet would run as a formula (=, +, -, @, tab or CR first) starts with
// a quote, so it is shown as written.
const csvCell = (value: string | number | null) => {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

// One record, its line break included.
export const csvLine = (cells: readonly (string | number | null)[]) =>
  `${cells.map(csvCell).join(',')}\n`;

// Answers a CSV file (its text, or a stream of it) as a download named `name`.
export const sendCsv = (reply: FastifyReply, name: string, body: string | Readable) =>
  reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${name}"`)
    .send(body);
