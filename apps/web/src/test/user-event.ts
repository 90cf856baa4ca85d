import { waitFor } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { expect } from 'vitest';

// jsdom needs no pause between simulated events, and one pointer-events check per element is
// enough: each check reads the computed style of the element and all its ancestors.
export const setupUser = (options: Parameters<typeof userEvent.setup>[0] = {}) =>
  userEvent.setup({
    delay: null,
    pointerEventsCheck: PointerEventsCheckLevel.EachTarget,
    ...options,
  });

export type User = ReturnType<typeof setupUser>;

// Key-by-key typing is tested where it matters (hour masks, debounced searches); elsewhere paste.
export const fill = async (user: User, field: HTMLElement, text: string) => {
  await user.click(field);
  await user.paste(text);
};

// Replaces what a field holds.
export const refill = async (user: User, field: HTMLElement, text: string) => {
  await user.clear(field);
  await user.paste(text);
};

// Clicks a form's submit button and waits for the submission to end: the forms disable it while
// their handler runs (react-hook-form's isSubmitting), so whatever the handler sends has gone by then.
export const submitAndSettle = async (user: User, button: HTMLElement) => {
  await user.click(button);
  await waitFor(() => expect(button).toHaveProperty('disabled', false));
};
