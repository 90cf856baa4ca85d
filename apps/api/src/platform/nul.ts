// PostgreSQL text and jsonb cannot hold U+0000: a NUL that reached a query would fail the whole
// statement (a lost message, a 500). Every way in (request bodies, queries, uploads, WhatsApp
// events) passes through here, so text is stored without it.
// eslint-disable-next-line no-control-regex -- NUL is what is removed
const NUL = /\u0000/g;

// Plain data: object literals, JSON, and parsed query strings (whose prototype is a bare object).
const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value) as object | null;
  return (
    proto === null ||
    proto === Object.prototype ||
    (Object.getPrototypeOf(proto) === null && !Object.hasOwn(proto, 'constructor'))
  );
};

// Removes NUL from every string inside plain objects and arrays; other values (Buffers, dates,
// class instances) are returned as they are. Untouched input is returned as the same object.
export const stripNul = <T>(value: T): T => {
  if (typeof value === 'string')
    return (value.includes('\u0000') ? value.replace(NUL, '') : value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const clean = stripNul(item);
      if (clean !== item) changed = true;
      return clean;
    });
    return (changed ? out : value) as T;
  }
  if (value && typeof value === 'object' && isPlainObject(value)) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const clean = stripNul(item);
      const cleanKey = stripNul(key);
      if (clean !== item || cleanKey !== key) changed = true;
      out[cleanKey] = clean;
    }
    return (changed ? out : value) as T;
  }
  return value;
};

// A file name as a person gave it, without control characters (NUL, new lines) or path parts.
export const cleanFileName = (name: string) =>
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  name.replace(/[\u0000-\u001f\u007f]/g, '').trim();
