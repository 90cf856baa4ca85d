import { within } from '@testing-library/react';

// A table's body as the text of each cell, row by row (the header row has no cells).
export const cellTextsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) =>
      within(row)
        .queryAllByRole('cell')
        .map((cell) => cell.textContent),
    )
    .filter((cells) => cells.length > 0);
