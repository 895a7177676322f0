import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TextField } from '@/components/ui/field';
import { renderWithProviders } from '@/testing/render';
import { SettingsForm } from './settings-form';

// The one settings form every settings panel uses (decision 0107): validation, the busy button, the
// toast, "Saved" until a field changes, and the database's refusal in the panel's words.

const schema = z.object({ days: z.coerce.number({ message: 'Enter the days' }).int().min(1, 'At least 1 day') });

function Harness({ refuse = false }: { refuse?: boolean }) {
  const [stored, setStored] = useState({ days: 7 });
  const [saves, setSaves] = useState<number[]>([]);
  // Each save waits for the button below, so the test sees the form while it is under way.
  const [gate] = useState(() => {
    let release = () => undefined as void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    return { promise, release };
  });
  return (
    <>
      <button type="button" onClick={() => gate.release()}>
        Let the save finish
      </button>
      <p>Saved calls: {saves.join(',')}</p>
      <SettingsForm
        label="Days"
        schema={schema}
        values={{ days: stored.days }}
        save={async (values) => {
          await gate.promise;
          if (refuse) throw Object.assign(new Error('Days must be under 30'), { hint: 'bad_days' });
          setSaves((s) => [...s, values.days]);
          setStored({ days: values.days });
          return values.days;
        }}
        submitLabel="Save days"
        savedText={(days) => `Days set to ${days}`}
        errorText={(error) => ((error as { hint?: string }).hint === 'bad_days' ? 'Fewer than 30 days, please' : 'Could not save')}
      >
        {({ register, formState: { errors } }) => (
          <TextField label="Days" inputMode="numeric" {...register('days')} error={errors.days?.message} />
        )}
      </SettingsForm>
    </>
  );
}

/** The status beside the form's button (the toasts are status regions too). */
const formStatus = () => within(screen.getByRole('form', { name: 'Days' })).getByRole('status');

describe('SettingsForm', () => {
  it('refuses bad input without saving, is busy while saving, then toasts and says Saved until a field changes', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const days = screen.getByRole('textbox', { name: 'Days' });
    expect(days).toHaveValue('7');
    await user.clear(days);
    await user.type(days, '0');
    await user.click(screen.getByRole('button', { name: 'Save days' }));
    expect(await screen.findByText('At least 1 day')).toBeInTheDocument();
    expect(screen.getByText('Saved calls:')).toBeInTheDocument();

    await user.clear(days);
    await user.type(days, '12');
    await user.click(screen.getByRole('button', { name: 'Save days' }));
    const button = screen.getByRole('button', { name: 'Save days' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(formStatus()).toHaveTextContent('');
    await user.click(screen.getByRole('button', { name: 'Let the save finish' }));
    expect(await screen.findByText('Days set to 12')).toBeInTheDocument();
    expect(screen.getByText('Saved calls: 12')).toBeInTheDocument();
    expect(formStatus()).toHaveTextContent('Saved');
    expect(screen.getByRole('button', { name: 'Save days' })).toBeEnabled();
    expect(days).toHaveValue('12');

    await user.type(days, '3');
    expect(formStatus()).toHaveTextContent('');
  });

  it('shows the database’s refusal in the panel’s words and keeps what was typed', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness refuse />);
    const days = screen.getByRole('textbox', { name: 'Days' });
    await user.clear(days);
    await user.type(days, '45');
    await user.click(screen.getByRole('button', { name: 'Save days' }));
    await user.click(screen.getByRole('button', { name: 'Let the save finish' }));
    expect(await screen.findByText('Fewer than 30 days, please')).toBeInTheDocument();
    expect(formStatus()).toHaveTextContent('');
    expect(days).toHaveValue('45');
  });
});
