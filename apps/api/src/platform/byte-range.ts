// The one byte range of a `Range: bytes=…` header (RFC 9110 §14), read against a file's size.
export type ByteRange = { start: number; end: number };

const SINGLE = /^bytes=(\d*)-(\d*)$/;

// undefined: no usable range, send the whole file (absent, another unit, or several ranges, which a
// server may answer whole); 'unsatisfiable': a valid range that starts past the end (416).
export const parseByteRange = (
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined => {
  // Longer than any real range of one file: not one.
  const match = header && header.length <= 100 ? SINGLE.exec(header.trim()) : null;
  if (!match) return undefined;
  const [, from, to] = match;
  if (!from && !to) return undefined;
  if (!from) {
    // The last N bytes.
    const suffix = Number(to);
    if (!Number.isSafeInteger(suffix)) return undefined;
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to ? Number(to) : size - 1;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return undefined;
  if (to && end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
};
