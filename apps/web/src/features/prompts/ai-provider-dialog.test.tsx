import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AiProviderView } from '@atendi/shared';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { promptListOf } from '../../test/prompts';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser, type User } from '../../test/user-event';
import { PromptsPage } from './prompts-page';

const makeProvider = (overrides: Partial<AiProviderView> = {}): AiProviderView => ({
  baseUrl: null,
  keySet: false,
  platformDefault: true,
  updatedAt: null,
  ...overrides,
});

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

const openProvider = async (user: User) => {
  await user.click(await screen.findByRole('button', { name: 'Proveedor de IA' }));
  const dialog = await screen.findByRole('dialog', { name: 'Proveedor de IA' });
  await within(dialog).findByLabelText('Clave de la API');
  return dialog;
};

describe('AI provider dialog', () => {
  it('shows a saved key only as "key set", and keeps it unless a new one is typed', async () => {
    const sent: Record<string, unknown>[] = [];
    const saved = makeProvider({ baseUrl: 'http://localhost:11434/v1', keySet: true });
    stubApi({
      'GET /prompt': () => promptListOf([]),
      'GET /ai-provider': () => jsonResponse(200, saved),
      'PUT /ai-provider': (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(200, saved);
      },
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openProvider(user);
    const key = within(dialog).getByLabelText('Clave de la API') as HTMLInputElement;
    expect(key.type).toBe('password');
    expect(key.value).toBe('');
    expect(within(dialog).getByText('Clave guardada')).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: 'Dirección base (URL)' })).toHaveProperty(
      'value',
      'http://localhost:11434/v1',
    );
    expect(
      within(dialog).getByText(/Ollama \(http:\/\/localhost:11434\/v1\), vLLM, OpenRouter/),
    ).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Proveedor de IA guardado.')).toBeTruthy();
    expect(sent[0]).toEqual({ baseUrl: 'http://localhost:11434/v1' });

    const again = await openProvider(user);
    await fill(user, within(again).getByLabelText('Clave de la API'), 'sk-nueva-123');
    await user.click(within(again).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ baseUrl: 'http://localhost:11434/v1', apiKey: 'sk-nueva-123' });
  });

  it('removes the saved key, and an empty address means the platform default', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /prompt': () => promptListOf([]),
      'GET /ai-provider': () =>
        jsonResponse(200, makeProvider({ baseUrl: 'https://openrouter.ai/api/v1', keySet: true })),
      'PUT /ai-provider': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, makeProvider());
      },
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openProvider(user);
    expect(
      within(dialog).getByText(/Esta plataforma ofrece un proveedor de IA predeterminado/),
    ).toBeTruthy();
    await user.clear(within(dialog).getByRole('textbox', { name: 'Dirección base (URL)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Quitar clave' }));
    expect(within(dialog).queryByText('Clave guardada')).toBeNull();
    expect(within(dialog).getByText('La clave guardada se quitará al guardar.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Proveedor de IA guardado.')).toBeTruthy();
    expect(sent).toEqual({ baseUrl: null, apiKey: null });
  });

  it('refuses an address that is not http(s)', async () => {
    const fetchMock = stubApi({
      'GET /prompt': () => promptListOf([]),
      'GET /ai-provider': () => jsonResponse(200, makeProvider({ platformDefault: false })),
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openProvider(user);
    expect(within(dialog).getByText(/no ofrece un proveedor de IA predeterminado/)).toBeTruthy();
    expect(within(dialog).getByText('Sin clave')).toBeTruthy();
    const baseUrl = within(dialog).getByRole('textbox', { name: 'Dirección base (URL)' });
    await refill(user, baseUrl, 'localhost:11434');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    const message = await within(dialog).findByText('Use una dirección http:// o https://');
    expect(message.id).toBe(baseUrl.getAttribute('aria-describedby'));
    expect(callsOf(fetchMock).some((call) => call.startsWith('PUT'))).toBe(false);
  });

  it('tests the provider as typed, before saving: the models it found, or what went wrong', async () => {
    let answer = () => jsonResponse(200, { models: ['gpt-4o-mini', 'gpt-4.1-mini', 'o3'] });
    const tested: unknown[] = [];
    const fetchMock = stubApi({
      'GET /prompt': () => promptListOf([]),
      'GET /ai-provider': () => jsonResponse(200, makeProvider({ keySet: true })),
      'POST /ai-provider/test': (init) => {
        tested.push(JSON.parse(String(init.body)));
        return answer();
      },
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openProvider(user);
    await refill(
      user,
      within(dialog).getByRole('textbox', { name: 'Dirección base (URL)' }),
      'https://llm.example.com/v1',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Probar conexión' }));
    expect(
      await within(dialog).findByText('Conexión correcta: se encontraron 3 modelos.'),
    ).toBeTruthy();
    // The typed address, with the stored key (none typed): nothing saved.
    expect(tested).toEqual([{ baseUrl: 'https://llm.example.com/v1' }]);
    expect(callsOf(fetchMock).some((call) => call.startsWith('PUT'))).toBe(false);

    answer = () =>
      jsonResponse(400, { error: 'ERR_AI_PROVIDER_AUTH', message: 'The AI provider refused' });
    await user.click(within(dialog).getByRole('button', { name: 'Probar conexión' }));
    expect(
      await within(dialog).findByText(
        'El proveedor de IA rechazó la clave de la API. Revísela en Agentes de IA › Proveedor de IA.',
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText(/Conexión correcta/)).toBeNull();
  });
});
