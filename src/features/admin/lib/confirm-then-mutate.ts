import { toast } from '@/lib/toast';

type Mutation<V> = { mutate: (variables: V, options: { onSuccess: () => void; onError: (error: Error) => void }) => void };

/**
 * A row's destructive action (spec section 5: deleting and cancelling need a browser confirmation
 * first): asks, then runs the mutation and toasts its outcome. `failure` may word the server's error.
 */
export function confirmThenMutate<V>(
  question: string,
  mutation: Mutation<V>,
  variables: V,
  messages: { success: string; failure: string | ((error: Error) => string) },
) {
  if (!window.confirm(question)) return;
  mutation.mutate(variables, {
    onSuccess: () => toast.success(messages.success),
    onError: (error) => toast.error(typeof messages.failure === 'string' ? messages.failure : messages.failure(error)),
  });
}
