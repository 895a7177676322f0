import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WhenVisible } from './when-visible';

// A lazy part below the fold renders once its place nears the screen.

let fire: ((isIntersecting: boolean) => void) | undefined;
class FakeObserver {
  constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
    fire = (isIntersecting) => callback([{ isIntersecting }]);
  }
  observe() {}
  disconnect() {}
}

afterEach(() => {
  vi.unstubAllGlobals();
  fire = undefined;
});

describe('WhenVisible', () => {
  it('keeps an empty place until it comes near the screen, then renders its children', () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const { container } = render(
      <WhenVisible minHeight="20rem">
        <p>Below the fold</p>
      </WhenVisible>,
    );
    expect(screen.queryByText('Below the fold')).not.toBeInTheDocument();
    expect(container.firstElementChild).toHaveStyle({ minHeight: '20rem' });
    act(() => fire!(false));
    expect(screen.queryByText('Below the fold')).not.toBeInTheDocument();
    act(() => fire!(true));
    expect(screen.getByText('Below the fold')).toBeInTheDocument();
  });

  it('does not look until ready (what is above it still loading)', () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const { rerender } = render(
      <WhenVisible minHeight="20rem" ready={false}>
        <p>Below the fold</p>
      </WhenVisible>,
    );
    expect(fire).toBeUndefined();
    rerender(
      <WhenVisible minHeight="20rem" ready>
        <p>Below the fold</p>
      </WhenVisible>,
    );
    act(() => fire!(true));
    expect(screen.getByText('Below the fold')).toBeInTheDocument();
  });

  it('renders at once where IntersectionObserver is missing', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(
      <WhenVisible minHeight="20rem">
        <p>Below the fold</p>
      </WhenVisible>,
    );
    expect(screen.getByText('Below the fold')).toBeInTheDocument();
  });
});
