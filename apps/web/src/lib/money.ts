// One way to write money across the app (plans, sign-up, subscribe, checkout, invoices): the amount in
// its ISO 4217 currency, as the app's language writes that currency, always with two decimals (SPEC
// §9: plan values with two decimals): "39,00 €" and "39,00 US$" in Spanish, "€39.00" and "$39.00" in
// English. A plan's value is in the platform's billing currency, which every plan names (`currency`);
// an invoice names its own.
export const formatMoney = (value: number, language: string, currency: string) => {
  const options = {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    // "1.149,50" as SPEC's pt-BR writes it (Spanish would group only from five digits).
    useGrouping: 'always',
  } as const;
  try {
    return new Intl.NumberFormat(language, {
      ...options,
      style: 'currency',
      currency: currency.toUpperCase(),
    }).format(value);
  } catch {
    // A code Intl refuses still shows the amount, with the code as given.
    return `${new Intl.NumberFormat(language, options).format(value)} ${currency.toUpperCase()}`;
  }
};

// The sign a language writes a currency with ("US$" in Spanish, "$" in English, "€"), e.g. beside
// an amount being typed.
export const currencySymbol = (language: string, currency: string) => {
  try {
    return (
      new Intl.NumberFormat(language, { style: 'currency', currency: currency.toUpperCase() })
        .formatToParts(0)
        .find((part) => part.type === 'currency')?.value ?? currency.toUpperCase()
    );
  } catch {
    return currency.toUpperCase();
  }
};
