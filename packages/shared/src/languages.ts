// The languages of the product (SPEC §1 Spanish first; English; issue 41 Portuguese of Brazil).
export const languages = ['es', 'en', 'pt-BR'] as const;
export type Language = (typeof languages)[number];
