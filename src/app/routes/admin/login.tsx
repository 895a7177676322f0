import { useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { AdminResetForm, AdminSignInForm } from '@/features/admin/components/admin-login-forms';

/** /admin/login: Admin Portal sign-in, and its Reset Password view. */
export function AdminLoginRoute() {
  const [view, setView] = useState<'sign-in' | 'reset'>('sign-in');
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-900 px-4 py-10">
      <Card className="w-full max-w-md">
        <div className="mb-6 flex items-center gap-3">
          <span className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-brand-100 text-brand-700">
            <ShieldCheck aria-hidden="true" className="h-6 w-6" />
          </span>
          <h1 className="text-2xl font-bold tracking-tight">{view === 'sign-in' ? 'Admin Portal' : 'Reset Password'}</h1>
        </div>
        {view === 'sign-in' ? <AdminSignInForm onForgot={() => setView('reset')} /> : <AdminResetForm onBack={() => setView('sign-in')} />}
      </Card>
    </main>
  );
}
