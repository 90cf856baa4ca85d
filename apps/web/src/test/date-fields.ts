import { fireEvent, screen } from '@testing-library/react';

type Scope = Pick<typeof screen, 'getAllByLabelText'>;

// components/date-field.tsx is a group of editable parts over a hidden input that holds the whole
// text: the browser's autofill writes that input at once, and so do these tests, as shown
// (dd/MM/yyyy, with HH:mm for a date and time).
export const dateInput = (label: string | RegExp, scope: Scope = screen) =>
  scope.getAllByLabelText(label).find((element) => element.tagName === 'INPUT') as HTMLInputElement;

export const setDate = (label: string | RegExp, shown: string, scope: Scope = screen) =>
  fireEvent.change(dateInput(label, scope), { target: { value: shown } });

const pad = (value: number) => String(value).padStart(2, '0');

// A date and time as the field shows it.
export const shownDateTime = (date: Date) =>
  `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;

// What the field shows, read back as a local date and time.
export const readDateTime = (shown: string) => {
  const [day, month, year, hours, minutes] = shown.split(/[/ :]/).map(Number);
  return new Date(year!, month! - 1, day, hours, minutes);
};
