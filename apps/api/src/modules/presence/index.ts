// The presence module's public surface: other modules import from '../presence' (this file) only.
export { choosePresence } from './presence';
