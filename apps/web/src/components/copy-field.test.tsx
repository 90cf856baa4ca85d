import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TestProviders } from '../test/test-providers';
import { setupUser } from '../test/user-event';
import { CopyField } from './copy-field';

const renderField = (value: string) =>
  render(
    <TestProviders>
      <CopyField
        label="Token de la API"
        value={value}
        helperText="Para el API de mensajes."
        copyLabel="Copiar token"
        copiedText="Token copiado."
      />
    </TestProviders>,
  );

describe('copy field', () => {
  it('shows the value read-only and copies it in a click, saying so', async () => {
    const user = setupUser();
    renderField('tok_123');
    const field = screen.getByRole('textbox', { name: 'Token de la API' }) as HTMLInputElement;
    expect(field.value).toBe('tok_123');
    expect(field.readOnly).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Copiar token' }));
    expect(await screen.findByText('Token copiado.')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe('tok_123');
  });

  it('says to copy by hand where the browser refuses the clipboard', async () => {
    const user = setupUser();
    renderField('tok_123');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));

    await user.click(screen.getByRole('button', { name: 'Copiar token' }));
    expect(await screen.findByText('No se pudo copiar. Cópielo a mano.')).toBeTruthy();
    expect(screen.queryByText('Token copiado.')).toBeNull();
  });

  it('has nothing to copy while the value is empty', () => {
    renderField('');
    expect(
      (screen.getByRole('button', { name: 'Copiar token' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });
});
