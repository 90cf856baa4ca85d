// The routing module's public surface: other modules import from '../routing' (this file) only.
export { routeSoon } from './routing';
