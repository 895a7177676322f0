import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeClass } from '@/testing/supabase-mocks';
import { ClassesTable } from './classes-table';

// The admin lists are one table at every width, each row a card below `lg` by CSS alone.
// What the CSS reads must agree with the table: a card labels each fact with its column's name.

describe('CardTable (Classes Management)', () => {
  const full = makeClass({ name: 'PT Session', type: 'One-to-One', start_time: '2030-07-01T05:00:00+00:00', capacity: 1, spots_left: 0 });

  function renderTable() {
    const handlers = { onEdit: vi.fn(), onDelete: vi.fn(), onRoster: vi.fn() };
    render(<ClassesTable classes={[makeClass({ name: 'Breakfast Club', start_time: '2030-01-07T06:00:00+00:00' }), full]} {...handlers} />);
    return handlers;
  }

  it('labels each fact of a card with its column’s heading, and keeps one table, row and button per class', () => {
    renderTable();
    expect(screen.getAllByRole('table')).toHaveLength(1);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      within(row)
        .getAllByRole('cell')
        .forEach((cell, column) => {
          const label = cell.getAttribute('data-label');
          // The first cell is the card's title and the last its buttons: no label on a card.
          if (column === 0 || column === headers.length - 1) expect(label).toBeNull();
          else expect(label).toBe(headers[column]);
        });
    }
    // Each action once, by the name it has always had.
    for (const verb of ['Roster for', 'Edit', 'Delete']) {
      expect(screen.getAllByRole('button', { name: `${verb} PT Session on 1 Jul 2030 at 6:00 AM` })).toHaveLength(1);
    }
  });

  it('reaches every action of a card from the keyboard, in reading order', async () => {
    const { onRoster, onEdit, onDelete } = renderTable();
    const user = userEvent.setup();
    const row = screen.getAllByRole('row')[2]!;
    const buttons = within(row).getAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Roster for PT Session on 1 Jul 2030 at 6:00 AM',
      'Edit PT Session on 1 Jul 2030 at 6:00 AM',
      'Delete PT Session on 1 Jul 2030 at 6:00 AM',
    ]);
    // The word beside each icon, which a card shows (the table shows the icon alone).
    expect(buttons.map((b) => b.textContent)).toEqual(['Roster', 'Edit', 'Delete']);
    buttons[0]!.focus();
    await user.keyboard('{Enter}');
    await user.tab();
    await user.keyboard('{Enter}');
    await user.tab();
    await user.keyboard(' ');
    expect(onRoster).toHaveBeenCalledWith(full);
    expect(onEdit).toHaveBeenCalledWith(full);
    expect(onDelete).toHaveBeenCalledWith(full);
  });
});
