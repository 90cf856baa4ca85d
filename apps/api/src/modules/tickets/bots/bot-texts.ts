import { localTime } from './business-hours';

// What the platform itself writes to contacts. Spanish, as most companies serve Spanish-speaking
// customers; the company's own texts (greetings, completion, rating, out of hours) are theirs.

const greetingFor = (now: Date, timeZone: string) => {
  const { hour } = localTime(now, timeZone);
  if (hour >= 5 && hour < 12) return 'Buenos días';
  if (hour >= 12 && hour < 19) return 'Buenas tardes';
  return 'Buenas noches';
};

const firstNameOf = (name: string) => name.trim().split(/\s+/)[0] ?? '';

// SPEC §3 message variables: {{firstName}}, {{name}}, {{greeting}}, {{hora}}; campaigns add {{number}}.
export const fillVariables = (
  text: string,
  context: {
    contactName: string;
    // The contact's number ({{number}}), where the text is for one contact.
    number?: string;
    now: Date;
    timeZone: string;
    // The company's own {{key}} values (campaign settings); the built-in names win over them.
    extra?: readonly { key: string; value: string }[];
  },
) => {
  const { hour, minutes } = localTime(context.now, context.timeZone);
  const values: Record<string, string> = {
    ...Object.fromEntries(
      (context.extra ?? []).map(({ key, value }) => [key.toLowerCase(), value]),
    ),
    firstname: firstNameOf(context.contactName),
    name: context.contactName,
    ...(context.number !== undefined ? { number: context.number } : {}),
    greeting: greetingFor(context.now, context.timeZone),
    hora: `${String(hour).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
  };
  return text.replace(/\{\{\s*([\p{L}\p{N}_]+)\s*\}\}/gu, (whole, key: string) => {
    const value = values[key.toLowerCase()];
    return value ?? whole;
  });
};

export const acceptGreeting = (context: {
  contactName: string;
  userName: string;
  now: Date;
  timeZone: string;
}) =>
  `${greetingFor(context.now, context.timeZone)} *${firstNameOf(context.contactName)}*, mi nombre es *${context.userName}* y continuaré con tu atención.`;

export const transferNotice = (to: { queueName?: string | null; userName?: string | null }) =>
  to.userName
    ? `*Mensaje automático*:\nTu conversación fue transferida a *${to.userName}*. Espera, ¡pronto te atenderá!`
    : `*Mensaje automático*:\nTu conversación fue transferida al departamento *${to.queueName ?? ''}*. Espera, ¡pronto te atenderemos!`;

// SPEC §9: ratings on a 1 to 3 scale.
export const ratingPrompt = (ratingMessage: string) =>
  [
    ratingMessage.trim(),
    '*1* - Insatisfecho\n*2* - Satisfecho\n*3* - Muy satisfecho',
    '_Responde solo con el número._',
  ].join('\n\n');

export const ratingThanks = '¡Gracias por tu evaluación!';

export const parseRating = (body: string) => {
  const match = /^\s*([1-3])\s*[.)]?\s*$/.exec(body);
  return match ? Number(match[1]) : undefined;
};

export const BACK_OPTION = '#';
export const backLine = `*${BACK_OPTION}* - Volver`;
