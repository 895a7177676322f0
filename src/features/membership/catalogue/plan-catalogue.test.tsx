import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/render';

async function renderCatalogue() {
  renderApp('/membership');
  await screen.findByRole('heading', { level: 1, name: 'Membership' });
  return screen.getByRole('region', { name: 'Plans and prices' });
}

function planCard(name: string) {
  return screen.getByRole('article', { name });
}

describe('PlanCatalogue', () => {
  it('shows every membership with its price and benefits on the Memberships tab', async () => {
    await renderCatalogue();
    expect(screen.getByRole('tab', { name: 'Memberships' })).toHaveAttribute('aria-selected', 'true');

    const standard = planCard('Standard');
    expect(standard).toHaveTextContent('£100/month');
    expect(standard).toHaveTextContent('12 classes per month');
    expect(standard).toHaveTextContent('£8.33 per class');

    const platinum = planCard('Platinum Premium');
    expect(platinum).toHaveTextContent('£165/month');
    for (const benefit of [
      '20 classes per month',
      'One 1-to-1 session (worth £115)',
      '2 guest passes (worth £15)',
      'Priority and early booking',
    ]) {
      expect(within(platinum).getByText(benefit)).toBeInTheDocument();
    }

    const student = planCard('Student / Hackney Worker');
    expect(student).toHaveTextContent('from£70/month');
    expect(student).toHaveTextContent('£115.50/month on Premium');
    expect(student).toHaveTextContent('£148.50/month on Premium');
    expect(student).toHaveTextContent('Proof of eligibility required');
    expect(within(student).getByRole('button', { name: 'Contact Us' })).toBeInTheDocument();

    expect(screen.queryByRole('article', { name: 'Drop-In Session' })).not.toBeInTheDocument();
  });

  it('switches to Training Packages by click and back with the arrow keys', async () => {
    const user = userEvent.setup();
    await renderCatalogue();
    await user.click(screen.getByRole('tab', { name: 'Training Packages' }));
    expect(screen.getByRole('tab', { name: 'Training Packages' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAccessibleName('Training Packages');
    expect(planCard('Drop-In Session')).toHaveTextContent('£115');
    expect(planCard('Bronze Package')).toHaveTextContent('£750');
    expect(planCard('Bronze Package')).toHaveTextContent('2 sessions a week for 5 weeks');
    expect(screen.queryByRole('article', { name: 'Standard' })).not.toBeInTheDocument();

    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Memberships' })).toHaveFocus();
    expect(planCard('Standard')).toBeInTheDocument();
  });

  it('asks visitors to sign in to join, coming back to /membership', async () => {
    await renderCatalogue();
    expect(within(planCard('Standard')).getByRole('link', { name: 'Sign in to join' })).toHaveAttribute(
      'href',
      '/signin?redirect=%2Fmembership',
    );
  });

  it('closes the modal on Escape and starts empty next time', async () => {
    const user = userEvent.setup();
    await renderCatalogue();
    // The general Contact Us under the catalogue (the student card has its own).
    const opener = within(screen.getByRole('region', { name: 'Plans and prices' }))
      .getAllByRole('button', { name: 'Contact Us' })
      .at(-1)!;
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Contact Us' });
    await user.type(await within(dialog).findByLabelText('Name'), 'Sam');
    // The browser fires `cancel` on the dialog when Escape is pressed.
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();

    await user.click(opener);
    expect(await within(screen.getByRole('dialog', { name: 'Contact Us' })).findByLabelText('Name')).toHaveValue('');
  });

  it('leads anyone to buy a gift voucher', async () => {
    const region = await renderCatalogue();
    expect(within(region).getByRole('link', { name: 'Buy a gift voucher' })).toHaveAttribute('href', '/gift-vouchers');
  });
});
