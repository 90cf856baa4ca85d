import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../test/test-providers';
import { StorageUsage } from './storage-usage';

const MB = 1024 * 1024;
const GB = 1024 * MB;

const show = (used: number, limit: number, compact = false) =>
  render(
    <TestProviders>
      <StorageUsage used={used} limit={limit} compact={compact} />
    </TestProviders>,
  );

describe('storage usage', () => {
  it('shows used against the plan’s storage, with a bar and the share used', () => {
    show(1.5 * GB, 5 * GB);
    const usage = screen.getByTestId('storage-usage');
    expect(usage.textContent).toContain('1,5 GB de 5 GB');
    expect(usage.textContent).toContain('30 % usado');
    const bar = screen.getByRole('progressbar', { name: 'Almacenamiento: 1,5 GB de 5 GB' });
    expect(bar.getAttribute('aria-valuenow')).toBe('30');
    expect(screen.queryByText(/lleno/)).toBeNull();
  });

  it('warns when nearly full and says what a full storage means', () => {
    const { unmount } = show(850 * MB, GB);
    expect(screen.getByText('El almacenamiento está casi lleno.')).toBeTruthy();
    unmount();
    show(GB + 20 * MB, GB);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(
      screen.getByText(
        'El almacenamiento está lleno: se rechazan los archivos nuevos y los que llegan por WhatsApp no se guardan.',
      ),
    ).toBeTruthy();
  });

  it('an unlimited plan shows the usage alone; the compact form (companies list) keeps the bar', () => {
    const { unmount } = show(300 * MB, 0);
    expect(screen.getByTestId('storage-usage').textContent).toBe('300 MB (sin límite)');
    expect(screen.queryByRole('progressbar')).toBeNull();
    unmount();
    show(12 * 1024, 5 * GB, true);
    expect(screen.getByTestId('storage-usage').textContent).toBe('12 KB de 5 GB');
    expect(screen.getByRole('progressbar')).toBeTruthy();
  });
});
