// Spreadsheet imports (contacts, contact lists): which column a header cell names, as people
// actually write it in Spanish, Portuguese and English, compared without case, accents, spaces or
// punctuation.

export type SheetField = 'name' | 'number' | 'email';

const HEADERS: Record<SheetField, string[]> = {
  // Google Contacts' and Outlook's CSV exports name them "Name"/"First Name", "Phone 1 - Value"/
  // "Mobile Phone" and "E-mail 1 - Value"/"E-mail Address".
  name: [
    'name',
    'nombre',
    'nome',
    'fullname',
    'nombrecompleto',
    'contact',
    'contacto',
    'contato',
    'displayname',
    'firstname',
  ],
  number: [
    'number',
    'numero',
    'phone',
    'phonenumber',
    'telefono',
    'telefone',
    'celular',
    'movil',
    'mobile',
    'whatsapp',
    'phonevalue',
    'mobilephone',
    'primaryphone',
  ],
  email: ['email', 'mail', 'correo', 'correoelectronico', 'emailvalue', 'emailaddress'],
};

const headerKey = (header: string) =>
  header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

export const sheetFieldOf = (header: string): SheetField | undefined => {
  const key = headerKey(header);
  return (Object.keys(HEADERS) as SheetField[]).find((field) => HEADERS[field].includes(key));
};
