import { parseWhatsAppNumber } from '@atendi/shared/phone';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { getSettingValue } from './settings.service';

// Numbers people type (a contact, a sheet's rows, a campaign list's items, the external API's
// `number`), read as WhatsApp needs them: one written without its country code is a local number of
// the company's country (the `country` setting). Numbers WhatsApp itself reports never come here
// (channels/numbers.ts's normalizeNumber).

export type TypedNumber = { ok: true; number: string } | { ok: false; message: string };

// The company's reader: its country is read once, for a sheet's every row.
export const typedNumberReader = async (db: Db, companyId: number) => {
  const country = await getSettingValue(db, companyId, 'country');
  return (typed: string): TypedNumber => {
    const read = parseWhatsAppNumber(typed, country);
    if (read.ok) return read;
    const message =
      read.reason === 'country-needed'
        ? "Write the number with its country code (+52 55 1234 5678), or set the company's country in Settings"
        : country
          ? `Not a phone number of ${country}, nor one written with its country code`
          : 'Not a phone number';
    return { ok: false, message };
  };
};

// A typed number refused: 400 ERR_INVALID_NUMBER, said under the request's `number`.
const invalidNumber = (message: string) =>
  new AppError('ERR_INVALID_NUMBER', message, { fields: { number: [message] } });

// The stored form of one typed number, or the refusal.
export const readTypedNumber = async (db: Db, companyId: number, typed: string) => {
  const read = (await typedNumberReader(db, companyId))(typed);
  if (!read.ok) throw invalidNumber(read.message);
  return read.number;
};
