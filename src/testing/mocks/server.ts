import { setupServer } from 'msw/node';

/** The msw server for screen tests. Tests add handlers with `server.use(...)`; unhandled requests fail. */
export const server = setupServer();
