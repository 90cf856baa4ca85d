import { useState } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n';
import { refill, setupUser } from '../test/user-event';
import { isCssColor } from '../lib/colors';
import { ColorField } from './color-field';

// The field as a form holds it: the rule (here a CSS hex colour) is checked on leaving the field.
const Field = ({ initial = '', usedBy }: { initial?: string; usedBy?: Map<string, string> }) => {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string>();
  return (
    <>
      <ColorField
        label="Color"
        value={value}
        onChange={setValue}
        onBlur={() => setError(isCssColor(value) ? undefined : 'Use un color hexadecimal')}
        inputRef={() => undefined}
        usedBy={usedBy}
        error={error}
      />
      <output>{value}</output>
    </>
  );
};

const hexField = () => screen.getByRole('textbox', { name: 'Color (hex)' }) as HTMLInputElement;
const shown = () => screen.getByRole('status').textContent;

describe('colour field', () => {
  it('picks a preset from the palette, which shows as chosen', async () => {
    const user = setupUser();
    render(<Field initial="#e53935" />);
    const palette = screen.getByRole('radiogroup', { name: 'Color' });
    expect(palette).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Elegir el color #1e88e5' }));
    expect(shown()).toBe('#1e88e5');
    expect(hexField().value).toBe('#1e88e5');
    expect(screen.getByRole('radio', { name: 'Elegir el color #1e88e5' }).ariaChecked).toBe('true');
    expect(screen.getByRole('radio', { name: 'Elegir el color #e53935' }).ariaChecked).toBe(
      'false',
    );
  });

  it('takes a typed hex code, and shows the rule’s error for one that is no colour', async () => {
    const user = setupUser();
    render(<Field initial="#e53935" />);
    await refill(user, hexField(), '#A4CCCC');
    expect(shown()).toBe('#A4CCCC');
    // Not a preset: no colour of the palette is chosen.
    expect(screen.queryByRole('radio', { checked: true })).toBeNull();
    await refill(user, hexField(), '#12345');
    await user.tab();
    expect(screen.getByText('Use un color hexadecimal')).toBeTruthy();
    expect(hexField().getAttribute('aria-invalid')).toBe('true');
  });

  it('cannot pick a colour someone else uses, and names who', () => {
    render(
      <Field initial="#1e88e5" usedBy={new Map([['#e53935', 'En uso por la cola Ventas']])} />,
    );
    const used = screen.getByRole('radio', {
      name: 'Elegir el color #e53935. En uso por la cola Ventas',
    }) as HTMLButtonElement;
    expect(used.disabled).toBe(true);
  });

  it('is one stop for Tab, and the arrows move the choice past the colours in use', async () => {
    const user = setupUser();
    render(
      <Field initial="#d81b60" usedBy={new Map([['#8e24aa', 'En uso por la cola Ventas']])} />,
    );
    await user.tab();
    expect(document.activeElement).toBe(
      screen.getByRole('radio', { name: 'Elegir el color #d81b60' }),
    );
    await user.keyboard('{ArrowRight}');
    expect(shown()).toBe('#5e35b1');
    expect(document.activeElement).toBe(
      screen.getByRole('radio', { name: 'Elegir el color #5e35b1' }),
    );
    await user.keyboard('{Home}');
    expect(shown()).toBe('#e53935');
    await user.keyboard('{ArrowLeft}');
    expect(shown()).toBe('#263238');
    // The next Tab leaves the palette for the hex field.
    await user.tab();
    expect(document.activeElement).toBe(hexField());
  });

  it('speaks the app’s language', async () => {
    render(<Field initial="#e53935" />);
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByRole('radio', { name: 'Pick colour #e53935' })).toBeTruthy();
    expect(
      screen.getByText('Pick one from the palette or type a code such as #1e88e5.'),
    ).toBeTruthy();
  });
});
