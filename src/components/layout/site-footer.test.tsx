import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/testing/render';
import { STUDIO } from '@/config/studio';
import { SiteFooter } from './site-footer';

describe('SiteFooter', () => {
  it('links to the social networks, a chat with the studio number and a mailto', async () => {
    renderWithProviders(<SiteFooter />);
    const social = await screen.findByRole('list', { name: 'Social links' });
    const links = within(social).getAllByRole('link');
    expect(links).toHaveLength(5);
    expect(screen.getByRole('link', { name: /facebook/i })).toHaveAttribute('href', STUDIO.social.facebook);
    expect(screen.getByRole('link', { name: /instagram/i })).toHaveAttribute('href', STUDIO.social.instagram);
    expect(screen.getByRole('link', { name: /tiktok/i })).toHaveAttribute('href', STUDIO.social.tiktok);
    expect(screen.getByRole('link', { name: /whatsapp/i })).toHaveAttribute('href', 'https://wa.me/447700900123');
    expect(within(social).getByRole('link', { name: /email us/i })).toHaveAttribute('href', 'mailto:hello@finerfitness.example');
  });

  it('has Quick Links to Home, Classes and Membership', async () => {
    renderWithProviders(<SiteFooter />);
    const quick = await screen.findByRole('navigation', { name: 'Quick Links' });
    const hrefs = within(quick)
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(hrefs).toEqual([
      ['Home', '/'],
      ['Classes', '/schedule'],
      ['Membership', '/membership'],
    ]);
  });

  it("links Privacy, Terms and Cookies to the studio's published documents", async () => {
    renderWithProviders(<SiteFooter />);
    const legal = await screen.findByRole('list', { name: 'Legal' });
    const hrefs = within(legal)
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);
    expect(hrefs).toEqual([
      ['Privacy', '/legal/privacy'],
      ['Terms', '/legal/terms'],
      ['Cookies', '/legal/cookies'],
    ]);
  });

  it('shows the address, the platform description and the copyright line', async () => {
    renderWithProviders(<SiteFooter />);
    expect(await screen.findByText('© 2025 Finer Fitness. All rights reserved.')).toBeInTheDocument();
    expect(screen.getByText(/fitness booking platform/)).toBeInTheDocument();
    const address = screen.getByText(STUDIO.hall).closest('address');
    expect(address).toHaveTextContent(`${STUDIO.hall}${STUDIO.street}London E8 0XXUnited Kingdom`);
  });
});
