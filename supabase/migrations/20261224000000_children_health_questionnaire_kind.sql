-- The children's health questionnaire is a document kind of its own (decision 0093): a new enum
-- value cannot be used in the transaction that adds it, so it is added here, alone, and used by
-- the next migration.
alter type public.document_kind add value if not exists 'child_parq';
