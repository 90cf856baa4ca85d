// The languages of the product (SPEC §1 Spanish first; English; issue 41 Portuguese of Brazil).
export const languages = ['es', 'en', 'pt-BR'] as const;
export type Language = (typeof languages)[number];

// The product's language a stored or sent value names, Spanish (SPEC §1's) when it names none.
export const languageOr = (value: unknown): Language =>
  (languages as readonly unknown[]).includes(value) ? (value as Language) : 'es';
