// The settings module's public surface: other modules import from '../settings' (this file) only.
export { getSettingValue } from './settings.service';
