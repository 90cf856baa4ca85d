import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, Headers, fetch as undiciFetch } from 'undici';
import { AppError } from './errors';

// The one way the API calls a URL a company typed (integrations, Typebot and its media, a Cloud API
// base URL and the media it points at, an AI provider): only http(s), and never an address of the
// server's own networks (loopback, private, link-local and cloud metadata, CGNAT, ULA…). Every
// address a name resolves to is checked when the connection is made, and the connection goes to
// the address that was checked (no DNS rebinding); each redirect is checked again. Operators let
// their own networks through with OUTBOUND_ALLOW_PRIVATE.

// IANA's special-purpose ranges: nothing a company's public service lives on.
const SPECIAL_RANGES: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  // Unspecified, loopback and the IPv4-compatible form (IPv4-mapped ones are checked as IPv4).
  ['::', 96, 'ipv6'],
  // NAT64, discard, Teredo, documentation, 6to4: each can lead to an address above.
  ['64:ff9b::', 96, 'ipv6'],
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001::', 32, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['2002::', 16, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

const special = new BlockList();
for (const [address, prefix, type] of SPECIAL_RANGES) special.addSubnet(address, prefix, type);

// OUTBOUND_ALLOW_PRIVATE: nothing (unset), everything (true) or these CIDRs.
export type AllowPrivate = boolean | string[];

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

// Parses "a.b.c.d/n" or "x::/n" (a bare address is /32 or /128); null when it is not one.
export const parseCidr = (entry: string) => {
  const [address = '', bits] = entry.split('/');
  const version = isIP(address);
  if (!version) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d+$/.test(bits) ? Number(bits) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { address, prefix, type: version === 4 ? ('ipv4' as const) : ('ipv6' as const) };
};

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

// A company-supplied URL that may not be called: a bad scheme, or an address of a private network.
class OutboundRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

// Whether the error (or what it wraps: the SDKs and fetch wrap it) is the guard's refusal.
export const refusalIn = (error: unknown): OutboundRefusedError | undefined => {
  for (let e = error, depth = 0; e && depth < 5; depth += 1) {
    if (e instanceof OutboundRefusedError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

export type OutboundGuard = ReturnType<typeof createOutboundGuard>;

export const createOutboundGuard = (options: {
  allowPrivate: AllowPrivate;
  // Tests answer names themselves; the system's resolver otherwise.
  resolve?: Resolver;
}) => {
  const resolve = options.resolve ?? systemResolver;
  const allowed = new BlockList();
  if (Array.isArray(options.allowPrivate))
    for (const entry of options.allowPrivate) {
      const cidr = parseCidr(entry);
      if (cidr) allowed.addSubnet(cidr.address, cidr.prefix, cidr.type);
    }

  const isAllowed = (address: string) =>
    options.allowPrivate === true ||
    !special.check(address, familyOf(address)) ||
    allowed.check(address, familyOf(address));

  const refuse = (host: string) =>
    new OutboundRefusedError(
      `${host} is on a private or reserved network, which this server does not call`,
    );

  // The URL if its scheme may be called and a literal address in it is allowed.
  const parse = (raw: string | URL) => {
    let url: URL;
    try {
      url = new URL(String(raw));
    } catch {
      throw new OutboundRefusedError('Not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundRefusedError('Only http and https addresses can be called');
    if (url.username || url.password)
      throw new OutboundRefusedError('Addresses with a user name or password are not called');
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !isAllowed(literal)) throw refuse(url.hostname);
    return url;
  };

  // Resolves a name and checks every address it has.
  const addressesOf = async (hostname: string) => {
    const addresses = await resolve(hostname);
    if (!addresses.length) throw new OutboundRefusedError(`${hostname} has no address`);
    if (addresses.some((a) => !isAllowed(a.address))) throw refuse(hostname);
    return addresses;
  };

  // Connections are made to the addresses this lookup checked, whatever a later answer would say.
  const lookup = (
    hostname: string,
    lookupOptions: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    addressesOf(hostname).then(
      (addresses) =>
        lookupOptions.all
          ? callback(null, addresses)
          : callback(null, addresses[0]!.address, addresses[0]!.family),
      (error: Error) => callback(error, ''),
    );
  };
  const agent = new Agent({ connect: { lookup } });

  type Init = NonNullable<Parameters<typeof undiciFetch>[1]>;

  // fetch for company-supplied URLs. Redirects are followed here, each one checked like the first
  // (redirect: 'manual' and 'error' keep their meaning).
  const guardedFetch = async (input: string | URL, init: Init = {}) => {
    let url = parse(input);
    let current: Init = { ...init };
    // Bodies built with the runtime's own classes (FormData, Blob, as the SDKs send files) are
    // encoded here: this fetch is undici's, whose classes they are not.
    const body = init.body as unknown;
    if (body instanceof globalThis.FormData || body instanceof globalThis.Blob) {
      const encoded = new globalThis.Response(body);
      const headers = new Headers(init.headers);
      const type = encoded.headers.get('content-type');
      if (type) headers.set('content-type', type);
      current = { ...current, headers, body: Buffer.from(await encoded.arrayBuffer()) };
    }
    for (let hops = 0; ; hops += 1) {
      const response = await undiciFetch(url, {
        ...current,
        redirect: 'manual',
        dispatcher: agent,
      });
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || !location || init.redirect === 'manual')
        return response;
      await response.body?.cancel();
      if (init.redirect === 'error' || hops >= MAX_REDIRECTS)
        throw new OutboundRefusedError(`Too many redirects, or a redirect where none is followed`);
      const next = parse(new URL(location, url));
      const method = (current.method ?? 'GET').toUpperCase();
      const headers = new Headers(current.headers);
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        current = { ...current, method: 'GET', body: undefined };
        headers.delete('content-type');
        headers.delete('content-length');
      }
      // Credentials meant for one server are not handed to another.
      if (next.origin !== url.origin) headers.delete('authorization');
      current = { ...current, headers };
      url = next;
    }
  };

  return {
    fetch: guardedFetch as unknown as typeof fetch,
    // Whether the host is a literal address of a private or reserved network that
    // OUTBOUND_ALLOW_PRIVATE lets through: one of the operator's own services (a local push service
    // in tests and development may answer on plain http there).
    allowsPrivateAddress(hostname: string) {
      const literal = hostname.replace(/^\[|\]$/g, '');
      return isIP(literal) > 0 && special.check(literal, familyOf(literal)) && isAllowed(literal);
    },
    // Save-time check of a URL a company types, as a field error: its scheme, and the addresses its
    // host has now (a name that does not resolve yet is checked again at every call).
    async check(raw: string, field: string) {
      try {
        const url = parse(raw);
        const host = url.hostname.replace(/^\[|\]$/g, '');
        if (isIP(host)) return;
        let addresses: LookupAddress[] = [];
        try {
          addresses = await resolve(host);
        } catch {
          return;
        }
        if (addresses.some((a) => !isAllowed(a.address))) throw refuse(url.hostname);
      } catch (error) {
        const refusal = refusalIn(error);
        if (!refusal) throw error;
        throw new AppError('ERR_OUTBOUND_URL_NOT_ALLOWED', refusal.message, {
          fields: { [field]: [refusal.message] },
        });
      }
    },
    async close() {
      await agent.close();
    },
  };
};
