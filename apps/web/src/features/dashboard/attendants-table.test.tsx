import { render, screen, within } from '@testing-library/react';
import type { DashboardAttendant } from '@atendi/shared';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../../test/test-providers';
import { AttendantsTable } from './attendants-table';

const attendants: DashboardAttendant[] = [
  {
    id: 1,
    name: 'Ana Gómez',
    rating: 2.5,
    avgSupportTime: 12,
    tickets: 12345,
    online: true,
    presence: 'online',
  },
  {
    id: 2,
    name: 'Bruno Díaz',
    rating: 0,
    avgSupportTime: null,
    tickets: 0,
    online: true,
    presence: 'away',
  },
];

describe('attendants table', () => {
  it('shows each attendant as a card on a phone, every figure named', () => {
    window.innerWidth = 390;
    render(
      <TestProviders>
        <AttendantsTable attendants={attendants} isUpdating={false} />
      </TestProviders>,
    );

    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: 'Agentes' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const ana = within(cards[0]!);
    expect(ana.getByText('Ana Gómez')).toBeTruthy();
    expect(ana.getByText('Tickets resueltos')).toBeTruthy();
    expect(ana.getByText('12.345')).toBeTruthy();
    expect(ana.getByText('En línea')).toBeTruthy();
    expect(within(cards[1]!).getByText('Ausente')).toBeTruthy();
  });

  it('keeps the table where there is room', () => {
    render(
      <TestProviders>
        <AttendantsTable attendants={attendants} isUpdating={false} />
      </TestProviders>,
    );
    expect(screen.getAllByRole('row')).toHaveLength(3);
    // Presence as the users list shows it: the coloured dot and its word.
    const bruno = screen.getByRole('row', { name: /Bruno Díaz/ });
    expect(within(bruno).getByText('Ausente')).toBeTruthy();
    expect(bruno.querySelector('[data-presence="away"]')).toBeTruthy();
  });
});
