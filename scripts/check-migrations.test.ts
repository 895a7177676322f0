import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkAgainstManifest, checkManifestHistory, MANIFEST, seal } from './check-migrations';

let root: string;
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
const write = (name: string, sql: string) => writeFileSync(join(root, 'supabase/migrations', name), sql);
const commit = (message: string) => {
  git('add', '-A');
  git('-c', 'user.email=ci@studio.test', '-c', 'user.name=ci', 'commit', '-qm', message);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'migrations-'));
  mkdirSync(join(root, 'supabase/migrations'), { recursive: true });
  git('init', '-q');
  write('20260101000100_members.sql', 'create table public.members (id uuid);\n');
  write('20260101000200_classes.sql', 'create table public.classes (id uuid);\n');
  seal(root);
  commit('sealed');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('append-only migrations', () => {
  it('passes when nothing sealed changed', () => {
    expect(checkAgainstManifest(root)).toEqual([]);
    expect(checkManifestHistory(root).problems).toEqual([]);
  });

  it('fails when a sealed migration is edited, deleted or a new one is left unsealed', () => {
    write('20260101000100_members.sql', 'create table public.members (id uuid, name text);\n');
    unlinkSync(join(root, 'supabase/migrations/20260101000200_classes.sql'));
    write('20261201000100_memberships.sql', 'create table public.memberships (id uuid);\n');
    expect(checkAgainstManifest(root).map((p) => `${p.file}: ${p.problem}`)).toEqual([
      '20260101000100_members.sql: a sealed migration was changed: write a new migration instead',
      '20260101000200_classes.sql: a sealed migration was deleted or renamed',
      '20261201000100_memberships.sql: not sealed: run `npm run db:migrations:seal`',
    ]);
  });

  it('seals only new migrations and refuses one that sorts before the sealed ones', () => {
    write('20261201000100_memberships.sql', 'select 1;\n');
    expect(seal(root)).toEqual(['20261201000100_memberships.sql']);
    expect(checkAgainstManifest(root)).toEqual([]);
    write('20260101000150_late.sql', 'select 2;\n');
    expect(checkAgainstManifest(root).map((p) => p.problem)).toContain(
      'sorts before the newest sealed migration (20261201000100_memberships.sql): it would never run on a deployed database',
    );
  });

  it('fails when a migration and its committed checksum are both rewritten', () => {
    write('20260101000100_members.sql', 'create table public.members (id uuid, name text);\n');
    const manifest = readFileSync(join(root, MANIFEST), 'utf8')
      .split('\n')
      .filter((l) => !l.endsWith('_members.sql'))
      .join('\n');
    writeFileSync(join(root, MANIFEST), manifest);
    seal(root);
    expect(checkAgainstManifest(root)).toEqual([]);
    expect(checkManifestHistory(root).problems.map((p) => p.file)).toEqual(['20260101000100_members.sql']);
  });

  it('lets a branch reseal its own migration before it lands, never after', () => {
    const main = git('rev-parse', '--abbrev-ref', 'HEAD').trim();
    const reseal = (name: string, sql: string) => {
      write(name, sql);
      const manifest = readFileSync(join(root, MANIFEST), 'utf8')
        .split('\n')
        .filter((l) => !l.endsWith(name))
        .join('\n');
      writeFileSync(join(root, MANIFEST), manifest);
      seal(root);
    };
    git('checkout', '-qb', 'feature');
    write('20261201000100_families.sql', 'create table public.dependants (id uuid);\n');
    seal(root);
    commit('families');
    reseal('20261201000100_families.sql', 'create table public.dependants (id uuid, name text);\n');
    commit('families: a column more, before landing');
    git('checkout', '-q', main);
    git('-c', 'user.email=ci@studio.test', '-c', 'user.name=ci', 'merge', '-q', '--no-ff', '-m', 'merge families', 'feature');
    expect(checkManifestHistory(root).problems).toEqual([]);

    // Landed on main: now it is deployed, and changing it is refused.
    reseal('20261201000100_families.sql', 'create table public.dependants (id uuid, name text, dob date);\n');
    commit('families: rewritten after landing');
    expect(checkManifestHistory(root).problems.map((p) => p.file)).toEqual(['20261201000100_families.sql']);
  });
});
