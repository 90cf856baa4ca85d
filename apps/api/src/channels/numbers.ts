import { whatsappNumber, whatsappNumberForms } from '@atendi/shared/phone';

// Phone numbers and chat ids as every driver and the ingest pipeline see them: a contact is the
// digits of its number with the country code first ('5511988887777'), a group is its WhatsApp id
// ('120363025246125486@g.us'). Pure functions, no I/O. Numbers people type go through shared's
// parseWhatsAppNumber instead (modules/contacts/typed-number.ts), which reads local numbers.

const PHONE_SERVERS = new Set(['s.whatsapp.net', 'c.us']);

// Digits only, from a number in any notation or from a JID ('5511988887777:12@s.whatsapp.net' ->
// '5511988887777'), in the one form a person's number is stored under (shared's whatsappNumber: a
// Brazilian mobile gains its ninth digit, a Mexican one loses the old '1'), so a person writing in
// and the same person typed by hand are one contact; other numbers are left as written.
// Group ids and LIDs are not numbers: check isGroupId / the '@lid' suffix before calling this.
export const normalizeNumber = (raw: string): string => {
  // The JID user part ends at the server ('@'), the device (':12') or the agent ('_1').
  const user = raw.includes('@') ? raw.split('@')[0].split(':')[0].split('_')[0] : raw;
  return whatsappNumber(user.replace(/\D/g, ''));
};

// The numbers one person may be registered under on WhatsApp: the stored form first, then the old
// one some accounts still use (a Brazilian mobile without its ninth digit, a Mexican one with the
// '1'). Any other number has a single form.
export const numberVariants = (number: string): string[] =>
  whatsappNumberForms(normalizeNumber(number));

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
