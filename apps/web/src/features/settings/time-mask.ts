// SPEC §5 Queue schedules: hour fields use an HH:MM mask.
export const maskTime = (input: string) => {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
};

export const isTimeOrEmpty = (value: string) =>
  value === '' || /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
