import { Spinner } from './spinner';

/** A screen's title and a loading state, for screens whose feature is still being built. */
export function PagePlaceholder({ title }: { title: string }) {
  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <Spinner label={`Loading ${title}`} />
    </section>
  );
}
