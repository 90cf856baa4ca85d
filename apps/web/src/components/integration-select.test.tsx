import { useState } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../test/test-providers';
import { unknownApiCalls } from '../test/api-routes';
import { callsOf, stubApi } from '../test/fixtures';
import { integrationOptionsOf } from '../test/queue-integrations';
import { setupUser } from '../test/user-event';
import { IntegrationSelect } from './integration-select';

const Picker = ({ initial = '' }: { initial?: string }) => {
  const [value, setValue] = useState(initial);
  return (
    <>
      <IntegrationSelect value={value} onChange={setValue} />
      <output aria-label="chosen">{value}</output>
    </>
  );
};

const renderPicker = (initial?: string) =>
  render(
    <TestProviders>
      <Picker initial={initial} />
    </TestProviders>,
  );

describe('integration select', () => {
  it('offers every integration from one read of GET /queueIntegration/list', async () => {
    const fetchMock = stubApi({
      'GET /queueIntegration/list': () =>
        integrationOptionsOf([
          { id: 5, name: 'Bot de ventas', type: 'typebot' },
          { id: 8, name: 'Webhook CRM', type: 'webhook' },
        ]),
    });
    const user = setupUser();
    renderPicker();

    const picker = screen.getByRole('combobox', { name: 'Integración' });
    expect(picker.textContent).toBe('Ninguna');
    await user.click(picker);
    expect(await screen.findByRole('option', { name: 'Bot de ventas' })).toBeTruthy();
    await user.click(screen.getByRole('option', { name: 'Webhook CRM' }));

    expect(screen.getByRole('status', { name: 'chosen' }).textContent).toBe('8');
    expect(callsOf(fetchMock)).toEqual(['GET /queueIntegration/list']);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('shows a saved integration by name once the list arrives', async () => {
    stubApi({
      'GET /queueIntegration/list': () =>
        integrationOptionsOf([{ id: 5, name: 'Bot de ventas', type: 'typebot' }]),
    });
    renderPicker('5');

    const picker = screen.getByRole('combobox', { name: 'Integración' });
    await waitFor(() => expect(picker.textContent).toBe('Bot de ventas'));
  });
});
