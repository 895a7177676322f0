import { describe, expect, it } from 'vitest';
import { readLocalEnv } from './config';

describe('readLocalEnv', () => {
  it('finds a stack moved to another port: the local SUPABASE_URL follows SUPABASE_LOCAL_PORT', () => {
    expect(readLocalEnv({ SUPABASE_LOCAL_PORT: '55421' }).SUPABASE_URL).toBe('http://127.0.0.1:55421');
  });

  it('keeps the default port when none is set, and an explicit SUPABASE_URL always', () => {
    expect(readLocalEnv({}).SUPABASE_URL).toBe('http://127.0.0.1:54321');
    const hosted = readLocalEnv({ SUPABASE_LOCAL_PORT: '55421', SUPABASE_URL: 'https://abc.supabase.co' });
    expect(hosted.SUPABASE_URL).toBe('https://abc.supabase.co');
  });
});
