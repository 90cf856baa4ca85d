// One way to write money across the app (plans, sign-up, subscribe, checkout, invoices): in the app's
// language, always with two decimals (SPEC §9: plan values with two decimals; Spanish writes
// "$ 39,00" as SPEC's pt-BR does). An amount that knows its ISO 4217 currency (an invoice) is written
// as that currency is; a plan's value is in the platform's billing currency, written "$ 39,00".
export const formatMoney = (value: number, language: string, currency?: string) => {
  if (currency)
    try {
      return new Intl.NumberFormat(language, {
        style: 'currency',
        currency: currency.toUpperCase(),
      }).format(value);
    } catch {
      // An unknown code still shows the amount, as a plan's value is.
    }
  const amount = new Intl.NumberFormat(language, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    // "1.149,50" as SPEC's pt-BR writes it (Spanish would group only from five digits).
    useGrouping: 'always',
  }).format(value);
  return currency ? `${amount} ${currency.toUpperCase()}` : `$ ${amount}`;
};
