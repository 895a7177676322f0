import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/testing/render';
import { SiteHeader } from './site-header';

describe('SiteHeader', () => {
  it('has the logo linking home, the three links and a Sign In link', async () => {
    renderWithProviders(<SiteHeader />);
    const main = await screen.findByRole('navigation', { name: 'Main' });
    expect(screen.getByRole('link', { name: 'Finer Fitness' })).toHaveAttribute('href', '/');
    expect(within(main).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(main).getByRole('link', { name: 'Classes' })).toHaveAttribute('href', '/schedule');
    expect(within(main).getByRole('link', { name: 'Membership' })).toHaveAttribute('href', '/membership');
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
  });

  it('opens and closes the narrow-screen menu with its toggle', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SiteHeader />);
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    expect(toggle).toHaveAttribute('aria-controls', menu.id);
    expect(
      within(menu)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Home', 'Classes', 'Membership']);

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
  });

  it('closes the menu on Escape and gives focus back to the toggle', async () => {
    const user = userEvent.setup();
    renderWithProviders(<SiteHeader />);
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    await user.click(toggle);
    await user.tab();
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('closes the menu when one of its links navigates', async () => {
    const user = userEvent.setup();
    const { router } = renderWithProviders(<SiteHeader />);
    await user.click(await screen.findByRole('button', { name: 'Menu' }));
    await user.click(within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: 'Classes' }));
    expect(router.state.location.pathname).toBe('/schedule');
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('hides Sign In while the session is still being read', async () => {
    renderWithProviders(<SiteHeader authPending />);
    await screen.findByRole('navigation', { name: 'Main' });
    expect(screen.queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
  });
});
