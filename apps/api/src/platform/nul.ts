// PostgreSQL text and jsonb cannot hold U+0000: a NUL that reached a query would fail the whole
// statement (a lost message, a 500). Every way in (request bodies, queries, uploads, WhatsApp
// events) passes through here, so text is stored without it.
// eslint-disable-next-line no-control-regex -- NUL is what is removed
const NUL = /\u0000/g;

const cleanText = (text: string) => (text.includes('\u0000') ? text.replace(NUL, '') : text);

// Plain data: object literals, JSON, and parsed query strings (whose prototype is a bare object).
const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value) as object | null;
  return (
    proto === null ||
    proto === Object.prototype ||
    (Object.getPrototypeOf(proto) === null && !Object.hasOwn(proto, 'constructor'))
  );
};

const isContainer = (value: unknown): value is object =>
  Array.isArray(value) || (!!value && typeof value === 'object' && isPlainObject(value));

// One array or plain object being cleaned: its items are visited in order, children first.
type Frame = {
  source: object;
  keys: string[] | null;
  index: number;
  items: unknown[];
  changed: boolean;
};

const frameOf = (source: object): Frame => ({
  source,
  keys: Array.isArray(source) ? null : Object.keys(source),
  index: 0,
  items: [],
  changed: false,
});

const itemAt = (frame: Frame) =>
  frame.keys
    ? (frame.source as Record<string, unknown>)[frame.keys[frame.index]!]
    : (frame.source as unknown[])[frame.index];

// The cleaned container, or the same one when nothing in it changed.
const close = (frame: Frame): unknown => {
  if (!frame.keys) return frame.changed ? frame.items : frame.source;
  const keys = frame.keys.map(cleanText);
  if (!frame.changed && keys.every((key, i) => key === frame.keys![i])) return frame.source;
  const out: Record<string, unknown> = {};
  keys.forEach((key, i) => {
    // A "__proto__" key is data, never the object's prototype.
    Object.defineProperty(out, key, {
      value: frame.items[i],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  });
  return out;
};

// Removes NUL from every string inside plain objects and arrays; other values (Buffers, dates,
// class instances) are returned as they are. Untouched input is returned as the same object.
// Iterative: a payload nested thousands deep must not overflow the stack (a 500 on any route).
export const stripNul = <T>(value: T): T => {
  if (typeof value === 'string') return cleanText(value) as T;
  if (!isContainer(value)) return value;
  const stack = [frameOf(value)];
  // Containers being cleaned: one met again inside itself is left as it is (no endless loop).
  const open = new Set<object>([value]);
  let result: unknown = value;
  while (stack.length) {
    const frame = stack.at(-1)!;
    const length = frame.keys ? frame.keys.length : (frame.source as unknown[]).length;
    if (frame.index === length) {
      stack.pop();
      open.delete(frame.source);
      result = close(frame);
      const parent = stack.at(-1);
      if (parent) {
        if (result !== itemAt(parent)) parent.changed = true;
        parent.items.push(result);
        parent.index += 1;
      }
      continue;
    }
    const item = itemAt(frame);
    if (isContainer(item) && !open.has(item)) {
      open.add(item);
      stack.push(frameOf(item));
      continue;
    }
    const clean = typeof item === 'string' ? cleanText(item) : item;
    if (clean !== item) frame.changed = true;
    frame.items.push(clean);
    frame.index += 1;
  }
  return result as T;
};

// A file name as a person gave it, without control characters (NUL, new lines) or path parts.
export const cleanFileName = (name: string) =>
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  name.replace(/[\u0000-\u001f\u007f]/g, '').trim();
