import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { estimateTokens, type SandboxChatResponse } from '@atendi/shared';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { makePrompt, makeSandboxResponse, promptListOf } from '../../test/prompts';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser, type User } from '../../test/user-event';
import { PromptsPage } from './prompts-page';

const agent = makePrompt({ id: 3, name: 'Pizzería', maxMessages: 8 });

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

// The sandbox of `agent`, answering each request with the next of `answers`.
const stubSandbox = (answers: (() => Response)[]) => {
  const sent: Record<string, unknown>[] = [];
  const fetchMock = stubApi({
    'GET /prompt': () => promptListOf([agent]),
    'POST /prompt/3/sandbox-chat': (init) => {
      sent.push(bodyOf(init));
      return answers[sent.length - 1]!();
    },
  });
  return { sent, fetchMock };
};

const answer = (response: Partial<SandboxChatResponse>) => () =>
  jsonResponse(200, makeSandboxResponse(response));

const openSandbox = async (user: User) => {
  await user.click(await screen.findByRole('button', { name: 'Abrir el sandbox de Pizzería' }));
  return screen.findByRole('dialog', { name: 'Sandbox: Pizzería' });
};

describe('sandbox chat', () => {
  it('sends with Ctrl+Enter, not with Enter, and shows what the agent made of the talk', async () => {
    const { sent } = stubSandbox([
      answer({
        text: 'Perfecto, Ana: dos pizzas margarita. ¿A qué dirección las enviamos?',
        final: false,
        sentiment: 'positivo',
        structured: {
          datos_cliente: {
            nombre: 'Ana López',
            telefono: '5215512345678',
            email: null,
            direccion: null,
          },
          datos_pedido: {
            productos: [{ nombre: 'Pizza margarita', cantidad: 2 }],
            total: 25.5,
            observaciones: 'Sin cebolla',
          },
        },
        tokens: { estimate: 61, usage: { prompt: 120, completion: 30, total: 150 } },
      }),
    ]);
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openSandbox(user);
    expect(within(dialog).getByText('Aún no hay respuestas del agente.')).toBeTruthy();
    const input = within(dialog).getByRole('textbox', { name: 'Mensaje' });
    await user.type(input, 'Hola, soy Ana{Enter}quiero dos pizzas margarita');
    // Enter wrote a new line; nothing went.
    expect(input).toHaveProperty('value', 'Hola, soy Ana\nquiero dos pizzas margarita');
    expect(sent).toEqual([]);

    await user.keyboard('{Control>}{Enter}{/Control}');
    const log = within(dialog).getByRole('log', { name: 'Conversación de prueba' });
    expect(
      await within(log).findByText(
        'Perfecto, Ana: dos pizzas margarita. ¿A qué dirección las enviamos?',
      ),
    ).toBeTruthy();
    expect(within(log).getByText(/quiero dos pizzas margarita/)).toBeTruthy();
    expect(input).toHaveProperty('value', '');
    expect(sent).toEqual([
      {
        turns: [{ role: 'user', content: 'Hola, soy Ana\nquiero dos pizzas margarita' }],
        maxMessages: 8,
      },
    ]);

    const analysis = within(dialog).getByRole('region', {
      name: 'Análisis de la última respuesta',
    });
    expect(within(analysis).getByText('En progreso')).toBeTruthy();
    expect(within(analysis).getByText('Positivo')).toBeTruthy();
    expect(within(analysis).getByText('Ana López')).toBeTruthy();
    expect(within(analysis).getByText('5215512345678')).toBeTruthy();
    const products = within(analysis).getByRole('table', { name: 'Productos del pedido' });
    const row = within(products).getByText('Pizza margarita').closest('tr')!;
    expect(within(row).getByText('2')).toBeTruthy();
    expect(within(analysis).getByText('25,5')).toBeTruthy();
    expect(within(analysis).getByText('Sin cebolla')).toBeTruthy();
    expect(
      within(analysis).getByText('Uso real: 120 de entrada, 30 de respuesta, 150 en total'),
    ).toBeTruthy();
  });

  it('shows the knowledge passages the agent was given, and which it cited', async () => {
    stubSandbox([
      answer({
        text: 'Puede devolverlo dentro de los 30 días.',
        knowledge: {
          passages: [
            {
              number: 1,
              chunkId: 11,
              documentId: 7,
              documentName: 'Política de devoluciones',
              page: 2,
              ordinal: 4,
              text: 'Los clientes pueden devolver cualquier producto dentro de los 30 días.',
              cited: true,
            },
            {
              number: 2,
              chunkId: 12,
              documentId: 8,
              documentName: 'Envíos',
              page: null,
              ordinal: 0,
              text: 'Enviamos a todo el país.',
              cited: false,
            },
          ],
        },
      }),
      answer({ text: 'Hola', knowledge: { passages: [] } }),
    ]);
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());
    const dialog = await openSandbox(user);
    const input = within(dialog).getByRole('textbox', { name: 'Mensaje' });
    await user.type(input, '¿Puedo devolver un producto?');
    await user.keyboard('{Control>}{Enter}{/Control}');
    const analysis = await within(dialog).findByRole('region', {
      name: 'Análisis de la última respuesta',
    });
    const cited = await within(analysis).findByRole('listitem', {
      name: 'Política de devoluciones',
    });
    expect(
      within(cited).getByText('[1] Política de devoluciones · pág. 2 · fragmento 5'),
    ).toBeTruthy();
    expect(within(cited).getByText('Citado')).toBeTruthy();
    const other = within(analysis).getByRole('listitem', { name: 'Envíos' });
    expect(within(other).queryByText('Citado')).toBeNull();
    expect(within(other).getByText('Enviamos a todo el país.')).toBeTruthy();

    await user.type(input, 'Hola');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(
      await within(analysis).findByText(
        'No encontró nada relevante: las preguntas sobre la empresa pasan a una persona.',
      ),
    ).toBeTruthy();
  });

  it('sends with Cmd+Enter too, and ignores an empty message', async () => {
    const { sent } = stubSandbox([answer({ text: '¡Hola! ¿Qué desea?' })]);
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openSandbox(user);
    const input = within(dialog).getByRole('textbox', { name: 'Mensaje' });
    const send = within(dialog).getByRole('button', { name: 'Enviar' });
    expect(send).toHaveProperty('disabled', true);
    await user.type(input, '   ');
    expect(send).toHaveProperty('disabled', true);
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(sent).toEqual([]);
    expect(within(dialog).getByText(/Escriba como lo haría un cliente/)).toBeTruthy();

    // A shorter window than the agent's own, for this test only.
    await refill(user, within(dialog).getByRole('textbox', { name: 'Ventana de contexto' }), '3');
    await user.clear(input);
    await user.type(input, 'Hola');
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    expect(await within(dialog).findByText('¡Hola! ¿Qué desea?')).toBeTruthy();
    expect(sent).toEqual([{ turns: [{ role: 'user', content: 'Hola' }], maxMessages: 3 }]);
  });

  it('estimates the tokens as one types, and sends the whole conversation each time', async () => {
    const { sent } = stubSandbox([
      answer({ text: '¿Cuántas pizzas?' }),
      answer({
        text: 'Listo, su pedido va en camino.',
        final: true,
        sentiment: 'neutral',
        handoff: {
          queue: 'Ventas',
          reason: 'Pidió factura',
          message: 'Le paso con una persona del equipo',
        },
      }),
    ]);
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openSandbox(user);
    const estimateText = (texts: string[]) =>
      `Tokens estimados del próximo envío: ~${estimateTokens([agent.prompt, ...texts])} (aproximado)`;
    expect(within(dialog).getByText(estimateText([]))).toBeTruthy();
    const input = within(dialog).getByRole('textbox', { name: 'Mensaje' });
    await fill(user, input, 'Quiero pizza');
    expect(within(dialog).getByText(estimateText(['Quiero pizza']))).toBeTruthy();

    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Nombre del contacto (opcional)' }),
      'Ana',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await within(dialog).findByText('¿Cuántas pizzas?');
    await fill(user, input, 'Dos');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));

    const analysis = within(dialog).getByRole('region', {
      name: 'Análisis de la última respuesta',
    });
    expect(await within(analysis).findByText('Final')).toBeTruthy();
    expect(within(analysis).getByText('Neutral')).toBeTruthy();
    expect(
      within(analysis).getByText('Transferido a una persona: Ventas — Pidió factura'),
    ).toBeTruthy();
    expect(within(analysis).getByText('El proveedor no informó el uso real.')).toBeTruthy();
    // The conversation shows the hand-off message the contact would get, after the answer.
    const answerTurn = within(dialog).getByText('Listo, su pedido va en camino.');
    const handoffTurn = within(dialog).getByText('Le paso con una persona del equipo');
    expect(
      answerTurn.compareDocumentPosition(handoffTurn) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(sent[1]).toEqual({
      turns: [
        { role: 'user', content: 'Quiero pizza' },
        { role: 'assistant', content: '¿Cuántas pizzas?' },
        { role: 'user', content: 'Dos' },
      ],
      maxMessages: 8,
      contactName: 'Ana',
    });
  });

  it('shows a provider failure and gives the message back to send again', async () => {
    const { sent } = stubSandbox([
      () =>
        jsonResponse(400, {
          error: 'ERR_AI_NOT_CONFIGURED',
          message: 'No AI provider is configured',
        }),
      answer({ text: 'Ahora sí, ¡hola!' }),
    ]);
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openSandbox(user);
    const input = within(dialog).getByRole('textbox', { name: 'Mensaje' });
    await fill(user, input, 'Hola');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));

    expect(
      await within(dialog).findByText(
        'No hay un proveedor de IA configurado. Configúrelo en Agentes de IA › Proveedor de IA.',
      ),
    ).toBeTruthy();
    expect(input).toHaveProperty('value', 'Hola');
    expect(within(dialog).getByText(/Escriba como lo haría un cliente/)).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await within(dialog).findByText('Ahora sí, ¡hola!')).toBeTruthy();
    expect(sent[1]).toMatchObject({ turns: [{ role: 'user', content: 'Hola' }] });
  });

  it('starts over with "reset conversation"', async () => {
    const { sent, fetchMock } = stubSandbox([
      answer({ text: 'Hola, ¿qué desea?', sentiment: 'negativo' }),
      answer({ text: 'Bienvenido de nuevo' }),
    ]);
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openSandbox(user);
    const input = within(dialog).getByRole('textbox', { name: 'Mensaje' });
    await fill(user, input, 'Hola');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await within(dialog).findByText('Negativo')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Reiniciar conversación' }));
    expect(within(dialog).queryByText('Hola, ¿qué desea?')).toBeNull();
    expect(within(dialog).queryByText('Negativo')).toBeNull();

    await fill(user, input, 'Otra vez');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await within(dialog).findByText('Bienvenido de nuevo');
    expect(sent[1]).toMatchObject({ turns: [{ role: 'user', content: 'Otra vez' }] });
    await waitFor(() =>
      expect(callsOf(fetchMock).filter((call) => call.includes('sandbox-chat'))).toHaveLength(2),
    );
  });
});
