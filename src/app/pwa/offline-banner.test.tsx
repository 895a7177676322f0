import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OfflineBanner } from './offline-banner';
import { offlineMessage } from './offline-messages';

describe('the offline banner', () => {
  it('says the page shows the last copy, from when, and that bookings wait for a connection', () => {
    render(<OfflineBanner offline readAt={Date.parse('2026-11-20T14:05:00Z')} />);
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent(
      /^You are offline: showing what we had at (2:05 PM|Fri 20 Nov at 2:05 PM); it may be out of date\. Booking and cancelling need a connection\.$/,
    );
  });

  it('names the time in studio time, with the day when it was not today', () => {
    const readAt = Date.parse('2026-11-20T14:05:00Z');
    expect(offlineMessage(readAt, new Date('2026-11-20T18:00:00Z'))).toBe(
      'You are offline: showing what we had at 2:05 PM; it may be out of date.',
    );
    expect(offlineMessage(readAt, new Date('2026-11-22T09:00:00Z'))).toBe(
      'You are offline: showing what we had at Fri 20 Nov at 2:05 PM; it may be out of date.',
    );
    expect(offlineMessage(null)).toBe('You are offline: nothing has been saved on this phone yet.');
  });

  it('is an empty status region while online, so that going offline is announced', () => {
    render(<OfflineBanner offline={false} readAt={null} />);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });
});
