const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

// "1,2 GB", "350 MB", "12 KB" in the language's digits (binary units, as the server counts them).
export const formatBytes = (bytes: number, language: string) => {
  const [value, unit] =
    bytes >= GB ? [bytes / GB, 'GB'] : bytes >= MB ? [bytes / MB, 'MB'] : [bytes / KB, 'KB'];
  const digits = value >= 100 || Number.isInteger(value) ? 0 : 1;
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value)} ${unit}`;
};
