import { buffer } from 'node:stream/consumers';
import PDFDocument from 'pdfkit';
import { ZipFile } from 'yazl';

// Small documents made in the tests, as people's tools write them: a PDF of pages (pdfkit, its
// standard fonts) and a Word document (.docx: the three parts Word needs, zipped).

export const makePdf = async (pages: string[]) => {
  const doc = new PDFDocument({ autoFirstPage: false, compress: true });
  const done = buffer(doc);
  for (const text of pages) {
    doc.addPage({ size: 'A4', margin: 50 });
    doc.font('Helvetica').fontSize(11).text(text, { width: 495 });
  }
  doc.end();
  return done;
};

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
  '</Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
  '</Relationships>';

export const zipOf = async (parts: Record<string, string | Buffer>) => {
  const zip = new ZipFile();
  const done = buffer(zip.outputStream);
  for (const [name, body] of Object.entries(parts))
    zip.addBuffer(typeof body === 'string' ? Buffer.from(body) : body, name);
  zip.end();
  return done;
};

// A .docx of paragraphs; `documentXml` replaces its main part (a damaged or oversized one).
export const makeDocx = (paragraphs: string[], documentXml?: string | Buffer) =>
  zipOf({
    '[Content_Types].xml': CONTENT_TYPES,
    '_rels/.rels': RELS,
    'word/document.xml':
      documentXml ??
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
        paragraphs
          .map((text) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`)
          .join('') +
        '</w:body></w:document>',
  });
