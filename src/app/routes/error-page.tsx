function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The app's error screen (spec section 2): "Unexpected Application Error!" with the error text. */
export function ErrorPage({ error }: { error: unknown }) {
  return (
    <main className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-2xl font-bold text-red-700">Unexpected Application Error!</h1>
      <pre className="mt-4 whitespace-pre-wrap rounded-md bg-slate-100 p-4 text-sm text-slate-800">{errorText(error)}</pre>
      <a href="/" className="mt-6 inline-block font-semibold text-brand-700 underline">
        Back to Home
      </a>
    </main>
  );
}
