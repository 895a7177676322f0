import type { ToasterProps } from 'react-hot-toast';

/**
 * Toasts per spec section 9: top centre; 4 s for blank, error and custom, 2 s for success,
 * loading never expires (react-hot-toast's defaults, stated here so they are visible); at most
 * 20 kept (react-hot-toast's own TOAST_LIMIT); max width 350 px; 8 px gap.
 */
export const toasterProps: ToasterProps = {
  position: 'top-center',
  gutter: 8,
  toastOptions: {
    duration: 4000,
    style: { maxWidth: '350px' },
    success: { duration: 2000 },
    error: { duration: 4000 },
    loading: { duration: Infinity },
  },
};
