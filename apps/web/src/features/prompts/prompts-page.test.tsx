import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSocket } from '../../api/socket';
import { unknownApiCalls } from '../../test/api-routes';
import type { FakeSocket } from '../../test/fake-socket';
import { callsOf, makeAuth, stubApi } from '../../test/fixtures';
import { makePrompt, promptListOf, promptsUsageOf } from '../../test/prompts';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { PromptsPage } from './prompts-page';

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

const sales = makePrompt({
  id: 1,
  name: 'Asistente de ventas',
  maxTokens: 150,
  queueId: 2,
  queue: { id: 2, name: 'Ventas', color: '#43a047' },
});
const support = makePrompt({
  id: 2,
  name: 'Soporte nocturno',
  maxTokens: 300,
  lastError: {
    code: 'ERR_AI_PROVIDER_AUTH',
    message: 'Incorrect API key provided',
    // Shown in local time.
    at: new Date(2025, 2, 5, 10, 20).toISOString(),
  },
});

describe('prompts page', () => {
  it('lists name, queue and max tokens, and warns about an agent whose provider failed', async () => {
    const fetchMock = stubApi({
      'GET /prompt': () => promptListOf([sales, support]),
      'GET /prompt/usage': () => promptsUsageOf(),
    });
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    expect(await screen.findByRole('heading', { level: 1, name: 'Agentes de IA' })).toBeTruthy();
    const salesRow = await rowOf('Asistente de ventas');
    expect(within(salesRow).getByText('Ventas')).toBeTruthy();
    expect(within(salesRow).getByText('150')).toBeTruthy();
    expect(within(salesRow).queryByRole('img', { name: /Último error/ })).toBeNull();

    const supportRow = await rowOf('Soporte nocturno');
    expect(within(supportRow).getAllByRole('cell')[1].textContent).toBe('—');
    expect(within(supportRow).getByText('300')).toBeTruthy();
    const warning = within(supportRow).getByRole('img', { name: /Último error/ });
    expect(warning.getAttribute('aria-label')).toBe(
      'Último error (05/03/2025 10:20): El proveedor de IA rechazó la clave de la API. Revísela en Agentes de IA › Proveedor de IA. — Incorrect API key provided',
    );
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('shows each agent’s messages this month against the plan, and the agents the plan allows', async () => {
    let sent = 1234;
    stubApi({
      'GET /prompt': () => promptListOf([sales, support]),
      'GET /prompt/usage': () =>
        promptsUsageOf({
          month: '2025-03',
          messages: sent + 16,
          agents: 2,
          agentsLimit: 3,
          messagesLimit: 2000,
          prompts: [{ promptId: sales.id, messages: sent }],
        }),
    });
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    expect((await screen.findByTestId('ai-quotas')).textContent).toBe(
      'Agentes: 2 de 3 · 2.000 mensajes por agente en marzo de 2025',
    );
    const salesRow = await rowOf('Asistente de ventas');
    expect(within(salesRow).getByText('1.234 / 2.000')).toBeTruthy();
    const bar = within(salesRow).getByRole('progressbar', {
      name: 'Mensajes este mes: 1.234 de 2.000',
    });
    expect(bar.getAttribute('aria-valuenow')).toBe('62');
    // An agent that sent nothing yet.
    expect(within(await rowOf('Soporte nocturno')).getByText('0 / 2.000')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();

    // An agent changed (here its error went): the use is read again.
    sent = 1301;
    act(() => {
      (getSocket() as unknown as FakeSocket).receive('company-1-prompt', {
        action: 'update',
        prompt: support,
      });
    });
    expect(await within(salesRow).findByText('1.301 / 2.000')).toBeTruthy();
  });

  it('says when the plan allows no more agents, and which ran out of messages this month', async () => {
    stubApi({
      'GET /prompt': () => promptListOf([sales]),
      'GET /prompt/usage': () =>
        promptsUsageOf({
          month: '2025-11',
          messages: 2000,
          agents: 1,
          exhaustedAgents: 1,
          agentsLimit: 1,
          messagesLimit: 2000,
          prompts: [{ promptId: sales.id, messages: 2000 }],
        }),
    });
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    expect((await screen.findByTestId('ai-quotas')).textContent).toContain(
      'Agentes: 1 de 1 · 2.000 mensajes por agente en noviembre de 2025 · Su plan no permite más agentes.',
    );
    expect(screen.getByRole('alert').textContent).toBe(
      '1 agente usó todos los mensajes de este mes que permite su plan: sus conversaciones pasan a una persona hasta el próximo mes.',
    );
    const bar = within(await rowOf('Asistente de ventas')).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
  });

  it('shows a plan without AI limits as such', async () => {
    stubApi({
      'GET /prompt': () => promptListOf([sales]),
      'GET /prompt/usage': () =>
        promptsUsageOf({
          agents: 1,
          agentsLimit: 0,
          messagesLimit: 0,
          prompts: [{ promptId: sales.id, messages: 15300 }],
        }),
    });
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    expect((await screen.findByTestId('ai-quotas')).textContent).toBe(
      'Agentes: 1 (sin límite) · mensajes sin límite en marzo de 2025',
    );
    const row = await rowOf('Asistente de ventas');
    expect(within(row).getByText('15.300 (sin límite)')).toBeTruthy();
    expect(within(row).queryByRole('progressbar')).toBeNull();
  });

  it('shows the AI tokens of the month against the plan, by feature, and when they are spent', async () => {
    let tokens = 1_240;
    stubApi({
      'GET /prompt': () => promptListOf([sales]),
      'GET /prompt/usage': () =>
        promptsUsageOf({
          tokens,
          tokensLimit: 2_000_000,
          tokensByFeature: [
            { feature: 'agent', calls: 3, tokens: tokens - 40 },
            { feature: 'embedding', calls: 2, tokens: 40 },
          ],
        }),
    });
    renderPage(<PromptsPage />, '/prompts', makeAuth());
    const line = await screen.findByTestId('ai-tokens');
    expect(line.textContent).toBe(
      'Tokens de IA este mes: 1.240 de 2.000.000 (agentes: 1.200 · conocimiento: 40)',
    );
    expect(
      within(line).getByRole('progressbar', { name: 'Tokens de IA usados este mes' }),
    ).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();

    tokens = 2_000_000;
    act(() => {
      (getSocket() as unknown as FakeSocket).receive('company-1-prompt', {
        action: 'update',
        prompt: sales,
      });
    });
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Se usaron todos los tokens de IA que su plan permite este mes/,
    );
  });

  it('shows the error in a tooltip on hover', async () => {
    stubApi({ 'GET /prompt': () => promptListOf([support]) });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    await user.hover(within(await rowOf('Soporte nocturno')).getByRole('img', { name: /Último/ }));
    expect((await screen.findByRole('tooltip')).textContent).toContain(
      'Incorrect API key provided',
    );
  });

  it('deletes an agent after confirmation', async () => {
    let deleted = false;
    stubApi({
      'GET /prompt': () => promptListOf([sales]),
      'DELETE /prompt/1': () => {
        deleted = true;
        return new Response(JSON.stringify({ message: 'Prompt deleted' }), { status: 200 });
      },
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    await user.click(
      within(await rowOf('Asistente de ventas')).getByRole('button', {
        name: 'Eliminar el agente Asistente de ventas',
      }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: '¿Eliminar el agente Asistente de ventas?',
    });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));

    expect(await screen.findByText('Agente eliminado.')).toBeTruthy();
    expect(deleted).toBe(true);
    await waitFor(() => expect(screen.queryByText('Asistente de ventas')).toBeNull());
    expect(screen.getByText('Aún no hay agentes de IA. Agregue el primero.')).toBeTruthy();
  });

  it('follows the live prompt events', async () => {
    stubApi({ 'GET /prompt': () => promptListOf([support]) });
    renderPage(<PromptsPage />, '/prompts', makeAuth());
    await screen.findByText('Soporte nocturno');
    const socket = getSocket() as unknown as FakeSocket;

    act(() => {
      socket.receive('company-1-prompt', { action: 'create', prompt: sales });
    });
    await screen.findByText('Asistente de ventas');
    const names = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.querySelector('td')?.textContent);
    expect(names()).toEqual(['Asistente de ventas', 'Soporte nocturno']);

    // The provider works again: the warning goes.
    act(() => {
      socket.receive('company-1-prompt', {
        action: 'update',
        prompt: { ...support, lastError: null, maxTokens: 500 },
      });
    });
    const row = await rowOf('Soporte nocturno');
    await waitFor(() => expect(within(row).getByText('500')).toBeTruthy());
    expect(within(row).queryByRole('img', { name: /Último error/ })).toBeNull();

    act(() => {
      socket.receive('company-1-prompt', { action: 'delete', promptId: 1 });
    });
    await waitFor(() => expect(names()).toEqual(['Soporte nocturno']));
  });

  it('opens the sandbox of a row', async () => {
    stubApi({ 'GET /prompt': () => promptListOf([sales]) });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    await user.click(
      within(await rowOf('Asistente de ventas')).getByRole('button', {
        name: 'Abrir el sandbox de Asistente de ventas',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Sandbox: Asistente de ventas' });
    expect(within(dialog).getByRole('textbox', { name: 'Mensaje' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Enviar' })).toBeTruthy();
  });

  it('tells a non-admin the page is not for them', async () => {
    const fetchMock = stubApi({ 'GET /prompt': () => promptListOf([sales]) });
    renderPage(<PromptsPage />, '/prompts', makeAuth({ user: { profile: 'user' } }));

    expect(
      await screen.findByText('Solo los administradores pueden gestionar los agentes de IA.'),
    ).toBeTruthy();
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /prompt'))).toBe(false);
  });
});
