// SPEC §2 Contact lists, contacts: the sample spreadsheet of contacts, an .xlsx (what the imports
// take) whose header row is what the import recognises. The writer is loaded on first use only.
export const SAMPLE_SHEET_NAME = 'plantilla-contactos.xlsx';

const sampleRows = [
  ['name', 'number', 'email'],
  ['Juan Pérez', '5215512345678', 'juan@example.com'],
];

const sampleSheetBlob = async () => {
  const { default: writeXlsxFile } = await import('write-excel-file/browser');
  return writeXlsxFile(sampleRows).toBlob();
};

export const downloadSampleSheet = async () => {
  const url = URL.createObjectURL(await sampleSheetBlob());
  const link = document.createElement('a');
  link.href = url;
  link.download = SAMPLE_SHEET_NAME;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
