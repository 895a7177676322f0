import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

type Restriction = { paths?: { name: string }[] };

async function restrictedImports(file: string): Promise<string[]> {
  const config = (await new ESLint().calculateConfigForFile(file)) as { rules: Record<string, [unknown, Restriction?]> };
  return (config.rules['@typescript-eslint/no-restricted-imports']?.[1]?.paths ?? []).map((path) => path.name);
}

// eslint.config.js takes the visitor path's files from scripts/visitor-path.js (decisions 0013, 0014).
describe('the lint rule of the visitor path', () => {
  it('forbids supabase-js and zod in a file a visitor page imports, found through the route table', async () => {
    expect(await restrictedImports('src/features/booking/components/class-card.tsx')).toEqual(
      expect.arrayContaining(['@/lib/supabase', '@supabase/supabase-js', 'zod', 'zod/mini']),
    );
  });

  it('leaves member screens, which load the client anyway, to the general rule', async () => {
    expect(await restrictedImports('src/app/routes/dashboard.tsx')).toEqual(['react-hot-toast']);
  });
});
