import { Toaster } from 'react-hot-toast';
import { toasterProps } from '@/lib/toast-options';

/** The app's Toaster with the spec's options; its own chunk, loaded with the first toast (ToasterHost). */
export function AppToaster() {
  return <Toaster {...toasterProps} />;
}
