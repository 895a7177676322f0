import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button';

describe('Button', () => {
  it('cannot be pressed while loading, even when its caller says it is not disabled', async () => {
    const onClick = vi.fn();
    render(
      <Button loading disabled={false} onClick={onClick}>
        Booking...
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Booking...' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('is pressable when neither loading nor disabled', async () => {
    const onClick = vi.fn();
    render(<Button onClick={onClick}>Book Now</Button>);
    await userEvent.click(screen.getByRole('button', { name: 'Book Now' }));
    expect(onClick).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Book Now' })).not.toHaveAttribute('aria-busy');
  });
});
