import { readStorage, storageKeys, writeStorage } from '../../lib/storage';

// SPEC §2 To-do list: kept only in this browser, never sent to the API.
export type Todo = { id: string; text: string; createdAt: string; updatedAt: string };

const isTodo = (value: unknown): value is Todo => {
  if (typeof value !== 'object' || value === null) return false;
  const todo = value as Record<string, unknown>;
  return (
    typeof todo.id === 'string' &&
    typeof todo.text === 'string' &&
    typeof todo.createdAt === 'string' &&
    typeof todo.updatedAt === 'string'
  );
};

// A damaged or foreign value starts an empty list rather than breaking the page.
export const loadTodos = (): Todo[] => {
  const stored = readStorage(storageKeys.todos);
  if (!stored) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter(isTodo) : [];
  } catch {
    return [];
  }
};

export const saveTodos = (todos: Todo[]) => writeStorage(storageKeys.todos, JSON.stringify(todos));

const newId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

export const addTodo = (todos: Todo[], text: string, now = new Date()): Todo[] => {
  const at = now.toISOString();
  return [...todos, { id: newId(), text, createdAt: at, updatedAt: at }];
};

export const replaceTodo = (todos: Todo[], id: string, text: string, now = new Date()): Todo[] =>
  todos.map((todo) => (todo.id === id ? { ...todo, text, updatedAt: now.toISOString() } : todo));

export const removeTodo = (todos: Todo[], id: string): Todo[] =>
  todos.filter((todo) => todo.id !== id);
