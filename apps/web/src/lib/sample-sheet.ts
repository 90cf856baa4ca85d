import { saveFile } from './save-file';

// SPEC §2 Contact lists, contacts: the sample spreadsheet of contacts, an .xlsx (what the imports
// take, besides a CSV) whose header row is what the import recognises. The writer is loaded on
// first use only.
export const SAMPLE_SHEET_NAME = 'plantilla-contactos.xlsx';

const sampleRows = [
  ['name', 'number', 'email'],
  ['Juan Pérez', '5215512345678', 'juan@example.com'],
];

const sampleSheetBlob = async () => {
  const { default: writeXlsxFile } = await import('write-excel-file/browser');
  return writeXlsxFile(sampleRows).toBlob();
};

export const downloadSampleSheet = async () => saveFile(await sampleSheetBlob(), SAMPLE_SHEET_NAME);
