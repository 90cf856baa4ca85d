import { useState } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n';
import { dateInput, setDate } from '../test/date-fields';
import { DateField } from './date-field';

const Field = ({ kind, initial = '' }: { kind: 'date' | 'datetime'; initial?: string }) => {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateField kind={kind} label="Fecha" value={value} onChange={setValue} />
      <output>{value}</output>
    </>
  );
};

const input = () => dateInput('Fecha');

describe('date field', () => {
  it('shows and takes dates as dd/MM/yyyy whatever the browser’s language, holding the ISO text', () => {
    render(<Field kind="date" initial="2026-11-01" />);
    expect(input().value).toBe('01/11/2026');
    setDate('Fecha', '25/12/2026');
    expect(screen.getByRole('status').textContent).toBe('2026-12-25');
    expect(input().value).toBe('25/12/2026');
  });

  it('takes a time on a 24-hour clock', () => {
    render(<Field kind="datetime" initial="2026-11-01T05:40" />);
    expect(input().value).toBe('01/11/2026 05:40');
    setDate('Fecha', '25/12/2026 17:30');
    expect(screen.getByRole('status').textContent).toBe('2026-12-25T17:30');
  });

  it('takes a date typed a part at a time, and is empty when cleared', async () => {
    const user = userEvent.setup();
    render(<Field kind="date" />);
    await user.click(screen.getByRole('group', { name: 'Fecha' }));
    await user.keyboard('2512');
    // Typed a part at a time, in the app's order: not a date until the year is there.
    expect(input().value).toBe('25/12/AAAA');
    expect(screen.getByRole('status').textContent).toBe('');
    await user.keyboard('2026');
    expect(screen.getByRole('status').textContent).toBe('2026-12-25');
    setDate('Fecha', '');
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('names its calendar in the app’s language', async () => {
    render(<Field kind="date" />);
    expect(screen.getByRole('button', { name: /^Elige fecha/ })).toBeTruthy();
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByRole('button', { name: /^Choose date/ })).toBeTruthy();
  });

  it('names its calendar and its months in Brazilian Portuguese, the date still dd/MM/yyyy', async () => {
    const user = userEvent.setup();
    render(<Field kind="date" initial="2026-12-25" />);
    await act(() => i18n.changeLanguage('pt-BR'));
    expect(input().value).toBe('25/12/2026');
    await user.click(screen.getByRole('button', { name: /^Escolha uma data/ }));
    expect(await screen.findByText(/^dezembro/)).toBeTruthy();
  });
});
