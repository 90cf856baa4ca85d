import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PROMPT_MODELS, type KnowledgeDocument } from '@atendi/shared';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { makePrompt, promptListOf } from '../../test/prompts';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser, type User } from '../../test/user-event';
import { PromptsPage } from './prompts-page';

const queues = [
  { id: 2, name: 'Ventas', color: '#43a047' },
  { id: 3, name: 'Soporte', color: '#e53935' },
];

const instructions =
  'Eres el asistente de ventas de Acme. Toma los pedidos y pasa las quejas a una persona.';

const knowledgeDoc: KnowledgeDocument = {
  id: 1,
  name: 'Documento',
  source: 'upload',
  kind: 'txt',
  fileListId: null,
  size: 2048,
  status: 'ready',
  progress: 100,
  error: null,
  chunks: 3,
  embeddingModel: 'text-embedding-3-small',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  createdBy: null,
};

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

const openAddDialog = async (user: User) => {
  await user.click(await screen.findByRole('button', { name: 'Agregar agente' }));
  return screen.findByRole('dialog', { name: 'Agregar agente de IA' });
};

describe('prompt dialog', () => {
  it('creates an agent with the SPEC defaults', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /prompt': () => promptListOf([]),
      'GET /queue': () => jsonResponse(200, queues),
      'POST /prompt': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makePrompt({ id: 9, name: 'Asistente Acme' }));
      },
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openAddDialog(user);
    expect(within(dialog).getByRole('combobox', { name: 'Modelo' })).toHaveProperty(
      'value',
      'gpt-3.5-turbo-1106',
    );
    expect(
      within(dialog).getByRole('textbox', { name: 'Máximo de tokens por respuesta' }),
    ).toHaveProperty('value', '100');
    expect(within(dialog).getByRole('textbox', { name: 'Mensajes de contexto' })).toHaveProperty(
      'value',
      '10',
    );
    expect(within(dialog).getByRole('slider', { name: 'Temperatura' })).toHaveProperty(
      'value',
      '1',
    );
    expect(within(dialog).getByRole('combobox', { name: 'Cola' }).textContent).toBe('Ninguna');
    // What the contact is told when the agent passes the conversation to a person.
    expect(
      within(dialog).getByRole('textbox', { name: 'Mensaje al pasar a una persona' }),
    ).toHaveProperty('value', 'Le paso con una persona del equipo');

    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Asistente Acme');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Instrucciones (prompt)' }),
      instructions,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Agente guardado.')).toBeTruthy();
    expect(sent).toEqual({
      name: 'Asistente Acme',
      prompt: instructions,
      model: 'gpt-3.5-turbo-1106',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      queueId: null,
      handoffMessage: 'Le paso con una persona del equipo',
      knowledge: 'none',
      knowledgeDocumentIds: [],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The new agent joins the list without waiting for the live event.
    expect(await screen.findByText('Asistente Acme')).toBeTruthy();
  });

  it('names each field a save refuses and sends nothing', async () => {
    const fetchMock = stubApi({
      'GET /prompt': () => promptListOf([]),
      'GET /queue': () => jsonResponse(200, queues),
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openAddDialog(user);
    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    const prompt = within(dialog).getByRole('textbox', { name: 'Instrucciones (prompt)' });
    const maxTokens = within(dialog).getByRole('textbox', {
      name: 'Máximo de tokens por respuesta',
    });
    const model = within(dialog).getByRole('combobox', { name: 'Modelo' });
    await fill(user, name, 'Ana');
    await fill(user, prompt, 'Responde a los clientes.');
    await refill(user, maxTokens, '0');
    await refill(user, model, 'gpt 4o');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    const describedBy = (field: HTMLElement) =>
      document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;
    await waitFor(() => expect(describedBy(name)).toBe('Debe tener entre 5 y 100 caracteres'));
    expect(describedBy(prompt)).toBe('Escriba al menos 50 caracteres');
    expect(describedBy(maxTokens)).toBe('Use un número entero de 1 a 32000');
    expect(describedBy(model)).toBe('Solo letras, números y . : / @ - _ (máximo 100)');

    await user.clear(name);
    await waitFor(() => expect(describedBy(name)).toBe('Campo obligatorio'));
    expect(callsOf(fetchMock).some((call) => call.startsWith('POST'))).toBe(false);
  });

  it('edits an agent: a model its provider lists, a queue and a lower temperature', async () => {
    let sent: Record<string, unknown> | undefined;
    const saved = makePrompt({ id: 4, name: 'Asistente de ventas' });
    stubApi({
      'GET /prompt': () => promptListOf([saved]),
      'GET /queue': () => jsonResponse(200, queues),
      'GET /ai-provider/models': () => jsonResponse(200, { models: ['llama3.1:8b'] }),
      'PUT /prompt/4': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, { ...saved, model: 'llama3.1:8b', queueId: 3 });
      },
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    await user.click(
      await screen.findByRole('button', { name: 'Editar el agente Asistente de ventas' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Editar agente de IA' });
    expect(within(dialog).getByRole('textbox', { name: 'Instrucciones (prompt)' })).toHaveProperty(
      'value',
      saved.prompt,
    );

    // The suggestions: SPEC §9's models, then what the company's provider lists.
    const model = within(dialog).getByRole('combobox', { name: 'Modelo' });
    await user.clear(model);
    await user.click(model);
    const listbox = await screen.findByRole('listbox');
    const offered = within(listbox)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(offered).toEqual([...PROMPT_MODELS, 'llama3.1:8b']);
    expect(within(listbox).getByText('De su proveedor')).toBeTruthy();
    await user.click(within(listbox).getByRole('option', { name: 'llama3.1:8b' }));

    await user.click(within(dialog).getByRole('combobox', { name: 'Cola' }));
    await user.click(await screen.findByRole('option', { name: 'Soporte' }));
    const slider = within(dialog).getByRole('slider', { name: 'Temperatura' });
    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Agente guardado.')).toBeTruthy();
    expect(sent).toMatchObject({ model: 'llama3.1:8b', queueId: 3, temperature: 0.8 });
  });

  it('answers from chosen documents of the knowledge base, or from all of them', async () => {
    const sent: Record<string, unknown>[] = [];
    const saved = makePrompt({
      id: 4,
      name: 'Asistente de ventas',
      knowledge: 'selected',
      knowledgeDocuments: [{ id: 7, name: 'Política de devoluciones' }],
    });
    stubApi({
      'GET /prompt': () => promptListOf([saved]),
      'GET /queue': () => jsonResponse(200, queues),
      'GET /knowledge/documents': () =>
        jsonResponse(200, {
          documents: [
            { ...knowledgeDoc, id: 7, name: 'Política de devoluciones' },
            { ...knowledgeDoc, id: 8, name: 'Envíos' },
          ],
        }),
      'PUT /prompt/4': (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(200, saved);
      },
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());
    const edit = async () => {
      await user.click(
        await screen.findByRole('button', { name: 'Editar el agente Asistente de ventas' }),
      );
      return screen.findByRole('dialog', { name: 'Editar agente de IA' });
    };

    let dialog = await edit();
    expect(within(dialog).getByRole('combobox', { name: 'Base de conocimiento' }).textContent).toBe(
      'Documentos elegidos',
    );
    const documents = within(dialog).getByRole('combobox', { name: 'Documentos' });
    expect(within(dialog).getByRole('button', { name: 'Política de devoluciones' })).toBeTruthy();
    await user.click(documents);
    await user.click(await screen.findByRole('option', { name: 'Envíos' }));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Agente guardado.')).toBeTruthy();
    expect(sent[0]).toMatchObject({ knowledge: 'selected', knowledgeDocumentIds: [7, 8] });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Every document: none is sent, and the documents field goes away.
    dialog = await edit();
    await user.click(within(dialog).getByRole('combobox', { name: 'Base de conocimiento' }));
    await user.click(await screen.findByRole('option', { name: 'Todos los documentos' }));
    expect(within(dialog).queryByRole('combobox', { name: 'Documentos' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toMatchObject({ knowledge: 'all', knowledgeDocumentIds: [] });
  });

  it('changes the hand-off message, or empties it so the contact is told nothing', async () => {
    const sent: Record<string, unknown>[] = [];
    const saved = makePrompt({ id: 4, name: 'Asistente de ventas' });
    stubApi({
      'GET /prompt': () => promptListOf([saved]),
      'GET /queue': () => jsonResponse(200, queues),
      'GET /ai-provider/models': () => jsonResponse(200, { models: [] }),
      'PUT /prompt/4': (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(200, { ...saved, handoffMessage: sent.at(-1)!.handoffMessage });
      },
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const edit = async () => {
      await user.click(
        await screen.findByRole('button', { name: 'Editar el agente Asistente de ventas' }),
      );
      const dialog = await screen.findByRole('dialog', { name: 'Editar agente de IA' });
      return {
        dialog,
        field: within(dialog).getByRole('textbox', { name: 'Mensaje al pasar a una persona' }),
      };
    };
    let { dialog, field } = await edit();
    expect(field).toHaveProperty('value', 'Le paso con una persona del equipo');
    await refill(user, field, 'Un asesor le escribirá en unos minutos, {{firstName}}.');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent[0]).toMatchObject({
      handoffMessage: 'Un asesor le escribirá en unos minutos, {{firstName}}.',
    });

    ({ dialog, field } = await edit());
    await user.clear(field);
    // Empty is allowed: nothing is sent to the contact.
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent[1]).toMatchObject({ handoffMessage: '' });
  });

  it('takes a model name typed by hand', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      'GET /prompt': () => promptListOf([]),
      'GET /queue': () => jsonResponse(200, queues),
      'POST /prompt': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makePrompt({ id: 9, model: 'openrouter/mistral-7b' }));
      },
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openAddDialog(user);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Asistente Acme');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Instrucciones (prompt)' }),
      instructions,
    );
    await refill(
      user,
      within(dialog).getByRole('combobox', { name: 'Modelo' }),
      'openrouter/mistral-7b',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(await screen.findByText('Agente guardado.')).toBeTruthy();
    expect(sent).toMatchObject({ model: 'openrouter/mistral-7b' });
  });

  it('says the plan allows no more agents, and keeps what was typed', async () => {
    stubApi({
      'GET /prompt': () => promptListOf([makePrompt()]),
      'GET /queue': () => jsonResponse(200, queues),
      'POST /prompt': () =>
        jsonResponse(403, {
          error: 'ERR_PLAN_LIMIT_AI_AGENTS',
          message: 'The plan allows at most 1 AI agents',
        }),
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openAddDialog(user);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Segundo agente');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Instrucciones (prompt)' }),
      instructions,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    expect(
      await screen.findByText(
        'Su plan no permite más agentes de IA. Elimine uno o cambie a un plan con más agentes.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: 'Nombre' })).toHaveProperty(
      'value',
      'Segundo agente',
    );
  });

  it('shows a queue the API refused on the queue field', async () => {
    stubApi({
      'GET /prompt': () => promptListOf([]),
      'GET /queue': () => jsonResponse(200, queues),
      'POST /prompt': () =>
        jsonResponse(400, {
          error: 'ERR_VALIDATION',
          message: 'No such queue',
          fields: { queueId: ['ERR_NO_QUEUE_FOUND'] },
        }),
    });
    const user = setupUser();
    renderPage(<PromptsPage />, '/prompts', makeAuth());

    const dialog = await openAddDialog(user);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Asistente Acme');
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Instrucciones (prompt)' }),
      instructions,
    );
    const queue = within(dialog).getByRole('combobox', { name: 'Cola' });
    await user.click(queue);
    await user.click(await screen.findByRole('option', { name: 'Ventas' }));
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));

    const message = await within(dialog).findByText('Cola no encontrada');
    expect(message.id).toBe(queue.getAttribute('aria-describedby'));
    expect(screen.getByRole('dialog', { name: 'Agregar agente de IA' })).toBeTruthy();
  });
});
