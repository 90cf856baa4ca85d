// Hands a file made in the page to the browser's downloads under `name`.
export const saveFile = (blob: Blob, name: string) => {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};

// CSV text as a file; the BOM makes spreadsheet programs read the accents as UTF-8.
export const saveCsv = (text: string, name: string) =>
  saveFile(
    new Blob([text.startsWith('\uFEFF') ? '' : '\uFEFF', text], {
      type: 'text/csv;charset=utf-8',
    }),
    name,
  );
