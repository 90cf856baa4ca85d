// The users module's public surface: other modules import from '../users' (this file) only.
export { createSsoUser, loadSessionUser, type SessionUser } from './users.service';
