// SPEC §9: company, plan, help and schedule forms submit 500 ms after the click.
export const FORM_SUBMIT_DELAY_MS = 500;

export const waitBeforeSubmit = () =>
  new Promise<void>((resolve) => setTimeout(resolve, FORM_SUBMIT_DELAY_MS));
