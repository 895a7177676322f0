import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { documentsHandlers } from '@/features/documents/testing/documents-mocks';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';
import { FamilyRoute } from './family';

configure({ asyncUtilTimeout: 5000 });

const renderFamily = () => renderApp('/family', { routes: [{ path: '/family', element: <FamilyRoute /> }] });

type Child = {
  id: string;
  name: string;
  date_of_birth: string;
  medical_notes: string | null;
  collected_by: string | null;
  missing_documents: string[];
  created_at: string;
};

/** A parent whose children live in `children` (my_dependants), changed by save_dependant / sign_for_dependant. */
function setup(children: Child[]) {
  const me = signInAs({ name: 'Pat Parent', membership_tier: 'standard' });
  const calls: Record<string, unknown>[] = [];
  server.use(
    memberHandler(me.member),
    ...documentsHandlers({ signed: true }),
    rpc('my_dependants', () => children),
    rpc('save_dependant', ({ args }) => {
      calls.push(args);
      children.push({
        id: `child-${children.length + 1}`,
        name: String(args.p_name),
        date_of_birth: String(args.p_date_of_birth),
        medical_notes: (args.p_medical_notes as string) || null,
        collected_by: (args.p_collected_by as string) || null,
        missing_documents: ['waiver', 'child_parq'],
        created_at: '2026-11-27T00:00:00Z',
      });
      return `child-${children.length}`;
    }),
    rpc('sign_for_dependant', ({ args }) => {
      calls.push(args);
      for (const c of children) if (c.id === args.p_dependant_id) c.missing_documents = [];
      return children;
    }),
  );
  return calls;
}

describe('/family', { timeout: 30_000 }, () => {
  it("adds a child without an email, then signs the waiver and answers the children's questions for them", async () => {
    const calls = setup([]);
    const user = userEvent.setup();
    renderFamily();
    expect(await screen.findByText('No children added yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add a child' }));
    const form = screen.getByRole('form', { name: 'Add a child' });
    await user.type(within(form).getByRole('textbox', { name: /Child's name/ }), 'Ava');
    await user.type(within(form).getByLabelText(/Date of birth/), '2019-05-04');
    await user.type(within(form).getByRole('textbox', { name: /Medical notes/ }), 'Nut allergy');
    await user.type(within(form).getByRole('textbox', { name: /Who may collect them/ }), 'Grandma Sue');
    await user.click(within(form).getByRole('button', { name: 'Add a child' }));

    expect(await screen.findByRole('heading', { name: 'Ava' })).toBeInTheDocument();
    expect(calls[0]).toEqual({
      p_name: 'Ava',
      p_date_of_birth: '2019-05-04',
      p_medical_notes: 'Nut allergy',
      p_collected_by: 'Grandma Sue',
    });
    expect(screen.getByText('Waiver and health questions to sign before booking')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign for Ava' }));
    expect(await screen.findByRole('heading', { name: 'Sign for Ava', level: 1 })).toBeInTheDocument();
    await user.click(await screen.findByRole('checkbox', { name: 'I have read and accept the Liability Waiver' }));
    // The children's questionnaire, never the adult PAR-Q (decision 0093).
    expect(screen.getByRole('heading', { name: "Children's health questionnaire" })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: /heart condition|pain in your chest/ })).not.toBeInTheDocument();
    await user.click(within(screen.getByRole('group', { name: /asthma/ })).getByRole('radio', { name: 'Yes' }));
    await user.click(within(screen.getByRole('group', { name: /injury in the last six months/ })).getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('checkbox', { name: /I consent to Finer Fitness keeping Ava's health answers/ }));
    await user.click(screen.getByRole('button', { name: 'Sign and continue' }));

    expect(await screen.findByText('Waiver and health questions signed')).toBeInTheDocument();
    expect(calls[1]).toMatchObject({
      p_dependant_id: 'child-1',
      p_signed_name: 'Pat Parent',
      p_document_ids: ['d0000000-0000-4000-8000-000000000002', 'd0000000-0000-4000-8000-000000000006'],
      p_answers: [true, false],
      p_health_consent: true,
    });
  });

  it('refuses a date of birth in the future before sending anything', async () => {
    const calls = setup([]);
    const user = userEvent.setup();
    renderFamily();
    await user.click(await screen.findByRole('button', { name: 'Add a child' }));
    const form = screen.getByRole('form', { name: 'Add a child' });
    await user.type(within(form).getByRole('textbox', { name: /Child's name/ }), 'Later');
    await user.type(within(form).getByLabelText(/Date of birth/), '2999-01-01');
    await user.click(within(form).getByRole('button', { name: 'Add a child' }));
    expect(await screen.findByText('Date of birth cannot be in the future')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("says the server's refusal when a child with a class ahead is removed", async () => {
    setup([
      {
        id: 'c1',
        name: 'Ben',
        date_of_birth: '2017-02-03',
        medical_notes: null,
        collected_by: null,
        missing_documents: [],
        created_at: '2026-11-27T00:00:00Z',
      },
    ]);
    server.use(
      rpc('remove_dependant', () =>
        postgrestError({
          code: 'P0001',
          message: "Cancel this child's upcoming classes before removing them",
          hint: 'dependant_has_bookings',
        }),
      ),
    );
    const user = userEvent.setup();
    renderFamily();
    await user.click(await screen.findByRole('button', { name: 'Remove Ben' }));
    expect(await screen.findByText("Cancel this child's upcoming classes before removing them")).toBeInTheDocument();
  });
});
