import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { documentsHandlers } from '@/features/documents/testing/documents-mocks';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { restGet } from '@/testing/supabase-mocks';
import { LegalDocumentRoute } from './legal-document';

const renderLegal = (url: string) => renderApp(url, { routes: [{ path: '/legal/:kind', element: <LegalDocumentRoute /> }] });

describe('/legal/<kind>', () => {
  it('shows the current published version of a document to anyone', async () => {
    server.use(...documentsHandlers({ signed: false }));
    renderLegal('/legal/waiver');
    expect(await screen.findByRole('heading', { name: 'Liability Waiver and Assumption of Risk', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Version 2, published 1 January 2026')).toBeInTheDocument();
    expect(screen.getByText('Exercise carries a risk of injury.')).toBeInTheDocument();
  });

  it('says so when nothing is published yet', async () => {
    server.use(restGet('document_versions', () => []));
    renderLegal('/legal/cookies');
    expect(await screen.findByText('This document has not been published yet.')).toBeInTheDocument();
  });
});
