import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser } from '../../test/user-event';
import type { Todo } from './todos';
import { TodoListPage } from './todolist-page';

const stored = () => JSON.parse(window.localStorage.getItem('todos') ?? '[]') as Todo[];

const at = (day: number, hour: number, minute: number) =>
  new Date(2025, 1, day, hour, minute).toISOString();

const seed = (todos: Todo[]) => window.localStorage.setItem('todos', JSON.stringify(todos));

const itemOf = async (text: string) => (await screen.findByText(text)).closest('li')!;

describe('to-do list page', () => {
  beforeEach(() => {
    // Only the clock is frozen; timers keep running for the page and the user events.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 10, 9, 5));
    stubApi({});
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('adds a task with its created and updated times and keeps it in the browser', async () => {
    const user = setupUser();
    renderPage(<TodoListPage />, '/todolist', makeAuth());

    expect(
      await screen.findByText('Aún no hay tareas. Escriba una arriba y pulse «Agregar».'),
    ).toBeTruthy();
    await fill(user, screen.getByRole('textbox', { name: 'Nueva tarea' }), '  Llamar a Juan  ');
    await user.click(screen.getByRole('button', { name: 'Agregar' }));

    const item = await itemOf('Llamar a Juan');
    expect(within(item).getByText('Creada: 10/03/2025 09:05')).toBeTruthy();
    expect(within(item).getByText('Actualizada: 10/03/2025 09:05')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Nueva tarea' }) as HTMLInputElement).value).toBe(
      '',
    );
    expect(stored().map((todo) => todo.text)).toEqual(['Llamar a Juan']);
  });

  it('ignores empty and whitespace-only text', async () => {
    const user = setupUser();
    renderPage(<TodoListPage />, '/todolist', makeAuth());
    const input = await screen.findByRole('textbox', { name: 'Nueva tarea' });

    await user.click(screen.getByRole('button', { name: 'Agregar' }));
    await fill(user, input, '   ');
    await user.keyboard('{Enter}');

    expect(
      screen.getByText('Aún no hay tareas. Escriba una arriba y pulse «Agregar».'),
    ).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Tareas' })).toBeNull();
    expect(window.localStorage.getItem('todos')).toBeNull();
  });

  it('shows the tasks saved earlier', async () => {
    seed([{ id: 'a', text: 'Revisar pedidos', createdAt: at(1, 8, 0), updatedAt: at(2, 17, 45) }]);
    renderPage(<TodoListPage />, '/todolist', makeAuth());

    const item = await itemOf('Revisar pedidos');
    expect(within(item).getByText('Creada: 01/02/2025 08:00')).toBeTruthy();
    expect(within(item).getByText('Actualizada: 02/02/2025 17:45')).toBeTruthy();
  });

  it('edits a task: its text goes back to the input and saving replaces it', async () => {
    seed([
      { id: 'a', text: 'Revisar pedidos', createdAt: at(1, 8, 0), updatedAt: at(1, 8, 0) },
      { id: 'b', text: 'Enviar factura', createdAt: at(1, 9, 0), updatedAt: at(1, 9, 0) },
    ]);
    const user = setupUser();
    renderPage(<TodoListPage />, '/todolist', makeAuth());

    await user.click(
      within(await itemOf('Revisar pedidos')).getByRole('button', {
        name: 'Editar tarea Revisar pedidos',
      }),
    );
    const input = screen.getByRole('textbox', { name: 'Nueva tarea' }) as HTMLInputElement;
    expect(input.value).toBe('Revisar pedidos');
    await refill(user, input, 'Revisar pedidos urgentes');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));

    const item = await itemOf('Revisar pedidos urgentes');
    expect(within(item).getByText('Creada: 01/02/2025 08:00')).toBeTruthy();
    expect(within(item).getByText('Actualizada: 10/03/2025 09:05')).toBeTruthy();
    expect(screen.queryByText('Revisar pedidos')).toBeNull();
    expect(stored().map((todo) => todo.text)).toEqual([
      'Revisar pedidos urgentes',
      'Enviar factura',
    ]);
    expect(input.value).toBe('');
    expect(screen.getByRole('button', { name: 'Agregar' })).toBeTruthy();
  });

  it('removes a task', async () => {
    seed([
      { id: 'a', text: 'Revisar pedidos', createdAt: at(1, 8, 0), updatedAt: at(1, 8, 0) },
      { id: 'b', text: 'Enviar factura', createdAt: at(1, 9, 0), updatedAt: at(1, 9, 0) },
    ]);
    const user = setupUser();
    renderPage(<TodoListPage />, '/todolist', makeAuth());

    await user.click(
      within(await itemOf('Enviar factura')).getByRole('button', {
        name: 'Eliminar tarea Enviar factura',
      }),
    );

    expect(screen.queryByText('Enviar factura')).toBeNull();
    expect(screen.getByText('Revisar pedidos')).toBeTruthy();
    expect(stored().map((todo) => todo.id)).toEqual(['a']);
  });

  it('starts empty when the stored list is damaged', async () => {
    window.localStorage.setItem('todos', '{not json');
    renderPage(<TodoListPage />, '/todolist', makeAuth());

    expect(
      await screen.findByText('Aún no hay tareas. Escriba una arriba y pulse «Agregar».'),
    ).toBeTruthy();
  });
});
