// SPEC §9: forms send 400 ms after the click; schedule, company, plan and help forms 500 ms.
/** @public read by a test through vi.importActual, which knip cannot follow */
export const FORM_SUBMIT_DELAY_MS = 400;
export const ADMIN_FORM_SUBMIT_DELAY_MS = 500;

export const waitBeforeSubmit = (delayMs = FORM_SUBMIT_DELAY_MS) =>
  new Promise<void>((resolve) => setTimeout(resolve, delayMs));
