import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderApp } from '@/testing/render';

async function renderHome() {
  renderApp('/');
  return screen.findByRole('heading', { level: 1, name: 'Mind and body transformation starts here' });
}

describe('HomePage', () => {
  it('has the hero with the 100+ transformations claim and a link to the free trial', async () => {
    const h1 = await renderHome();
    const hero = h1.closest('section')!;
    expect(hero).toHaveTextContent('100+transformations');
    expect(within(hero).getByRole('link', { name: 'Book your first class free' })).toHaveAttribute('href', '/free-trial');
  });

  it('shows the four value cards', async () => {
    await renderHome();
    const values = screen.getByRole('region', { name: 'Coaching for the body and the mind' });
    expect(
      within(values)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Train with Purpose', 'Mentality Mentors', 'Priority Access', 'Real Results']);
  });

  it('links the Classes card to /schedule and the Membership card to /membership', async () => {
    await renderHome();
    const cards = screen.getByRole('region', { name: 'Classes and membership' });
    expect(within(cards).getByRole('heading', { name: 'Classes' })).toBeInTheDocument();
    expect(within(cards).getByRole('link', { name: 'View Schedule' })).toHaveAttribute('href', '/schedule');
    expect(within(cards).getByRole('heading', { name: 'Membership' })).toBeInTheDocument();
    expect(within(cards).getByRole('link', { name: 'Explore Memberships' })).toHaveAttribute('href', '/membership');
  });

  it('shows the six gallery photos with their captions, lazy-loaded, sized and described', async () => {
    await renderHome();
    const gallery = screen.getByRole('region', { name: 'Life at Finer Fitness' });
    const figures = within(gallery).getAllByRole('figure');
    expect(figures.map((f) => f.querySelector('figcaption')?.textContent)).toEqual([
      'Weight Training',
      'Personal Training',
      'Community Moments',
      'Outdoor Experiences',
      'Female Sessions',
      'Coaching in Action',
    ]);
    for (const figure of figures) {
      // Focusable so keyboard users get the same zoom and caption as a hover.
      expect(figure).toHaveAttribute('tabindex', '0');
      const img = within(figure).getByRole('img');
      expect(img).toHaveAttribute('loading', 'lazy');
      expect(img).toHaveAttribute('width', '960');
      expect(img).toHaveAttribute('height', '720');
      expect(img.getAttribute('alt')).not.toBe('');
      expect(img.getAttribute('src')).toMatch(/^\/images\/gallery\/[a-z-]+-960\.webp$/);
    }
  });

  it('closes with Stronger. Sharper. Finer. and another way to the free trial', async () => {
    await renderHome();
    const closing = screen.getByRole('region', { name: 'Stronger. Sharper. Finer.' });
    expect(within(closing).getByRole('link', { name: 'Book your free class' })).toHaveAttribute('href', '/free-trial');
    // The trial is one free class, never "a free 7-day trial" (src/config/trial.ts): nowhere on the page.
    expect(within(closing).getByText(/Your first class is free: book it within 7 days of signing up\./)).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/7-day trial/);
  });
});
