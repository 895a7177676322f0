import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { InstallOffer } from './install-offer';

describe('the install offer', () => {
  it("is a labelled dialog offering the browser's install prompt, or not now", async () => {
    const onInstall = vi.fn();
    const onDismiss = vi.fn();
    render(<InstallOffer route="prompt" onInstall={onInstall} onDismiss={onDismiss} />);
    const dialog = screen.getByRole('dialog', { name: 'Add Finer Fitness to your home screen' });
    expect(dialog).toHaveAccessibleDescription(/even without signal/);
    await userEvent.click(screen.getByRole('button', { name: 'Install app' }));
    expect(onInstall).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onDismiss).toHaveBeenCalledTimes(2);
  });

  it('on iOS, says how to Add to Home Screen from the Share menu', async () => {
    const onDismiss = vi.fn();
    render(<InstallOffer route="ios" onInstall={vi.fn()} onDismiss={onDismiss} />);
    const steps = screen.getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual(["1. Tap  Share in the browser's toolbar.", '2. Choose  Add to Home Screen.']);
    expect(screen.queryByRole('button', { name: 'Install app' })).not.toBeInTheDocument();
    await userEvent.keyboard('{Tab}');
    await userEvent.keyboard('{Escape}');
    expect(onDismiss).toHaveBeenCalledOnce();
  });
});
