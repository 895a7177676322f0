import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast, toastsRequested } from '@/lib/toast';
import { ToasterHost } from './toaster-host';

describe('ToasterHost', () => {
  it('mounts no toaster until a toast is asked for, then shows the toasts in the order asked (newest on top)', async () => {
    const { container } = render(<ToasterHost />);
    expect(toastsRequested()).toBe(false);
    expect(container).toBeEmptyDOMElement();

    toast.success('Class booked successfully!');
    toast.error('Failed to load classes');

    const statuses = await screen.findAllByRole('status');
    expect(statuses.map((s) => s.textContent)).toEqual(['Failed to load classes', 'Class booked successfully!']);
  });
});
