// Spreadsheet imports (contacts, contact lists): which column a header cell names, as people
// actually write it in Spanish, Portuguese and English, compared without case, accents, spaces or
// punctuation.

export type SheetField = 'name' | 'number' | 'email';

const HEADERS: Record<SheetField, string[]> = {
  name: ['name', 'nombre', 'nome', 'fullname', 'nombrecompleto', 'contact', 'contacto', 'contato'],
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
  ],
  email: ['email', 'mail', 'correo', 'correoelectronico'],
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
