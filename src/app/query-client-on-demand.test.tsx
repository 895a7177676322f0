import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getAppQueryClient } from '@/lib/app-query-client';
import { makeScheduleClass, scheduleHandler } from '@/testing/schedule-mocks';
import { server } from '@/testing/mocks/server';
import { renderAppWithoutQueryClient } from '@/testing/render';

// The app as the browser starts it: no query client handed in (renderApp hands one to every other test).
describe('the query client on demand', () => {
  it('is not created on the home page, and arrives with the schedule, which then shows its classes', async () => {
    server.use(scheduleHandler(() => [makeScheduleClass({ name: 'Sunrise Flow' })]));
    renderAppWithoutQueryClient('/');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(getAppQueryClient()).toBeUndefined();

    await userEvent.click(screen.getAllByRole('link', { name: 'Classes' })[0]!);
    expect(await screen.findByText('Sunrise Flow')).toBeInTheDocument();
    expect(getAppQueryClient()).toBeDefined();
  });
});
