// Phone numbers and chat ids as every driver and the ingest pipeline see them: a contact is the
// digits of its number with the country code first ('5511988887777'), a group is its WhatsApp id
// ('120363025246125486@g.us'). Pure functions, no I/O.

const PHONE_SERVERS = new Set(['s.whatsapp.net', 'c.us']);

// 55 + area code (two digits, no zeros) + an 8-digit mobile number written before the ninth digit.
const BRAZIL_OLD_MOBILE = /^55([1-9][1-9])([6-9]\d{7})$/;
// 55 + area code + 9 + the 8-digit mobile number.
const BRAZIL_MOBILE = /^55([1-9][1-9])9([6-9]\d{7})$/;

// Digits only, from a number in any notation or from a JID ('5511988887777:12@s.whatsapp.net' ->
// '5511988887777'). A Brazilian mobile written without its ninth digit gains it, so one person
// always has one canonical number; landlines and other countries are left as written.
// Group ids and LIDs are not numbers: check isGroupId / the '@lid' suffix before calling this.
export const normalizeNumber = (raw: string): string => {
  // The JID user part ends at the server ('@'), the device (':12') or the agent ('_1').
  const user = raw.includes('@') ? raw.split('@')[0].split(':')[0].split('_')[0] : raw;
  const digits = user.replace(/\D/g, '');
  const old = BRAZIL_OLD_MOBILE.exec(digits);
  return old ? `55${old[1]}9${old[2]}` : digits;
};

// The numbers one Brazilian mobile may be registered under on WhatsApp: the canonical form first,
// then the old 12-digit form some accounts created before the ninth digit still use. Any other
// number has a single form.
export const brazilVariants = (number: string): string[] => {
  const canonical = normalizeNumber(number);
  const mobile = BRAZIL_MOBILE.exec(canonical);
  return mobile ? [canonical, `55${mobile[1]}${mobile[2]}`] : [canonical];
};

// A WhatsApp group id ('…@g.us').
export const isGroupId = (id: string): boolean => id.endsWith('@g.us');

// The JID to address a chat: group ids, LIDs and other non-phone JIDs are kept as they are, a
// number (or phone JID) becomes '<digits>@s.whatsapp.net'. A legacy group id given without its
// server ('<creator>-<timestamp>') gets '@g.us'.
export const toJid = (numberOrGroupId: string): string => {
  const id = numberOrGroupId.trim();
  const at = id.lastIndexOf('@');
  if (at >= 0) {
    const server = id.slice(at + 1);
    return PHONE_SERVERS.has(server) ? `${normalizeNumber(id)}@s.whatsapp.net` : id;
  }
  if (/^\d+-\d+$/.test(id)) return `${id}@g.us`;
  return `${normalizeNumber(id)}@s.whatsapp.net`;
};
